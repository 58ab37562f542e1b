#pragma once

// The executable form of a function: each IR instruction bound once, at
// prepare time, to the handler that runs it for its opcode, types and
// modifiers, with every operand resolved to a register row. Immediates and
// addresses known before the launch live in constant rows shared by all
// warps, so a handler reads every source the same way. Values that depend
// on the thread or the frame (special registers, addresses of .local
// variables) are materialised into per-frame scratch rows just before the
// instruction runs.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lanes.h"
#include "ptxsim/isa/module.h"
#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::exec {

struct ExecContext;
struct PreparedInstruction;
using Handler = void (*)(const PreparedInstruction&, ExecContext&);

inline constexpr uint32_t kNoRow = UINT32_MAX;

// One operand, resolved.
struct PreparedOperand {
  uint32_t row = kNoRow;        // register, scratch or constant row; an address's base
  uint32_t secondRow = kNoRow;  // `%r|%p`: the predicate destination
  uint32_t firstElement = 0;    // vectors: first index into PreparedFunction::vectorRows
  uint8_t elementCount = 0;     // vectors: element count (0: not a vector)
  bool negated = false;         // `!%p`
  bool isSink = false;          // `_`
  bool address32 = false;       // addresses: computed in 32 bits (a base register of 32 bits or fewer)
  int64_t offset = 0;           // addresses: constant byte offset added to the base

  // The effective address of `[base+offset]` for one lane. A 32-bit address
  // wraps at 2^32 as the hardware computes it: nvcc leaves shared-memory
  // bases that went below zero in 32-bit registers and adds the offset in
  // the access (`[%r4+68]` with %r4 = 0xffffffc0 is shared offset 4).
  uint64_t effectiveAddress(uint64_t base) const {
    uint64_t sum = base + static_cast<uint64_t>(offset);
    return address32 ? static_cast<uint32_t>(sum) : sum;
  }
};

// What a scratch row is filled with before its instruction runs.
enum class MaterializeKind : uint8_t { Special, LocalAddress };
struct Materialization {
  MaterializeKind kind;
  isa::SpecialRegister special = isa::SpecialRegister::Tid;
  uint8_t component = 0;
  uint32_t row = kNoRow;  // the scratch row
  uint64_t offset = 0;    // LocalAddress: the variable's offset in the frame's local area
};

// Which state space an address operand names, once the instruction's
// modifiers are known. Generic addresses are classified per lane.
using sim::AddressSpace;

// Instructions that synchronise threads, which the SIMT modes treat apart:
// under independent thread scheduling they wait for other threads.
enum class SyncKind : uint8_t {
  None,
  Collective,  // shfl/vote/match/redux/elect .sync: member mask in the last operand
  WarpSync,    // bar.warp.sync: member mask in the last operand
  WarpAligned,  // (w)mma/ldmatrix/stmatrix .sync.aligned: every live lane of the warp
  CtaBarrier,  // bar/barrier (sync, arrive, red), barrier.cluster
};

struct PreparedInstruction {
  Handler handler = nullptr;
  SyncKind sync = SyncKind::None;
  const isa::Instruction* source = nullptr;
  uint32_t guardRow = kNoRow;
  bool guardNegated = false;
  bool changesControl = false;  // the handler sets the PC itself
  uint8_t operandCount = 0;
  AddressSpace space = AddressSpace::Generic;
  uint16_t materializeCount = 0;
  uint32_t materializeFirst = 0;  // into PreparedFunction::materializations
  std::array<PreparedOperand, 8> ops{};
  uint64_t aux = 0;               // handler-specific data decided at prepare time
  uint64_t aux2 = 0;
  // The register rows the instruction writes, then those it reads (guard
  // included), at PreparedFunction::dependenceRows[dependenceFirst...]: what
  // a timing model's dependence tracking needs. They number the registers
  // as declared, before their rows are shared (declaredRegisterRows); rows
  // of .b128 registers are named by their first row.
  uint32_t dependenceFirst = 0;
  uint8_t writeCount = 0;
  uint8_t readCount = 0;
};

// How a call binds the caller's .param variables to the callee's
// parameters and return values (matched by position).
struct ParamSlot {
  uint64_t callerOffset = 0;  // in the caller's parameter area
  uint64_t size = 0;
};
// Device runtime functions the simulator provides (device_runtime.cpp,
// device_launch_runtime.cpp).
enum class Builtin : uint8_t {
  None,
  Vprintf,
  Malloc,
  Free,
  AssertFail,
  GetParameterBuffer,  // __cudaCDP2GetParameterBufferV2
  LaunchDevice,        // __cudaCDP2LaunchDeviceV2
  GetLastError,
  PeekAtLastError,
  GetDevice,
  StreamCreateWithFlags,
  StreamDestroy,
  EventCreateWithFlags,
  EventRecord,  // also EventRecordWithFlags
  EventDestroy,
  StreamWaitEvent,
  DeviceMalloc,  // __cudaCDP2Malloc: cudaMalloc in device code
  DeviceFree,    // __cudaCDP2Free
};
struct CallBinding {
  uint32_t callee = UINT32_MAX;   // Module::functions index of a direct call
  uint32_t calleeRow = UINT32_MAX;  // indirect calls: the row holding the function address
  Builtin builtin = Builtin::None;
  std::vector<ParamSlot> arguments;
  std::vector<ParamSlot> results;
};

struct PreparedFunction {
  const isa::Function* function = nullptr;
  uint32_t index = 0;           // in Module::functions
  uint32_t registerCount = 0;   // rows [0, registerCount), shared by registers never live together
  // Rows of the registers as declared (a .b128 takes two): what the
  // dependence rows number, and what a machine's register count is
  // estimated from (register_compaction.h).
  uint32_t declaredRegisterRows = 0;
  std::vector<uint32_t> registerRows;  // by IR register index: its (first) row; kNoRow if never used
  uint32_t scratchCount = 0;    // rows [registerCount, registerCount + scratchCount)
  std::vector<uint64_t> constants;  // 32 lanes per constant row, after the scratch rows
  std::vector<uint32_t> vectorRows;
  std::vector<uint32_t> dependenceRows;  // PreparedInstruction::dependenceFirst indexes this
  std::vector<Materialization> materializations;
  std::vector<PreparedInstruction> code;
  // Bytes of .local variables in this function's frame, and each local
  // variable's offset there (by Function::locals index; kNone for others).
  uint64_t localFrameBytes = 0;
  std::vector<uint64_t> localOffsets;
  // Per-lane parameter area: params, then return values, then the .param
  // variables the body declares for its calls.
  uint64_t paramAreaBytes = 0;
  uint64_t returnsOffset = 0;
  std::vector<uint64_t> paramLocalOffsets;  // by Function::locals index
  std::vector<CallBinding> calls;           // PreparedInstruction::aux of a call indexes this
  std::unique_ptr<isa::Instruction> implicitReturn;  // the ret appended after the last instruction

  bool usesAlloca = false;  // needs the local stack even without calls

  uint32_t frameRows() const { return registerCount + scratchCount; }
  std::span<const uint32_t> writesOf(const PreparedInstruction& pi) const {
    return {dependenceRows.data() + pi.dependenceFirst, pi.writeCount};
  }
  std::span<const uint32_t> readsOf(const PreparedInstruction& pi) const {
    return {dependenceRows.data() + pi.dependenceFirst + pi.writeCount, pi.readCount};
  }
};

}  // namespace ptxsim::sim::exec
