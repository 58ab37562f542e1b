#include "shared_pairs.h"

#include <algorithm>

namespace ptxsim::sim::timing {

namespace {

using isa::Mod;

// The operand index of a plain 32-bit shared load's or store's address, if
// `inst` is one.
std::optional<unsigned> sharedWordAddress(const isa::Function& fn, const isa::Instruction& inst) {
  if (inst.opcode != isa::Opcode::Ld && inst.opcode != isa::Opcode::St) return std::nullopt;
  if (inst.guard.reg != isa::kNone || inst.typeCount < 1 || isa::typeBits(inst.types[0]) != 32)
    return std::nullopt;
  const isa::ModifierSet& m = inst.modifiers;
  const Mod space = m.get(isa::ModGroup::Space);
  if (space != Mod::Shared && space != Mod::SharedCta) return std::nullopt;
  if (m.has(Mod::Volatile) || m.has(Mod::Relaxed) || m.has(Mod::Acquire) || m.has(Mod::Release) ||
      m.has(Mod::Mmio) || m.has(Mod::Sc) || m.has(Mod::AcqRel) || m.has(Mod::V2) || m.has(Mod::V4))
    return std::nullopt;
  const unsigned address = inst.opcode == isa::Opcode::Ld ? 1 : 0;
  if (inst.operandCount != 2 || fn.operands[inst.firstOperand + address].kind != isa::OperandKind::Address)
    return std::nullopt;
  return address;
}

}  // namespace

std::optional<int64_t> sharedPairOffset(const exec::PreparedFunction& fn,
                                        const exec::PreparedInstruction& first,
                                        const exec::PreparedInstruction& second) {
  const isa::Instruction& a = *first.source;
  const isa::Instruction& b = *second.source;
  if (a.opcode != b.opcode || a.types[0] != b.types[0]) return std::nullopt;
  const std::optional<unsigned> addressA = sharedWordAddress(*fn.function, a);
  const std::optional<unsigned> addressB = sharedWordAddress(*fn.function, b);
  if (!addressA || !addressB) return std::nullopt;
  const exec::PreparedOperand& baseA = first.ops[*addressA];
  const exec::PreparedOperand& baseB = second.ops[*addressB];
  // The same base: the same register as declared (registers never live
  // together may share a row, register_compaction.h), or the same symbol.
  const isa::Operand& irA = fn.function->operands[a.firstOperand + *addressA];
  const isa::Operand& irB = fn.function->operands[b.firstOperand + *addressB];
  const bool sameBase = irA.scope == isa::SymbolScope::Register || irB.scope == isa::SymbolScope::Register
                            ? irA.scope == irB.scope && irA.index == irB.index
                            : baseA.row == baseB.row;
  if (!sameBase || (baseB.offset - baseA.offset != 4 && baseA.offset - baseB.offset != 4))
    return std::nullopt;
  for (uint32_t written : fn.writesOf(first)) {
    const auto reads = fn.readsOf(second);
    if (std::find(reads.begin(), reads.end(), written) != reads.end()) return std::nullopt;
  }
  return std::min<int64_t>(0, baseB.offset - baseA.offset);
}

}  // namespace ptxsim::sim::timing
