#pragma once

// The state of one warp: its lanes, its call frames, and within each frame
// the reconvergence stack that decides which lanes run. The stack lives in
// the frame, and lane membership is a mask, so per-thread PCs (independent
// thread scheduling, issue 5) can replace the stack without touching the
// registers or the handlers.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "lanes.h"
#include "prepared.h"

namespace ptxsim::sim::exec {

// One entry of the reconvergence stack: lanes in `mask` run from `pc`
// until they reach `reconvergence`, where the entry is popped and the lanes
// rejoin the entry below.
struct SimtEntry {
  uint32_t pc = 0;
  uint32_t reconvergence = isa::kNone;
  LaneMask mask = 0;
};

struct Frame {
  const PreparedFunction* function = nullptr;
  std::vector<uint64_t> registers;  // frameRows() rows of 32 lanes
  std::vector<SimtEntry> stack;
  std::vector<uint8_t> params;      // paramAreaBytes per lane, lane after lane
  uint64_t localBase = 0;           // where this frame's .local variables start in each thread's local memory
  uint64_t dynamicLocal = 0;        // bytes alloca added after them (the same for every lane)
  LaneMask entryMask = 0;           // lanes that entered the function
  LaneMask returned = 0;            // lanes that executed ret
  uint32_t callSite = 0;            // the caller's call instruction
  const uint8_t* kernelParams = nullptr;  // kernel frames: the launch's parameter buffer
  uint64_t kernelParamBytes = 0;

  Row* rows() { return reinterpret_cast<Row*>(registers.data()); }
  uint8_t* paramsOf(unsigned lane) { return params.data() + lane * function->paramAreaBytes; }
};

enum class WarpStatus : uint8_t { Ready, AtBarrier, Done };

struct Warp {
  uint32_t index = 0;          // within the CTA
  LaneMask existing = 0;       // lanes that are threads of the CTA
  LaneMask exited = 0;
  WarpStatus status = WarpStatus::Ready;
  uint32_t barrier = 0;        // the barrier waited on
  std::array<std::array<uint32_t, 3>, kWarpSize> tid{};
  // Frames are reused between calls so a call does not allocate.
  std::vector<std::unique_ptr<Frame>> frames;
  uint32_t depth = 0;          // frames in use
  // Each lane's local memory (the stack), localBytesPerThread each.
  std::vector<uint8_t> local;

  Frame& top() { return *frames[depth - 1]; }
  bool done() const { return status == WarpStatus::Done; }
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
