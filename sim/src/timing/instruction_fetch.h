#pragma once

// Instruction fetch of one SM (TimingConfig::fetch): the sub-partitions'
// L0 instruction caches, the SM's L1 instruction cache behind them and the
// L2 behind that. A line the L1 sends reaches every sub-partition's L0
// alike (measured: four warps on four sub-partitions fetch as fast as one,
// instruction_fetch.out w4 and w1), so the L0s are modelled as one. Analytic like the data caches: a lookup gets the
// cycle an instruction's line is in the L0 and nothing is ticked.
//
// A warp looks a line up when its next instruction lies in another line
// than the last it looked up; the line after it is fetched at the same
// time, so straight-line code streams in while it runs. A line missing in
// the L0 comes over the L1's port, which passes one line every
// l1CyclesPerLine cycles; missing in the L1 too, it first comes over the
// L2's port, one line every l2CyclesPerLine. Code that fits an L0 runs at
// the issue rate; code that fits only the L1, or neither, runs at the rate
// those ports pass lines (the H100's measured rates).
//
// Lookups must come in non-decreasing `now`, as an SM issues.

#include <cstdint>
#include <vector>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

// A set-associative cache of instruction lines with LRU replacement; each
// line remembers the cycle its fill arrives.
class InstructionLineCache {
 public:
  // Throws std::invalid_argument for a geometry without a whole set.
  InstructionLineCache(uint32_t bytes, uint32_t ways, uint32_t lineBytes);

  // The cycle `line`'s fill arrives (earlier than now once there), marking
  // it used; false when it is absent.
  bool find(uint64_t line, uint64_t& arrival);
  // Puts `line` in, evicting its set's least recently used line.
  void insert(uint64_t line, uint64_t arrival);
  // Every fill has arrived by cycle 0 (a new launch's clock). Costs the
  // lines inserted since the last settle, not the cache: most of 132 SMs'
  // caches see no fetch in a short launch (issue 44).
  void settle();

 private:
  struct Way {
    uint64_t line = UINT64_MAX;
    uint64_t arrival = 0;
    uint64_t lastUse = 0;
  };
  uint32_t ways_;
  uint32_t sets_;
  std::vector<Way> entries_;  // set-major
  uint64_t useClock_ = 0;
  // The entries inserted since the last settle, while fewer than the
  // entries (then settle sweeps them all): the only ones with an arrival.
  std::vector<uint32_t> inserted_;
  bool insertedMany_ = false;
};

struct FetchStats {
  uint64_t l0Misses = 0;  // lines the L0s asked of the L1 (prefetches included)
  uint64_t l1Misses = 0;  // lines the L1 asked of the L2
};

class InstructionFetch {
 public:
  explicit InstructionFetch(const InstructionFetchTiming& timing);

  // The cycle the line holding `address` is in the L0, asked at `now`;
  // fetches the line after it too.
  uint64_t lineReadyAt(uint64_t address, uint64_t now);

  // A launch starts at cycle 0: the lines stay, every fill has arrived and
  // the ports are free.
  void restartClock();

  const FetchStats& stats() const { return stats_; }

 private:
  // Makes sure `line` is in the L0 or on its way; the cycle it is there.
  uint64_t fill(uint64_t line, uint64_t now);

  InstructionFetchTiming timing_;
  InstructionLineCache l0_;
  InstructionLineCache l1_;
  uint64_t l1PortFreeAt_ = 0;
  uint64_t l2PortFreeAt_ = 0;
  FetchStats stats_;
};

// The instruction caches of every SM, kept from launch to launch as the
// GPU keeps them: a kernel launched again finds its code where the last
// launch left it (instruction_fetch.out: a second launch's first pass runs
// at the warm rate). Code addresses (code_layout.h) are per module: each
// module loaded gets its own range, in the order modules first launch.
class InstructionCaches {
 public:
  // The SMs' caches for a launch under `timing`, their clocks restarted;
  // made anew when the geometry changed.
  std::vector<InstructionFetch>& forLaunch(const TimingConfig& timing, uint32_t sms);
  // The module's number among those launched so far.
  uint32_t moduleNumber(const isa::Module* module);

 private:
  std::vector<InstructionFetch> sms_;
  InstructionFetchTiming timing_;
  std::vector<const isa::Module*> modules_;
};

}  // namespace ptxsim::sim::timing
