#pragma once

// The immutable IR that lowering produces from a parse tree: one Module per
// PTX text, holding its globals and functions; each function holds dense
// registers, decoded instructions and its control-flow graph. Everything
// the executor needs is resolved here once (register names to indices,
// labels to instruction indices, branches to reconvergence points), so
// nothing downstream ever looks at names or text again.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptxsim/isa/data_type.h"
#include "ptxsim/isa/instruction_table.h"
#include "ptxsim/isa/modifier.h"
#include "ptxsim/isa/opcode.h"
#include "ptxsim/isa/state_space.h"

namespace ptxsim::isa {

inline constexpr uint32_t kNone = UINT32_MAX;

// A string-keyed map that can be searched with a string_view.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename T>
using StringMap = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;

// A position in the PTX text (1-based line and byte column).
struct SourceLocation {
  uint32_t line = 0;
  uint32_t column = 0;
};

// The CUDA source position a `.loc` directive gave the instruction.
struct DebugLocation {
  uint32_t file = 0;  // .file index; 0 when there is no .loc
  uint32_t line = 0;
  uint32_t column = 0;
};

enum class SpecialRegister : uint8_t {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Clock, ClockHi, Clock64, Globaltimer, GlobaltimerLo, GlobaltimerHi,
  DynamicSmemSize, TotalSmemSize, AggrSmemSize,
  Clusterid, Nclusterid, ClusterCtaid, ClusterNctaid, ClusterCtarank, ClusterNctarank,
  IsExplicitCluster, Envreg, Pm, Pm64, ReservedSmemOffsetBegin, ReservedSmemOffsetEnd, ReservedSmemOffsetCap,
  ReservedSmemOffset, CurrentGraphExec, WarpSize,
  Count_,
};

struct SpecialRegisterInfo {
  std::string_view name;  // "%tid"
  bool hasComponents;     // takes .x/.y/.z
  DataType type;
  uint16_t count;         // %envreg<32>, %pm0..7: number of indexed instances
};
const SpecialRegisterInfo& specialRegisterInfo(SpecialRegister reg);

enum class OperandKind : uint8_t {
  None,
  Register,         // index: dense register index
  Special,          // index: SpecialRegister, component: 0..3 (x,y,z,w) or instance number
  Immediate,        // value: integer bits
  FloatImmediate,   // value: the bits of an f32 (0f...) or f64 (0d... / decimal)
  Symbol,           // index: per `scope`; value: byte offset (var+8)
  Label,            // index: instruction index in the function
  Function,         // index: function index in Module::functions
  Address,          // base per `scope` (register or symbol) plus value: offset
  Vector,           // {a, b}: index: first element in Function::operands, count: elements
  AddressTuple,     // [tex, {x, y}]: elements as for Vector
  List,             // (a, b) of call: elements as for Vector
  Sink,             // `_`
};

// Where a Symbol operand, or the base of an Address operand, lives.
enum class SymbolScope : uint8_t {
  Register,     // Address only: the base is a register (index)
  Module,       // index into Module::symbols
  Local,        // index into Function::locals
  Parameter,    // index into Function::params
  ReturnValue,  // index into Function::returns
  Absolute,     // Address only: `[1024]`
};

// A video instruction's part selector on a register operand, as written:
// `%r.b1` `%r.h0` (scalar), `%r.h10` (2-way SIMD), `%r.b3210` (4-way SIMD).
// The instruction decides what the digits mean; kind 0: no selector.
struct VideoSelector {
  char kind = 0;                    // 'b' (bytes) or 'h' (half-words)
  uint8_t count = 0;                // digits written, 1 to 4
  std::array<uint8_t, 4> digits{};  // digits[i]: the i-th digit from the right (element i's source)
};

struct Operand {
  OperandKind kind = OperandKind::None;
  bool negated = false;          // `!%p`
  SymbolScope scope = SymbolScope::Register;
  uint8_t component = 0;         // Special: x,y,z,w = 0..3, or the instance number
  int8_t element = -1;            // Register: %v.x of a vector register is element 0
  uint16_t count = 0;
  uint32_t index = kNone;
  uint32_t secondIndex = kNone;  // `%r|%p`: the predicate register
  int64_t value = 0;
  DataType immediateType = DataType::None;  // F32 or F64 for FloatImmediate
  bool minus = false;                       // `-%r`: a negated source of vmad
  VideoSelector select{};                   // video instructions' `%r.b0`-style selector
};

struct Guard {
  uint32_t reg = kNone;  // kNone: unguarded
  bool negated = false;
};

struct Instruction {
  Opcode opcode = Opcode::Invalid;
  UnitClass unit = UnitClass::IntAlu;
  uint8_t typeCount = 0;
  uint8_t operandCount = 0;
  std::array<DataType, 4> types{};
  ModifierSet modifiers;
  MatrixShape shape;
  Guard guard;
  uint32_t firstOperand = 0;          // into Function::operands
  uint32_t branchTarget = kNone;      // bra: target instruction index
  uint32_t reconvergence = kNone;     // divergent branches: immediate post-dominator
  uint32_t block = 0;                 // basic block index
  const InstructionSpec* spec = nullptr;
  SourceLocation where;
  DebugLocation debug;
};

// A variable in any state space: module-scope globals, and function-scope
// .local / .shared / .param declarations.
struct Relocation {
  uint64_t offset;     // where in the initializer the address goes
  uint32_t symbol;     // index in Module::symbols
  int64_t addend;
  bool generic;        // generic(var) rather than var
  uint8_t size;        // bytes written: 4 or 8, or 1 for a masked byte
  uint8_t shift;       // masked byte: (address >> shift) & 0xff
};

struct Variable {
  std::string name;
  StateSpace space = StateSpace::Global;
  DataType type = DataType::None;
  uint8_t vectorWidth = 1;
  uint32_t alignment = 1;
  uint64_t elementCount = 1;          // product of array dimensions
  uint64_t size = 0;                  // bytes
  bool hasInitializer = false;
  bool isExtern = false;
  bool isVisible = false;
  bool isWeak = false;
  bool isManaged = false;
  std::vector<uint8_t> initializer;   // `size` bytes when hasInitializer
  std::vector<Relocation> relocations;
  // Fields of a .samplerref/.texref/.surfref initializer, name = value.
  std::vector<std::pair<std::string, std::string>> opaqueFields;
  SourceLocation where;
};

struct Parameter {
  std::string name;
  DataType type = DataType::None;
  uint8_t vectorWidth = 1;
  uint32_t alignment = 1;
  uint64_t size = 0;
  uint64_t offset = 0;  // byte offset in the parameter buffer, per the ABI
  StateSpace space = StateSpace::Param;
  StateSpace pointeeSpace = StateSpace::Generic;  // .ptr.global
  uint32_t pointeeAlignment = 0;
};

// A register's name is kept as its declaration's name (an index into
// Function::registerNames) plus, for `%r<100>` declarations, its number:
// functions declare thousands of registers and few names are ever printed.
struct RegisterInfo {
  uint32_t name = 0;         // index into Function::registerNames
  uint32_t number = kNone;   // %r<N>: which of the N; kNone for a plain name
  DataType type = DataType::None;
  uint8_t vectorWidth = 1;
};

struct BasicBlock {
  uint32_t first = 0;  // instruction indices [first, end)
  uint32_t end = 0;
  std::vector<uint32_t> successors;
  std::vector<uint32_t> predecessors;
  uint32_t immediatePostDominator = kNone;  // kNone: the function's exit
};

struct PerformanceDirectives {
  std::array<uint32_t, 3> maxntid{};
  std::array<uint32_t, 3> reqntid{};
  std::array<uint32_t, 3> reqnctapercluster{};
  uint32_t minnctapersm = 0;
  uint32_t maxnctapersm = 0;
  uint32_t maxnreg = 0;
  uint32_t maxclusterrank = 0;
  bool explicitCluster = false;
  bool noReturn = false;
  std::vector<std::string> pragmas;
};

enum class Linkage : uint8_t { Internal, Visible, Extern, Weak, Common };

struct Function {
  std::string name;
  bool isKernel = false;
  bool isDefined = false;  // false for prototypes and .extern declarations
  Linkage linkage = Linkage::Internal;
  std::vector<Parameter> params;
  std::vector<Parameter> returns;
  uint64_t paramBytes = 0;
  PerformanceDirectives directives;
  std::vector<RegisterInfo> registers;
  std::vector<std::string> registerNames;  // declaration names, see RegisterInfo
  std::vector<Variable> locals;  // .local/.shared/.param declared in the body
  std::vector<Instruction> instructions;
  std::vector<Operand> operands;
  std::vector<BasicBlock> blocks;
  // Branch tables of brx.idx: labels resolved to instruction indices.
  std::vector<std::vector<uint32_t>> branchTables;
  SourceLocation where;

  std::string registerName(uint32_t reg) const;
};

// Module-scope names: globals and functions share one namespace.
enum class SymbolKind : uint8_t { Variable, Function, LocalVariable, BranchTable, CallPrototype };
struct Symbol {
  SymbolKind kind;
  uint32_t index;     // into Module::globals / functions, or Function::locals
  uint32_t function;  // owning function for LocalVariable / BranchTable
};

struct Target {
  uint32_t sm = 0;          // 90 for sm_90a
  char suffix = 0;          // 'a', 'f' or 0
  bool texmodeIndependent = false;
  bool debug = false;
  bool mapF64ToF32 = false;
};

struct Module {
  uint32_t ptxVersion = 0;  // major*10+minor
  Target target;
  uint32_t addressSize = 64;
  std::vector<Variable> globals;
  std::vector<Function> functions;
  std::vector<Symbol> symbols;
  StringMap<uint32_t> symbolIndex;                         // name -> symbols index
  std::unordered_map<uint32_t, std::string> files;        // .file index -> path

  size_t kernelCount() const;
  size_t instructionCount() const;
  const Function* findFunction(std::string_view name) const;
};

}  // namespace ptxsim::isa
