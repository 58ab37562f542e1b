#include "stays_on_sm.h"

namespace ptxsim::sim::timing {

namespace {

// A load or store of the CTA's own shared memory (not another CTA's of
// the cluster), or a load of the parameters (the frame's own copy).
bool ownSharedOrParameters(const isa::Instruction& inst) {
  switch (inst.modifiers.get(isa::ModGroup::Space)) {
    case isa::Mod::Shared:
    case isa::Mod::SharedCta: return true;
    case isa::Mod::Param:
    case isa::Mod::ParamEntry:
    case isa::Mod::ParamFunc: return inst.opcode == isa::Opcode::Ld;
    default: return false;
  }
}

}  // namespace

bool staysOnSm(const exec::PreparedInstruction& pi) {
  const isa::Instruction& inst = *pi.source;
  using isa::Opcode;
  switch (inst.opcode) {
    // Memory instructions that may name shared memory or parameters.
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Ldmatrix:
    case Opcode::Stmatrix: return ownSharedOrParameters(inst);
    // Hints to the caches beyond the SM, whatever unit they are given.
    case Opcode::Prefetch:
    case Opcode::Prefetchu:
    case Opcode::Discard:
    case Opcode::Applypriority: return false;
    // Within the warp or the CTA.
    case Opcode::Bra:
    case Opcode::BrxIdx:
    case Opcode::Bar:
    case Opcode::Barrier:
    case Opcode::BarWarpSync:
    case Opcode::Vote:
    case Opcode::Match:
    case Opcode::Activemask:
    case Opcode::Redux:
    case Opcode::Elect:
    case Opcode::Shfl:
    case Opcode::Nanosleep:
    case Opcode::Mma:
    case Opcode::MmaSp:
    case Opcode::WmmaMma:
    case Opcode::Movmatrix: return true;
    default: break;
  }
  return isa::computesOnly(inst.unit);
}

}  // namespace ptxsim::sim::timing
