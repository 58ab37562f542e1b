#include "preparer.h"

#include <algorithm>
#include <bit>
#include <map>

#include "../semantics/semantics.h"
#include "instruction_schedule.h"
#include "ptxsim/isa/operand_access.h"
#include "register_compaction.h"
#include "shared_layout.h"

namespace ptxsim::sim::exec {

namespace {

using isa::DataType;
using isa::Operand;
using isa::OperandKind;
using isa::StateSpace;
using isa::SymbolScope;

std::string locationText(const isa::Module& module, const isa::Instruction& inst) {
  std::string text = "PTX line " + std::to_string(inst.where.line);
  if (inst.debug.line != 0) {
    auto it = module.files.find(inst.debug.file);
    if (it != module.files.end()) text += " (" + it->second + ":" + std::to_string(inst.debug.line) + ")";
  }
  return text;
}

std::string opcodeText(const isa::Instruction& inst) {
  std::string text(isa::mnemonicOf(inst.opcode));
  for (unsigned g = 0; g < isa::kModGroupCount; ++g) {
    isa::Mod m = inst.modifiers.get(static_cast<isa::ModGroup>(g));
    if (m == isa::Mod::ShapeMod) {
      text += ".m" + std::to_string(inst.shape.m) + "n" + std::to_string(inst.shape.n) + "k" +
              std::to_string(inst.shape.k);
    } else if (m != isa::Mod::None && !isa::modifierText(m).empty()) {
      text += '.';
      text += isa::modifierText(m);
    }
  }
  for (unsigned t = 0; t < inst.typeCount; ++t) text += std::string(isa::typeName(inst.types[t]));
  return text;
}

AddressSpace addressSpaceOf(const isa::Instruction& inst) {
  switch (inst.modifiers.get(isa::ModGroup::Space)) {
    case isa::Mod::Global: return AddressSpace::Global;
    case isa::Mod::Shared:
    case isa::Mod::SharedCta:
    case isa::Mod::SharedCluster: return AddressSpace::Shared;
    case isa::Mod::Local: return AddressSpace::Local;
    case isa::Mod::Const: return AddressSpace::Const;
    case isa::Mod::Param:
    case isa::Mod::ParamFunc: return AddressSpace::Param;
    case isa::Mod::ParamEntry: return AddressSpace::KernelParam;
    default: return AddressSpace::Generic;
  }
}

// The type an immediate operand at `index` takes, for float immediates.
DataType immediateTypeFor(const isa::Instruction& inst, unsigned index) {
  if ((inst.opcode == isa::Opcode::Cvt || inst.opcode == isa::Opcode::CvtPack) && index >= 1 && inst.typeCount > 1) {
    return inst.types[1];
  }
  if (inst.opcode == isa::Opcode::Slct && index == 3 && inst.typeCount > 1) return inst.types[1];
  // set.dtype.stype compares sources of stype.
  if (inst.opcode == isa::Opcode::Set && (index == 1 || index == 2) && inst.typeCount > 1) return inst.types[1];
  return inst.typeCount > 0 ? inst.types[0] : DataType::None;
}

class FunctionPreparer {
 public:
  FunctionPreparer(const isa::Module& module, uint32_t functionIndex, const ModulePlacement& placement,
                   const SharedLayout& shared, std::vector<std::string>& errors)
      : module_(module),
        fn_(module.functions[functionIndex]),
        placement_(placement),
        shared_(shared),
        errors_(errors),
        functionIndex_(functionIndex) {}

  // What a run is for: a function to execute, or only the check that every
  // instruction prepares (findUnsupported), which drops the result and so
  // needs neither the issue order nor the shared register rows.
  enum class Purpose : uint8_t { Execute, Check };

  std::unique_ptr<PreparedFunction> run(Purpose purpose = Purpose::Execute) {
    out_ = std::make_unique<PreparedFunction>();
    out_->function = &fn_;
    out_->index = functionIndex_;
    // A .b128 register takes two rows (low and high 64 bits), so rows are
    // numbered apart from the IR's register indices.
    registerRows_.reserve(fn_.registers.size());
    uint32_t rows = 0;
    for (const isa::RegisterInfo& r : fn_.registers) {
      registerRows_.push_back(rows);
      rows += isa::typeBits(r.type) == 128 ? 2 : 1;
    }
    out_->registerCount = rows;
    out_->declaredRegisterRows = rows;
    out_->registerRows = registerRows_;
    layOutFrame();
    // Scratch row 0 absorbs writes to `_`; row 1 is the carry flag of .cc.
    nextScratch_ = 2;
    size_t failuresBefore = errors_.size();
    out_->code.reserve(fn_.instructions.size() + 1);
    for (const isa::Instruction& inst : fn_.instructions) prepare(inst);
    // Falling off the end of a body returns, as the ret the ISA requires there would.
    implicitReturn_.opcode = isa::Opcode::Ret;
    implicitReturn_.where = fn_.where;
    implicitReturn_.spec = isa::rowsFor(isa::Opcode::Ret).data();
    prepare(implicitReturn_);
    out_->implicitReturn = std::make_unique<isa::Instruction>(implicitReturn_);
    out_->code.back().source = out_->implicitReturn.get();
    out_->scratchCount = nextScratch_;
    finishConstants();
    if (errors_.size() != failuresBefore) return nullptr;
    if (purpose == Purpose::Check) return std::move(out_);
    scheduleLikePtxas(*out_);
    compactRegisterRows(*out_);
    return std::move(out_);
  }

 private:
  void layOutFrame() {
    out_->localOffsets.assign(fn_.locals.size(), isa::kNone);
    out_->paramLocalOffsets.assign(fn_.locals.size(), isa::kNone);
    uint64_t local = 0;
    for (size_t i = 0; i < fn_.locals.size(); ++i) {
      const isa::Variable& v = fn_.locals[i];
      if (v.space != StateSpace::Local) continue;
      local = alignUp(local, v.alignment);
      out_->localOffsets[i] = local;
      local += v.size;
    }
    out_->localFrameBytes = alignUp(local, 16);
    uint64_t area = alignUp(fn_.paramBytes, 16);
    out_->returnsOffset = area;
    for (const isa::Parameter& r : fn_.returns) area = std::max(area, out_->returnsOffset + r.offset + r.size);
    for (size_t i = 0; i < fn_.locals.size(); ++i) {
      const isa::Variable& v = fn_.locals[i];
      if (v.space != StateSpace::Param) continue;
      area = alignUp(area, std::max<uint32_t>(v.alignment, 1));
      out_->paramLocalOffsets[i] = area;
      area += v.size;
    }
    out_->paramAreaBytes = alignUp(area, 16);
  }

  uint32_t constantRow(uint64_t value) {
    auto [it, inserted] = constantIndex_.emplace(value, static_cast<uint32_t>(constantValues_.size()));
    if (inserted) constantValues_.push_back(value);
    return kConstantTag | it->second;
  }

  uint32_t scratchRow() { return out_->registerCount + nextScratch_++; }
  uint32_t registerRow(uint32_t reg) const { return registerRows_[reg]; }

  // Rows of constants are numbered after the scratch rows, whose count is
  // known only at the end: until then they carry a tag.
  static constexpr uint32_t kConstantTag = 0x8000'0000u;

  void finishConstants() {
    uint32_t base = out_->frameRows();
    auto fix = [&](uint32_t& row) {
      if (row != kNoRow && (row & kConstantTag) != 0) row = base + (row & ~kConstantTag);
    };
    for (PreparedInstruction& pi : out_->code) {
      fix(pi.guardRow);
      for (PreparedOperand& op : pi.ops) {
        fix(op.row);
        fix(op.secondRow);
      }
    }
    for (uint32_t& row : out_->vectorRows) fix(row);
    out_->constants.resize(constantValues_.size() * kWarpSize);
    for (size_t c = 0; c < constantValues_.size(); ++c) {
      for (unsigned lane = 0; lane < kWarpSize; ++lane) out_->constants[c * kWarpSize + lane] = constantValues_[c];
    }
  }

  uint32_t materialize(Materialization m) {
    m.row = scratchRow();
    out_->materializations.push_back(m);
    ++pending_;
    return m.row;
  }

  // The value a symbol operand stands for: an address in its state space.
  // Returns the row holding it, or kNoRow with an error.
  uint32_t symbolRow(const Operand& op, const isa::Instruction& inst, std::string& why) {
    switch (op.scope) {
      case SymbolScope::Module: {
        const isa::Symbol& sym = module_.symbols[op.index];
        switch (sym.kind) {
          case isa::SymbolKind::Variable: {
            const isa::Variable& v = module_.globals[sym.index];
            if (v.space == StateSpace::Shared) return constantRow(shared_.moduleOffsets[sym.index]);
            uint64_t address = placement_.globalAddresses.empty() ? 0 : placement_.globalAddresses[sym.index];
            if (address == 0 && !placement_.globalAddresses.empty()) {
              why = "variable '" + v.name + "' has no device storage";
              return kNoRow;
            }
            return constantRow(address);
          }
          case isa::SymbolKind::Function: return constantRow(kFunctionAddressBase + 16 * uint64_t{sym.index});
          case isa::SymbolKind::LocalVariable: {
            const isa::Variable& v = module_.functions[sym.function].locals[sym.index];
            if (v.space == StateSpace::Shared) return constantRow(shared_.local.at({sym.function, sym.index}));
            why = "the address of another function's local '" + v.name + "'";
            return kNoRow;
          }
          default: why = "this symbol kind as an operand"; return kNoRow;
        }
      }
      case SymbolScope::Local: {
        const isa::Variable& v = fn_.locals[op.index];
        switch (v.space) {
          case StateSpace::Local:
            return materialize({MaterializeKind::LocalAddress, {}, 0, kNoRow, out_->localOffsets[op.index]});
          case StateSpace::Param: return constantRow(out_->paramLocalOffsets[op.index]);
          case StateSpace::Shared: return constantRow(shared_.local.at({functionIndex_, op.index}));
          default: why = "a local variable in " + std::string(isa::stateSpaceName(v.space)); return kNoRow;
        }
      }
      case SymbolScope::Parameter: return constantRow(fn_.params[op.index].offset);
      case SymbolScope::ReturnValue: return constantRow(out_->returnsOffset + fn_.returns[op.index].offset);
      default: break;
    }
    (void)inst;
    why = "this operand form";
    return kNoRow;
  }

  uint64_t immediateBits(const Operand& op, DataType type) const {
    if (op.kind != OperandKind::FloatImmediate) return static_cast<uint64_t>(op.value);
    uint64_t bits = static_cast<uint64_t>(op.value);
    if (type == DataType::F32 && op.immediateType == DataType::F64) {
      return std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(bits)));
    }
    if (type == DataType::F64 && op.immediateType == DataType::F32) {
      return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits))));
    }
    return bits;
  }

  // A scalar operand (register, immediate, special register, symbol, sink)
  // as one row.
  uint32_t scalarRow(const Operand& op, const isa::Instruction& inst, unsigned index, std::string& why) {
    switch (op.kind) {
      case OperandKind::Register:
        if (op.element >= 0) {
          why = "vector-register elements (%v.x)";
          return kNoRow;
        }
        return registerRow(op.index);
      case OperandKind::Immediate:
      case OperandKind::FloatImmediate: return constantRow(immediateBits(op, immediateTypeFor(inst, index)));
      case OperandKind::Special: {
        Materialization m{MaterializeKind::Special, static_cast<isa::SpecialRegister>(op.index), op.component};
        return materialize(m);
      }
      case OperandKind::Symbol: {
        uint32_t row = symbolRow(op, inst, why);
        if (row == kNoRow || op.value == 0) return row;
        // var+8: the symbol's address plus an offset, known before the launch
        // unless it is a frame-relative local.
        if ((row & kConstantTag) != 0) return constantRow(constantValues_[row & ~kConstantTag] + op.value);
        out_->materializations.back().offset += static_cast<uint64_t>(op.value);
        return row;
      }
      case OperandKind::Sink: return out_->registerCount;  // scratch row 0
      case OperandKind::Function: return constantRow(kFunctionAddressBase + 16 * uint64_t{op.index});
      default: return kNoRow;
    }
  }

  bool resolve(const isa::Instruction& inst, unsigned index, PreparedOperand& out, std::string& why) {
    const Operand& op = fn_.operands[inst.firstOperand + index];
    out.negated = op.negated;
    out.isSink = op.kind == OperandKind::Sink;
    switch (op.kind) {
      case OperandKind::None:
      case OperandKind::Label:
      case OperandKind::List: return true;
      case OperandKind::Address: {
        out.offset = op.value;
        out.address32 = module_.addressSize == 32;
        if (op.scope == SymbolScope::Register) {
          out.row = registerRow(op.index);
          // `[%r+68]` with a 32-bit %r (shared, local, param and const
          // windows; ptxas refuses it for global and generic under
          // .address_size 64) is a 32-bit address.
          out.address32 = out.address32 || isa::typeBits(fn_.registers[op.index].type) <= 32;
        } else if (op.scope == SymbolScope::Absolute) {
          out.row = constantRow(0);
        } else {
          Operand sym = op;
          sym.kind = OperandKind::Symbol;
          sym.value = 0;
          out.row = symbolRow(sym, inst, why);
        }
        return out.row != kNoRow;
      }
      case OperandKind::Vector:
      case OperandKind::AddressTuple: {
        // [tex, {x, y}] is flattened to its scalars: tex, x, y.
        out.firstElement = static_cast<uint32_t>(out_->vectorRows.size());
        for (uint32_t e = 0; e < op.count; ++e) {
          const Operand& element = fn_.operands[op.index + e];
          bool nested = op.kind == OperandKind::AddressTuple && element.kind == OperandKind::Vector;
          for (uint32_t k = 0; k < (nested ? element.count : 1u); ++k) {
            uint32_t row = scalarRow(nested ? fn_.operands[element.index + k] : element, inst, index, why);
            if (row == kNoRow) return false;
            out_->vectorRows.push_back(row);
          }
        }
        out.elementCount = static_cast<uint8_t>(out_->vectorRows.size() - out.firstElement);
        return true;
      }
      default: {
        out.row = scalarRow(op, inst, index, why);
        if (op.secondIndex != isa::kNone) out.secondRow = registerRow(op.secondIndex);
        return out.row != kNoRow;
      }
    }
  }

  void prepare(const isa::Instruction& inst) {
    PreparedInstruction& pi = out_->code.emplace_back();
    if (inst.opcode == isa::Opcode::Alloca) out_->usesAlloca = true;
    pi.source = &inst;
    pi.operandCount = inst.operandCount;
    pi.space = addressSpaceOf(inst);
    if (inst.guard.reg != isa::kNone) {
      pi.guardRow = registerRow(inst.guard.reg);
      pi.guardNegated = inst.guard.negated;
    }
    pending_ = 0;
    size_t firstMaterialization = out_->materializations.size();
    std::string why;
    // Operands past the eighth are resolved only for calls; an instruction
    // whose extra operands are immediates (the sparse wgmma's flags) has its
    // selector read them from the IR.
    bool ok = inst.operandCount <= pi.ops.size() || inst.opcode == isa::Opcode::Call ||
              trailingImmediates(inst, static_cast<unsigned>(pi.ops.size()));
    if (!ok) why = "more than 8 operands";
    for (unsigned i = 0; ok && i < inst.operandCount && i < pi.ops.size(); ++i) ok = resolve(inst, i, pi.ops[i], why);
    pi.materializeFirst = static_cast<uint32_t>(firstMaterialization);
    pi.materializeCount = static_cast<uint16_t>(out_->materializations.size() - firstMaterialization);
    if (ok) {
      semantics::Selector select = semantics::semanticsTable().find(inst);
      semantics::SelectContext context{module_, fn_, *out_};
      if (select == nullptr) {
        why = "not implemented";
        ok = false;
      } else {
        ok = select(inst, pi, context, why);
      }
    }
    pi.sync = syncKindOf(inst);
    if (ok) recordDependences(inst, pi);
    if (!ok) {
      errors_.push_back("unsupported instruction " + opcodeText(inst) + " at " + locationText(module_, inst) +
                        (why.empty() ? "" : ": " + why));
    }
  }

  bool trailingImmediates(const isa::Instruction& inst, unsigned from) const {
    for (unsigned i = from; i < inst.operandCount; ++i) {
      if (fn_.operands[inst.firstOperand + i].kind != OperandKind::Immediate) return false;
    }
    return true;
  }

  // The register rows `pi` writes and reads (prepared.h), each once.
  void recordDependences(const isa::Instruction& inst, PreparedInstruction& pi) {
    std::vector<uint32_t> writes, reads;
    auto add = [&](std::vector<uint32_t>& to, uint32_t row) {
      if (row < out_->registerCount && std::find(to.begin(), to.end(), row) == to.end()) to.push_back(row);
    };
    for (unsigned i = 0; i < inst.operandCount && i < pi.ops.size(); ++i) {
      isa::OperandAccess access = isa::operandAccess(inst, i);
      if (access == isa::OperandAccess::None) continue;
      const PreparedOperand& op = pi.ops[i];
      const Operand& ir = fn_.operands[inst.firstOperand + i];
      // The registers inside an address are read even when the instruction writes through it.
      std::vector<uint32_t>& to = access == isa::OperandAccess::Write && ir.kind != OperandKind::Address &&
                                          ir.kind != OperandKind::AddressTuple
                                      ? writes
                                      : reads;
      for (uint8_t e = 0; e < op.elementCount; ++e) add(to, out_->vectorRows[op.firstElement + e]);
      if (op.elementCount == 0 && op.row != kNoRow) add(to, op.row);
      if (isa::destinationIsRead(inst, i)) {
        for (uint8_t e = 0; e < op.elementCount; ++e) add(reads, out_->vectorRows[op.firstElement + e]);
        if (op.elementCount == 0 && op.row != kNoRow) add(reads, op.row);
      }
      if (op.secondRow != kNoRow) add(writes, op.secondRow);
    }
    if (pi.guardRow != kNoRow) add(reads, pi.guardRow);
    pi.dependenceFirst = static_cast<uint32_t>(out_->dependenceRows.size());
    pi.writeCount = static_cast<uint8_t>(writes.size());
    pi.readCount = static_cast<uint8_t>(reads.size());
    out_->dependenceRows.insert(out_->dependenceRows.end(), writes.begin(), writes.end());
    out_->dependenceRows.insert(out_->dependenceRows.end(), reads.begin(), reads.end());
  }

  const isa::Module& module_;
  const isa::Function& fn_;
  const ModulePlacement& placement_;
  const SharedLayout& shared_;
  std::vector<std::string>& errors_;
  uint32_t functionIndex_;
  std::unique_ptr<PreparedFunction> out_;
  std::map<uint64_t, uint32_t> constantIndex_;
  std::vector<uint64_t> constantValues_;
  uint32_t nextScratch_ = 0;
  unsigned pending_ = 0;
  isa::Instruction implicitReturn_;
  std::vector<uint32_t> registerRows_;  // IR register index -> first row
};

}  // namespace

SyncKind syncKindOf(const isa::Instruction& inst) {
  using isa::Opcode;
  switch (inst.opcode) {
    case Opcode::Bar:
    case Opcode::Barrier:
    case Opcode::BarrierCluster: return SyncKind::CtaBarrier;
    case Opcode::BarWarpSync: return SyncKind::WarpSync;
    case Opcode::Match:
    case Opcode::Elect:
    case Opcode::Redux: return SyncKind::Collective;
    case Opcode::Mma:
    case Opcode::MmaSp:
    case Opcode::WgmmaMmaAsync:
    case Opcode::WgmmaMmaAsyncSp:
    case Opcode::Ldmatrix:
    case Opcode::Stmatrix:
    case Opcode::WmmaLoad:
    case Opcode::WmmaMma:
    case Opcode::WmmaStore: return SyncKind::WarpAligned;
    case Opcode::Vote:
    case Opcode::Shfl: return inst.modifiers.has(isa::Mod::SyncMod) ? SyncKind::Collective : SyncKind::None;
    default: return SyncKind::None;
  }
}

namespace {

uint32_t registersPerThread(const PreparedKernel& kernel) {
  // An estimate of the machine registers: PTX virtual registers of the
  // kernel, as ptxas would allocate at most 255.
  return std::min<uint32_t>(255, kernel.kernel().declaredRegisterRows);
}

}  // namespace

std::unique_ptr<PreparedKernel> prepareKernel(const isa::Module& module, uint32_t kernelIndex,
                                              const ModulePlacement& placement, std::vector<std::string>& errors) {
  auto kernel = std::make_unique<PreparedKernel>();
  kernel->module = &module;
  kernel->kernelIndex = kernelIndex;
  const KernelReach reach = reachOf(module, kernelIndex, addressTakenFunctions(module));
  SharedLayout shared = layOutShared(module, reach);
  kernel->staticSharedBytes = shared.staticBytes;
  kernel->dynamicSharedOffset = shared.dynamicOffset;
  kernel->functions.resize(module.functions.size());
  // Only what the kernel can run: a library's other device functions cost
  // its first launch nothing (each timed launch reads every prepared one).
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    const isa::Function& fn = module.functions[f];
    if (!fn.isDefined || !reach.functions[f] || (fn.isKernel && f != kernelIndex)) continue;
    kernel->functions[f] = FunctionPreparer(module, f, placement, shared, errors).run();
  }
  if (!errors.empty() || kernel->functions[kernelIndex] == nullptr) return nullptr;
  kernel->kernelLocalBytes = kernel->kernel().localFrameBytes;
  kernel->registersPerThread = registersPerThread(*kernel);
  return kernel;
}

std::vector<std::string> findUnsupported(const isa::Module& module, const ModulePlacement& placement) {
  std::vector<std::string> errors;
  const std::vector<uint32_t> addressTaken = addressTakenFunctions(module);
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    const isa::Function& fn = module.functions[f];
    if (!fn.isDefined) continue;
    SharedLayout shared = layOutShared(module, reachOf(module, fn.isKernel ? f : UINT32_MAX, addressTaken));
    FunctionPreparer(module, f, placement, shared, errors).run(FunctionPreparer::Purpose::Check);
  }
  return errors;
}

}  // namespace ptxsim::sim::exec
