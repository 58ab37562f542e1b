#include "cluster_reach.h"

#include <bit>

#include "ptxsim/memory/cluster_shared_address.h"

namespace ptxsim::sim::timing {

namespace {

// A shared-window offset below this may be an address of .shared (a
// 32-bit .shared::cluster address at most); the generic shared window and
// global memory lie far above (generic_address.h).
constexpr uint64_t kSharedOffsets = uint64_t{1} << 32;

bool namesSharedSpace(const isa::Instruction& inst) {
  for (isa::Mod space : {isa::Mod::Shared, isa::Mod::SharedCta, isa::Mod::SharedCluster, isa::Mod::SrcShared,
                         isa::Mod::SrcSharedCta, isa::Mod::SrcSharedCluster}) {
    if (inst.modifiers.has(space)) return true;
  }
  return false;
}

}  // namespace

std::optional<uint64_t> peerRankOf(uint64_t address, bool sharedOffset, uint32_t ownRank,
                                   const memory::GenericLayout& layout) {
  uint64_t offset = address - layout.sharedBase;
  if (offset >= layout.sharedSize) {
    if (!sharedOffset || address >= kSharedOffsets) return std::nullopt;
    offset = address;
  }
  const memory::ClusterSharedAddress at = memory::decodeClusterShared(offset);
  if (at.own || at.rank == ownRank) return std::nullopt;
  return at.rank;
}

bool reachesClusterPeers(const exec::PreparedInstruction& pi, const exec::Frame& frame, exec::LaneMask lanes,
                         uint32_t ownRank, const memory::GenericLayout& layout) {
  const isa::Instruction& inst = *pi.source;
  switch (inst.opcode) {
    case isa::Opcode::BarrierCluster:
    case isa::Opcode::Exit:
    case isa::Opcode::StAsync: return true;
    case isa::Opcode::Ret: return frame.caller == nullptr;
    case isa::Opcode::CpAsyncBulk:
    case isa::Opcode::CpAsyncBulkTensor:
      if (inst.modifiers.hasGroup(isa::ModGroup::Multicast)) return true;
      break;
    default: break;
  }
  const isa::Operand* operands = frame.function->function->operands.data() + inst.firstOperand;
  const bool sharedSpace = namesSharedSpace(inst);
  for (unsigned i = 0; i < inst.operandCount && i < pi.ops.size(); ++i) {
    if (operands[i].kind != isa::OperandKind::Address) continue;
    const exec::PreparedOperand& op = pi.ops[i];
    // The base's row (none: an absolute address).
    const uint64_t* row = op.row == exec::kNoRow ? nullptr : exec::rowOf(frame, op.row);
    for (exec::LaneMask rest = lanes; rest != 0; rest &= rest - 1) {
      const uint64_t address = op.effectiveAddress(row != nullptr ? row[std::countr_zero(rest)] : 0);
      if (addressReachesPeer(address, sharedSpace, ownRank, layout)) return true;
    }
  }
  return false;
}

}  // namespace ptxsim::sim::timing
