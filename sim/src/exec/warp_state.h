#pragma once

// The state of one warp: its lanes, the call frames they run in, and the
// groups of threads that share a PC. Both SIMT modes use the same state:
//
// - A ThreadGroup is a set of lanes at one PC of one frame; a step runs one
//   instruction for one group. A converged warp is a single group.
// - A branch whose lanes disagree splits a group in two and records a
//   Divergence: the lanes that split and the point where they may meet
//   again (the branch's immediate post-dominator). A call records one too,
//   meeting after the call, so lanes that return early can wait for the
//   others.
// - Each thread's call stack is the chain of frames from its group's frame
//   through `caller`; threads of one warp may be in different functions.
//
// The reconvergence stack of pre-Volta GPUs is this state under a policy
// that always runs the newest group and waits at every meeting point
// (simt_policy.h); independent thread scheduling uses other policies.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "lanes.h"
#include "prepared.h"
#include "ptxsim/sim/simt.h"

namespace ptxsim::sim::exec {

struct Frame {
  const PreparedFunction* function = nullptr;
  Frame* caller = nullptr;          // null for the kernel's frame
  uint32_t callSite = 0;            // the caller's call instruction
  LaneMask lanes = 0;               // lanes running in this frame or in functions it called
  std::vector<uint64_t> registers;  // frameRows() rows of 32 lanes
  std::vector<uint8_t> params;      // paramAreaBytes per lane, lane after lane
  uint64_t localBase = 0;           // where this frame's .local variables start in each thread's local memory
  uint64_t dynamicLocal = 0;        // bytes alloca added after them (the same for every lane)
  const uint8_t* kernelParams = nullptr;  // kernel frames: the launch's parameter buffer
  uint64_t kernelParamBytes = 0;

  Row* rows() { return reinterpret_cast<Row*>(registers.data()); }
  uint8_t* paramsOf(unsigned lane) { return params.data() + lane * function->paramAreaBytes; }
};

// Row `r` of `frame`: a register or scratch row of the frame, or one of
// its function's constant rows (32 lanes each).
inline uint64_t* rowOf(Frame& frame, uint32_t r) {
  const PreparedFunction& fn = *frame.function;
  if (r < fn.frameRows()) return frame.registers.data() + uint64_t{r} * kWarpSize;
  return const_cast<uint64_t*>(fn.constants.data()) + uint64_t{r - fn.frameRows()} * kWarpSize;
}
inline const uint64_t* rowOf(const Frame& frame, uint32_t r) { return rowOf(const_cast<Frame&>(frame), r); }

// Why a group is not runnable.
enum class GroupWait : uint8_t {
  None,
  Reconvergence,  // at the meeting point of its innermost divergence
  WarpSync,       // at bar.warp.sync until its member mask has arrived
  Collective,     // at a *.sync collective until its member mask has arrived
  Barrier,        // at a CTA barrier: for the rest of the warp, then for the barrier
};

struct ThreadGroup {
  LaneMask mask = 0;
  uint32_t pc = 0;
  Frame* frame = nullptr;
  GroupWait wait = GroupWait::None;
  uint32_t waited = 0;            // warp steps spent waiting to reconverge
  std::vector<uint32_t> splits;   // Warp::divergences ids, innermost last
};

struct Divergence {
  Frame* frame = nullptr;     // where the lanes meet
  uint32_t meet = 0;          // the PC they meet at
  LaneMask lanes = 0;         // lanes still expected there
  bool live = false;
};

enum class WarpStatus : uint8_t { Ready, Blocked, Done };

struct Warp {
  uint32_t index = 0;          // within the CTA
  LaneMask existing = 0;       // lanes that are threads of the CTA
  LaneMask exited = 0;
  WarpStatus status = WarpStatus::Ready;
  std::array<std::array<uint32_t, 3>, kWarpSize> tid{};
  std::vector<ThreadGroup> groups;
  uint32_t current = 0;        // the group the next step runs
  bool picked = false;         // `current` is chosen and nothing ran since (executor.h's peek)
  uint32_t slice = 0;          // steps the current group has run in a row
  std::vector<Divergence> divergences;
  std::vector<uint32_t> freeDivergences;
  // Frames are pooled per warp so calls do not allocate once warm.
  std::vector<std::unique_ptr<Frame>> framePool;
  std::vector<Frame*> freeFrames;
  // Each lane's local memory (the stack), localBytesPerThread each.
  std::vector<uint8_t> local;
  uint64_t random = 0;         // the random schedule's generator state
  SimtMode mode = SimtMode::Its;
  ItsSchedule schedule = ItsSchedule::Converge;
  uint32_t barrier = 0;  // the CTA barrier the warp arrived at (when all its groups wait there)
  // barrier.cluster: 1 + the phase the warp arrived in; 0 while it has no
  // arrival to wait for (cluster_barrier.h).
  uint64_t clusterArrival = 0;

  ThreadGroup& group() { return groups[current]; }
  bool done() const { return status == WarpStatus::Done; }
  LaneMask live() const { return existing & ~exited; }
};

// A named barrier (bar.sync/bar.arrive/bar.red), counted in threads of
// whole warps as the hardware counts them.
struct BarrierState {
  uint32_t arrived = 0;         // threads arrived
  uint32_t expected = 0;        // threads the barrier waits for (0: not in use)
  std::vector<uint32_t> waiters;  // warps blocked on it
  // bar.red: the running reduction over arriving threads' predicates.
  uint32_t popc = 0;
  bool allTrue = true;
  bool anyTrue = false;
};

}  // namespace ptxsim::sim::exec
