#pragma once

// The L1 data cache of one SM, analytic like the rest of the timing model: a
// call gets the cycle a warp's coalesced access reaches the L1 and returns
// the cycle its data is available; nothing is ticked.
//
// Sectored as on the H100: a miss allocates the line but fetches only the
// missing 32-byte sectors, each sector valid on its own and remembering the
// cycle its data arrives, so an access to a sector still being fetched waits
// for that fetch instead of sending another (an MSHR hit). At most `mshrs`
// fetches (one per missed line) are in flight; one more waits for the
// earliest to return. Global stores are write-through without write-allocate.
// Replacement is LRU; a line whose fill is still in flight is not evicted
// (when every way of a set has one, the access fetches without allocating).
//
// Each access passes a data stage `sectorsPerCycle` sectors wide, shared by
// all warps of the SM: the H100's L1 hit costs 32 cycles for one line and
// 39.5 for 32 lines of one sector each (tests/timing/calibration/h100/
// memory_latency.out), 0.24 cycles per extra sector or line. Those two cases
// cannot tell lines from sectors apart (4 and 32 sectors); charging sectors
// also caps the L1 at 4 x 32 = 128 bytes a cycle, the H100's figure.
//
// Calls must come in issue order (non-decreasing `now`), as an SM issues.

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "ptxsim/memory/backend.h"
#include "ptxsim/memory/coalescer.h"
#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

struct L1Config {
  uint32_t capacityBytes = 256 * 1024;  // 0: no L1, every load goes to the back end
  uint32_t ways = 4;                    // associativity (not measured on the H100)
  uint32_t lineBytes = 128;
  uint32_t sectorBytes = 32;
  uint32_t hitLatencyCycles = 32;  // an access's first sector, issue to use
  uint32_t sectorsPerCycle = 4;    // data-stage width
  uint32_t mshrs = 256;            // missed lines with a fetch in flight
  bool storeAllocates = true;      // a store's sectors become valid (the H100's: its store hit rates)
  // A later store hits a sector a store wrote only this many cycles after
  // it (a statistic only: every store goes to the back end either way).
  uint32_t storeFillCycles = 0;
  // Which line a miss evicts (replacement/registry.cpp names the policies).
  const ReplacementPolicy* replacement = &kLeastRecentlyUsed;
};

// PTX cache operators on loads: .ca, .lu and the default allocate in L1;
// .cg and .cv (and volatile) go to the back end without touching the L1's
// lines (their sectors count as misses) but still pass its data stage.
enum class L1Policy { kAllocate, kBypass };

// Which of Nsight Compute's L1 traffic classes an access counts in (the
// cache treats them alike): global and local loads and stores of the LSU
// pipe, cp.async's copies (LDGSTS), texture fetches and surface accesses
// of the texture pipe (on the H100 the texture cache is this L1).
enum class L1Traffic { kGlobal, kLdgsts, kTexture, kSurface };

struct L1Access {
  uint64_t readyAt = 0;       // every sector of the access is available
  uint32_t sectorHits = 0;    // including hits on sectors still in flight
  uint32_t sectorMisses = 0;  // sectors fetched by this access
  uint32_t lines = 0;
  uint64_t mshrStallCycles = 0;  // the longest any of its fetches waited for an MSHR
};

// Requests, sectors and the sectors that hit of one traffic class.
struct L1TrafficCount {
  uint64_t requests = 0;
  uint64_t sectors = 0;
  uint64_t sectorHits = 0;
};

// Cumulative, in Nsight Compute's terms: l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum,
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum and their _lookup_hit
// parts (L1Traffic::kGlobal), the other classes' l1tex__t_{requests,sectors}
// counts below; all sectors' hits over all sectors are
// l1tex__t_sector_hit_rate.pct.
struct L1Stats {
  uint64_t loadRequests = 0;
  uint64_t storeRequests = 0;
  uint64_t loadSectors = 0;
  uint64_t storeSectors = 0;
  uint64_t loadSectorHits = 0;
  uint64_t storeSectorHits = 0;
  uint64_t inFlightSectorHits = 0;  // load hits that waited for a fetch (MSHR hits)
  uint64_t mshrStallCycles = 0;     // sum of L1Access::mshrStallCycles
  L1TrafficCount ldgsts;        // ..._pipe_lsu_mem_global_op_ldgsts.sum
  L1TrafficCount texture;       // ..._pipe_tex_mem_texture.sum
  L1TrafficCount surfaceLoad;   // ..._pipe_tex_mem_surface_op_ld.sum
  L1TrafficCount surfaceStore;  // ..._pipe_tex_mem_surface_op_st.sum

  double sectorHitRatePct() const;  // 0 with no sectors
};

class L1Cache {
 public:
  // Throws std::invalid_argument for a geometry that does not divide into
  // sets of `ways` lines of whole sectors (at most 32 per line), or for zero
  // MSHRs or data-stage width.
  explicit L1Cache(const L1Config& config);

  // Becomes what L1Cache(config) would be, keeping the storage of the
  // lines: an SM's L1 is hundreds of kilobytes, and a launch that starts
  // 132 new ones spends milliseconds clearing them where a short kernel
  // touches a few sets. The sets are emptied one by one as they are next
  // looked up (as the L2's flush does).
  void startOver(const L1Config& config);

  L1Access load(uint64_t now, const CoalescedAccess& access, MemoryBackend& backend,
                L1Policy policy = L1Policy::kAllocate, L1Traffic traffic = L1Traffic::kGlobal);
  // Write-through: every sector goes to the back end; readyAt is when the
  // last write has been accepted there. Present sectors stay valid (they
  // take the new data); absent ones are allocated when storeAllocates (the
  // H100 counts a store to a sector an earlier store wrote as a hit:
  // transpose_naive's stores hit 72.5%), else not. A sector a store wrote
  // fewer than storeFillCycles before counts as a miss again.
  // `traffic`: kGlobal or kSurface.
  // `policy` kBypass: a store that does not allocate (st.cg).
  L1Access store(uint64_t now, const CoalescedAccess& access, MemoryBackend& backend,
                 L1Traffic traffic = L1Traffic::kGlobal, L1Policy policy = L1Policy::kAllocate);

  // Counts `sectors` further lookups of a texture fetch that load() has just
  // served, as hits of its traffic (kTexture): the texture unit looks the
  // same sector up again for each quad of lanes that reads it
  // (texture_lookups.h), and a sector the fetch needed is there by then.
  // Statistics only: what was fetched and when is load()'s.
  void countRepeatedTextureLookups(uint64_t sectors);

  // Drops every line, as a kernel launch does (the L1 is not coherent).
  // The statistics and clocks stay.
  void invalidate();

  // Provisional answers (MemoryBackend::lastTicket): the tickets the last
  // load() or store() depends on, its own requests' and those of the
  // fetches in flight whose sectors it hit; empty when every answer stood.
  const std::vector<uint64_t>& lastTickets() const { return lastTickets_; }
  // The back end's answer to `ticket` came later than it said: the sectors
  // that fetch fills arrive at `answer` (tickets in increasing order).
  void reviseFill(uint64_t ticket, uint64_t answer);
  // Every provisional answer so far has been revised or stands.
  void settleFills();

  const L1Stats& stats() const { return stats_; }
  const L1Config& config() const { return config_; }

 private:
  struct Way {
    uint64_t line = 0;
    bool valid = false;
    uint32_t sectors = 0;  // bit s: sector s requested (arrived or in flight)
    uint64_t rank = 0;  // the replacement policy's: the lowest is evicted first (0: just allocated)
  };

  // Reserves the access's sectors in the data stage; returns its first slot
  // (slots are 1/sectorsPerCycle of a cycle).
  uint64_t reserveDataStage(uint64_t now, const CoalescedAccess& access);
  Way* find(uint64_t line);
  Way* allocate(uint64_t line, uint64_t now);
  uint64_t* arrivals(const Way& way);
  uint64_t* storeHitsFrom(const Way& way);
  uint64_t* fillTickets(const Way& way);
  // The cycle a fetch ready at `at` may leave; raises `stall` to its wait.
  uint64_t acquireMshr(uint64_t at, uint64_t& stall);

  // The lines' state, per way (set-major) and per way and sector. A set
  // whose `setEpoch` is not `epoch` holds nothing: its entries are
  // emptied when it is next looked up (setOf).
  struct Lines {
    std::vector<Way> ways;
    std::vector<uint64_t> arrival;        // the cycle each sector's data is there
    std::vector<uint64_t> storeHitsFrom;  // per sector a store wrote: when later stores hit it
    std::vector<uint64_t> fillTicket;     // each sector's fetch's provisional answer, if any
    std::vector<uint32_t> setEpoch;
    uint32_t epoch = 0;
  };
  // L1Cache(config), the lines' storage taken from `lines` (emptied).
  L1Cache(const L1Config& config, Lines lines);
  // The ways of the set `line` maps to, emptied first if they are stale.
  Way* setOf(uint64_t line);

  L1Config config_;
  uint32_t sets_ = 0;
  uint32_t sectorsPerLine_ = 0;
  Lines lines_;
  struct PendingFill {
    uint64_t ticket = 0;
    uint64_t way = 0;  // index into lines_.ways
    uint64_t line = 0;
    uint32_t sectors = 0;
  };
  std::vector<PendingFill> pendingFills_;  // in ticket order
  std::vector<uint64_t> lastTickets_;
  uint64_t useClock_ = 0;
  uint64_t nextDataSlot_ = 0;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> mshrFreeAt_;
  L1Stats stats_;
};

}  // namespace ptxsim::memory
