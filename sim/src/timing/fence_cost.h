#pragma once

// What a memory fence costs a warp under the timing model. ptxas makes
// membar and fence.sc / fence.acq_rel a MEMBAR of their scope, and puts a
// MEMBAR.ALL.GPU before every mbarrier arrival that releases at cluster
// scope (mbarrier.arrive.release.cluster on a peer CTA's mbarrier becomes
// MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64
// .RED in tests/timing/kernels/h100/hopper.sass.txt.gz). A MEMBAR waits
// until the warp's earlier accesses have completed, then takes its own
// time (FenceTiming) before the warp issues again.
// barrier.cluster.arrive's release is not counted here: the measured
// barrier cost (ClusterTiming) holds it.

#include <cstdint>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

struct FenceEffect {
  bool ordersAccesses = false;  // waits for the warp's earlier accesses
  uint32_t cycles = 0;          // then the MEMBAR's own time
};

// The fence of an instruction whose opcode may carry one (membar, fence,
// mbarrier.arrive and arrive_drop).
FenceEffect fenceOfFencingOpcode(const isa::Instruction& inst, const FenceTiming& timing);

// The scheduler asks before every issue: instructions of any other opcode
// carry none, decided inline.
inline FenceEffect fenceEffectOf(const isa::Instruction& inst, const FenceTiming& timing) {
  using isa::Opcode;
  const Opcode op = inst.opcode;
  const bool mayFence = op == Opcode::Membar || op == Opcode::Fence || op == Opcode::MbarrierArrive ||
                        op == Opcode::MbarrierArriveDrop;
  return mayFence ? fenceOfFencingOpcode(inst, timing) : FenceEffect{};
}

}  // namespace ptxsim::sim::timing
