#pragma once

// The happens-before state of one warp for --check=warp-sync: a vector
// clock per lane and shadow memory that remembers, per byte of shared or
// global memory the warp touched, the last plain store and the reads and
// atomics since it, each as (lane, epoch, site). An access that is not
// ordered after an earlier access of another lane to the same byte, with at
// least one of them writing (atomic against atomic excepted), is a
// conflict: the lanes did not synchronise between them.
//
// Synchronisation is what the caller says it is (synchronize(lanes)): a
// warp collective or barrier joins the clocks of its lanes and starts a new
// epoch for each, as in FastTrack (Flanagan and Freund, PLDI 2009), here
// with one warp's 32 lanes as the threads.

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::checks {

inline constexpr unsigned kLanes = 32;
using LaneMask = uint32_t;

// One lane's access as the shadow remembers it. `site` names the
// instruction for the caller (0: no access).
struct ShadowAccess {
  uint32_t epoch = 0;
  uint32_t site = 0;
  uint8_t lane = 0;
};

// An access now and an earlier one of another lane to the same byte that
// it is not ordered with.
struct Conflict {
  unsigned lane = 0;
  AccessKind kind = AccessKind::None;
  uint32_t site = 0;
  unsigned earlierLane = 0;
  AccessKind earlierKind = AccessKind::None;
  uint32_t earlierSite = 0;
  bool shared = false;
  uint64_t address = 0;  // the first byte of the access that conflicts
};

class WarpShadow {
 public:
  WarpShadow();

  // The lanes synchronise: each learns everything any of them knew, then
  // starts a new epoch.
  void synchronize(LaneMask lanes);
  // Lanes arrive at a CTA barrier. A warp may arrive in pieces (diverged
  // lanes under independent thread scheduling); the barrier completes only
  // when all have, so every piece of one barrier instance synchronises
  // with the others: the lanes that arrived earlier are still waiting.
  // An arrival of a lane already counted starts a new instance. Returns the
  // lanes that have arrived at this instance.
  LaneMask arriveAtBarrier(LaneMask lanes);
  // Forgets every recorded access. Right after a synchronisation of every
  // lane of the warp, nothing before it can conflict with anything after.
  void clear();
  // Back to the state of a new warp (for reuse by another CTA).
  void reset();
  // `lane` accesses `bytes` bytes at `address` of shared (window offset) or
  // global memory; conflicts with earlier accesses are appended to `out`
  // (once per earlier lane and site).
  void access(unsigned lane, AccessKind kind, uint32_t site, bool shared, uint64_t address, unsigned bytes,
              std::vector<Conflict>& out);

 private:
  // The accesses of several lanes since the last store: one inline while a
  // single lane has accessed, else a slot of the pool with one per lane.
  struct AccessSet {
    ShadowAccess one;
    uint32_t many = 0;  // 1 + pool index; 0: none
  };
  struct LaneAccesses {
    LaneMask lanes = 0;
    std::array<ShadowAccess, kLanes> at{};
  };
  struct Cell {
    ShadowAccess write;  // the last plain store
    AccessSet reads;     // plain loads since it
    AccessSet atomics;   // atomics since it
  };
  // Cells come in chunks of 32 bytes of memory: a warp's coalesced access
  // touches a few, and the last one used is remembered.
  static constexpr unsigned kChunkBits = 5;
  using Chunk = std::array<Cell, 1u << kChunkBits>;
  static constexpr uint32_t kNoChunk = ~uint32_t{0};

  bool ordered(unsigned lane, const ShadowAccess& earlier) const {
    return earlier.lane == lane || clock_[lane][earlier.lane] >= earlier.epoch;
  }
  Cell& cell(bool shared, uint64_t address);
  void accessCell(Cell& cell, unsigned lane, AccessKind kind, uint32_t site, bool shared, uint64_t address,
                  std::vector<Conflict>& out, size_t first);
  template <typename F>
  void forEach(const AccessSet& set, F&& f) const;
  void add(AccessSet& set, const ShadowAccess& access);
  void release(AccessSet& set);

  // clock_[i][j]: the latest epoch of lane j that lane i is ordered after;
  // clock_[i][i] is lane i's current epoch.
  std::array<std::array<uint32_t, kLanes>, kLanes> clock_{};
  // The CTA barrier instance being arrived at: its lanes and the join of
  // their clocks at arrival.
  LaneMask barrierLanes_ = 0;
  std::array<uint32_t, kLanes> barrierClock_{};
  std::unordered_map<uint64_t, uint32_t> chunkIndex_;  // space bit | address >> kChunkBits -> chunks_ index
  std::vector<Chunk> chunks_;
  uint64_t lastKey_ = 0;
  uint32_t lastChunk_ = kNoChunk;
  std::vector<LaneAccesses> pool_;
  std::vector<uint32_t> freeSlots_;
};

}  // namespace ptxsim::sim::checks
