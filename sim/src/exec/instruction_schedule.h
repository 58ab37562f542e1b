#pragma once

// Reorders a prepared function's instructions within each basic block the
// way ptxas schedules SASS: a list schedule for in-order issue that puts
// loads (and the address arithmetic they wait for) first, and everything
// else in program order once its sources are ready, so that a loop body's
// loads are in flight together instead of each waiting in turn behind the
// previous one's use. The PTX that nvcc emits interleaves loads with their
// uses (ld, ld, fma, ld, ld, fma...); the H100 runs the hoisted SASS, and a
// timing model that issued the PTX in order would wait a memory latency per
// use (tests/timing/kernels: gemm_naive, mat_vec, stencil3d).
//
// Results are unchanged: an instruction moves only past instructions it
// has no register, carry-flag or memory dependence on. Loads never pass a
// store and stores never pass each other, unless the two name different
// state spaces (a global load passes a shared store; generic addresses
// alias everything); anything else with an effect
// beyond its registers (atomics, fences, barriers, warp collectives, calls,
// branches, volatile or ordered accesses, clock reads) stays where it is,
// and nothing moves across it. Block boundaries stay at their indices, so
// branch targets, reconvergence points and return addresses are those of
// the IR.

#include "prepared.h"

namespace ptxsim::sim::exec {

void scheduleLikePtxas(PreparedFunction& fn);

}  // namespace ptxsim::sim::exec
