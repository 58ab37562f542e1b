#pragma once

// The L2 shared by all SMs, analytic like the rest of the timing model: a
// call gets the cycle a request leaves its SM and returns the cycle the data
// is back there (a write: acknowledged); nothing is ticked. Calls must come
// in non-decreasing `now`, each slice serving its requests in call order.
//
// Slices: line l = lineAddress / lineBytes lies in slice
// spreadIndex(l, slices) (address_hash.h: consecutive lines rotate over the
// slices, power-of-two strides are spread by XOR-folding the higher bits).
// The first slices / partitions slices form partition 0, the next partition
// 1, and so on; SMs are near a partition in runs of partitionSmRun (the
// H100 does not say which SMs are near which half, only that about 60% of
// lines are near for one SM, latency.l2.near_fraction 0.5964; the run is
// fitted, below).
//
// Timing of a read or store of k sectors: its slice's port moves k x
// sectorBytes at sliceBytesPerCycle, in call order, from max(now, port
// free), keeping fractions of a cycle (the port is ready from the cycle its
// last byte has passed, so whole lines at 80 bytes a cycle go 1.6 cycles
// apart); its data is back at the SM near or far latency (round trip
// included) after both the transfer and its sectors' data in the slice: hit
// sectors at once or when their fetch lands (a sector in flight is waited
// for, never fetched again), missing ones when the back end returns them.
//
// Atomics go to the slice's atomic unit instead of the port (the unit reads
// and writes the sectors itself; a reduction's operands come in through the
// crossbar's port and nothing goes back), once their sectors' data is in the
// slice. The unit takes the request's sectors in order, in call order, each
// starting no earlier than the one before plus atomicCyclesPerSector (a
// sector's distinct words are updated together) and, with n = opsPerWord
// operations on one word, its later operations atomicCyclesPerOp apart (a
// word's result passes straight on to its next operation): the sector holds
// the unit for (n - 1) x atomicCyclesPerOp + atomicCyclesPerSector and is
// updated n x atomicCyclesPerOp after it started. A sector the unit has
// updated is a hazard for a while: the next atomic on it starts no earlier
// than that update if it updates only words the update did (the results
// pass on), else atomicHazardCycles later (the sector must be written and
// read again). The request is back at the SM the near or far latency after
// its last sector's update.
//
// Request coalescing: a read of sectors that a read of the same line had
// looked up (reached the slice's tag stage) fewer than
// coalesceWindowCycles cycles before is merged with that read, as the
// H100's L2 request coalescer does: it is not looked up (so Nsight Compute's
// lts__t_sectors and hit rates do not count it: coalescedSectors does) and
// its data is back when the first read's is. Sectors not merged are looked
// up as usual. Why: on the H100, SMs reading the same sectors at about the
// same time (sgemm_tiled's tiles, one block a SM, so no L1 merging) send the
// L2 36% fewer lookups than their L1s miss (86 636 against 135 168,
// tests/timing/kernels/h100/dense.caches.ncu.csv). A window of 3 cycles
// (fitted) gives 79 220 and puts the SMs' L2 hit rates of the suite within
// 6.3 points (sgemm_tiled 84.5% against 78.2%; 12.7 points without it).
//
// Writing into the data array: a store, and a fetch of sectors from the
// back end, takes the slice's write port for writeRequestCycles plus
// 1 / writeSectorsPerCycle a sector, in call order (fractions kept), from
// the cycle it reaches the slice. A store is acknowledged, and its sectors
// readable, once it has passed both the slice's port and this one; a fetch
// is sent to the back end no earlier than its slots start (the port is
// reserved when the miss is looked up, so it throttles the fetches rather
// than reordering their arrivals). Why (the probe tests/timing/kernels/
// probe/l2_write_probe.cu, recorded 2026-11-25): the H100's L2 takes whole
// lines of stores at ~60 sectors a cycle (fill of 16-32 MB: 2.9 slice-
// cycles a line), whether the sectors are whole or hold one written word
// (47 a cycle), against 124 sectors of reads it passes a cycle; a copy's
// fetches from DRAM and its stores share the port (copy of 12-20 MB: 48
// sectors a cycle of both together); and stores of one sector a line
// (transpose_naive, scatter) cost it ~1.6 slice-cycles each. 1 cycle a
// request plus 0.6 a sector fits all three.
//
// Lines: sectored like the L1 (a miss fetches only the missing sectors),
// LRU, each slice with sets / slices sets of its own (50 MiB in 16-way sets
// is 25600 sets, 533 a slice for 48: the 16 left over are not used), line l
// in its slice's set spreadIndex(l / slices, sets a slice). Write-back with write-allocate of the written
// sectors: a store or atomic marks its sectors dirty without fetching a
// store's; evicting a line writes its dirty sectors to the back end in one
// request. At most a share of a set's ways hold dirty lines
// (dirtyShare): writing one more writes the least recently used other
// dirty line back and keeps it, clean. (Or a line with dirty sectors
// takes dirtyLineWays of its set's ways of room: allocating or writing a
// line evicts the least recently used others, not one whose fetch is in
// flight, until the set's lines fit.) A line with data still in flight is not evicted; when a set has
// nothing else, the request goes to the back end without allocating (an
// atomic then fetches and writes back its sectors). At most mshrsPerSlice
// missed lines of a slice are fetched at once; one more waits for the
// earliest to land.
//
// Defaults: the H100 SXM at 1980 MHz (tests/timing/calibration/h100/
// summary.txt). 50 MiB; 16 ways is an estimate. Latency: a hit measured from
// the SM's issue takes 263 cycles near and 293 far (latency.l2.near/far);
// the L1's own lookup on the way (counted by the L1 model) leaves 260 and
// 290. Bandwidth: 48 slices (an estimate) of 80 bytes a cycle give 3840
// bytes a cycle, against 3651 measured (bw.l2.read at full size, its
// launch's costs included; rounding each line's 1.6 cycles up to 2 would
// cap the slices at 3072). Atomics: all lanes of all SMs adding to one
// word run at 0.6893 operations a cycle (atomic.one_address: one slice,
// one word, so one operation after another): 1 / 0.6893 = 1.45 cycles an
// operation (one lane a warp, 0.6776, and ptxas's one reduction a warp to a
// uniform address, 21.7 x 32, agree). The same kernel on consecutive words
// (a warp's whole line, 4 sectors of 8 distinct words, sectors not updated
// for a long time) runs at 1288 a cycle in its steady state
// (atomic.many_addresses.steady): 0.3 cycles a sector (fitted: 1280; the
// bound 48 x 32 / (4 x 0.3) = 1280 is not the only one, the crossbar's
// port of a slice takes a line a cycle). The hot bins of histogram_global
// (tests/timing/kernels: a warp's atomics in about 21 sectors of 8 lines,
// the busiest slice's 4 sectors updated by nearly every warp) take the
// H100 498 345 cycles: a hazard of 12.7 cycles (fitted: 497 325; without
// it, 232 514). 128 MSHRs a slice (an estimate) are above the
// 1236 bytes a cycle x ~403 cycles / 128 bytes / 48 slices = 81 lines that
// sustaining the measured DRAM bandwidth needs.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ptxsim/memory/address_hash.h"
#include "ptxsim/memory/backend.h"
#include "ptxsim/memory/replacement_policy.h"

namespace ptxsim::memory {

struct L2Config {
  uint64_t capacityBytes = 50ull * 1024 * 1024;
  uint32_t ways = 16;
  uint32_t lineBytes = 128;
  uint32_t sectorBytes = 32;
  uint32_t slices = 48;
  uint32_t partitions = 2;
  uint32_t nearLatencyCycles = 260;
  uint32_t farLatencyCycles = 290;
  uint32_t sliceBytesPerCycle = 80;
  uint32_t mshrsPerSlice = 256;
  double atomicCyclesPerOp = 1.45;     // the slice's atomic unit: one word's operations, apart
  double atomicCyclesPerSector = 0.3;  // ... the sectors it starts, apart
  double atomicHazardCycles = 12.7;    // ... an update to other words of a sector it just updated, after
  uint32_t coalesceWindowCycles = 3;   // 0: no request coalescer
  // A read miss fetches the aligned blocks of this many bytes that hold its
  // missing sectors (a power of two from a sector to a line): the CUDA
  // limit cudaLimitMaxL2FetchGranularity. The H100's default is 64
  // (tests/timing/kernels/probe/h200/l2_fetch.ncu.csv).
  uint32_t fetchBytes = 64;
  // The slice's data-array write port (stores and fills): a request holds
  // it writeRequestCycles plus 1 / writeSectorsPerCycle per sector.
  double writeRequestCycles = 1.0;
  double writeSectorsPerCycle = 1.667;
  // The ways a line with dirty sectors takes of its set's room (1 to
  // ways): a set holds lines while they fit, the least recently used
  // evicted (written back) to make room when a line is allocated or
  // written. 1 on the H100 (2 fitted its fills' write-back before
  // dirtyShare, but lost the lines the L2 keeps: below).
  uint32_t dirtyLineWays = 1;
  // The share of a set's ways that may hold dirty lines (0 to 1; 1: no
  // limit): a store or atomic that makes one more line of its set dirty
  // than floor(dirtyShare x ways + a fraction in [0, 1) drawn from the
  // set's index) writes the set's least recently used other dirty line
  // back and keeps it, clean. The H100 keeps about 21.3 of its 50 MB dirty
  // (tests/timing/kernels/probe/l2_write_probe.cu: fills of 24 to 48 MB
  // write 2.8 to 28 MB back), and keeps the lines it writes back: on the
  // H200, 36 MB stored write 8.0 MB back, and reading the 36 MB back then
  // reads 1.25 MB from DRAM (probe/write_back_fate_probe.cu).
  double dirtyShare = 0.426;
  // A partition keeps copies of the sectors its SMs read or store of lines
  // homed in another: such a read looks up its partition's copy (the SMs'
  // lookup, in Nsight Compute's srcunit tex), and the home (srcunit
  // ltcfabric) only for the fetch blocks the copy lacks, which then fill
  // it; such a store writes the home (a fabric lookup) and its sectors are
  // the copy's too. Copies take ways of the home's set (a model: the
  // H100's sit in the other partition's slices); a store or atomic removes
  // its sectors from other partitions' copies. The stores' copies are what
  // makes the H100's copies of 16 and 20 MB write 1.4 and 4.5 MB back
  // (l2_write_probe), their sources, destinations and the reads' copies
  // more than its 50 MB.
  // Their latency stays the far one, as the L2 latency probe measures it.
  bool partitionCopies = true;
  // Consecutive SMs near the same partition (1: they alternate). 66 on the
  // H100, half its SMs: the model gives consecutive CTAs consecutive SMs,
  // and the stencils' CTAs, sharing their neighbours' edges, then hit the
  // L2 as the H100's do (stencil2d_5pt 59.6% against 61.7%; alternating,
  // 50.4%, each edge read through the other partition's copy).
  uint32_t partitionSmRun = 66;
  // Which line a set evicts, and which dirty line it writes back
  // (replacement/registry.cpp names the policies).
  const ReplacementPolicy* replacement = &kLeastRecentlyUsed;

  bool operator==(const L2Config&) const = default;
};

// Cumulative, in Nsight Compute's terms: lts__t_requests / lts__t_sectors
// by operation (_op_read, _op_write, _op_atom), their _lookup_hit and
// _lookup_miss parts, and per partition the hits.
struct L2Stats {
  uint64_t readRequests = 0;
  uint64_t writeRequests = 0;
  uint64_t atomicRequests = 0;
  uint64_t readSectors = 0;
  uint64_t writeSectors = 0;
  uint64_t atomicSectors = 0;
  uint64_t sectorHits = 0;          // including sectors still in flight
  uint64_t sectorMisses = 0;        // the sectors fetched, fetch-block neighbours included
  uint64_t inFlightSectorHits = 0;  // read and atomic hits that waited for a fetch
  uint64_t nearRequests = 0;
  uint64_t farRequests = 0;
  uint64_t evictions = 0;       // valid lines replaced
  uint64_t dirtyEvictions = 0;  // ... of which wrote dirty sectors back
  uint64_t writeBackSectors = 0;
  uint64_t cleanings = 0;  // dirty lines written back and kept (L2Config::dirtyShare)
  uint64_t coalescedSectors = 0;  // read sectors merged with a recent read of them: not looked up
  // Lookups at a line's home on behalf of another partition (srcunit
  // ltcfabric): the far SMs' stores and atomics, and their reads that their
  // partition's copy lacks (L2Config::partitionCopies; all of them without).
  uint64_t fabricSectors = 0;
  uint64_t fabricSectorHits = 0;
  uint64_t fabricSectorMisses = 0;  // fetch-block neighbours included, as sectorMisses
  uint64_t mshrStallCycles = 0;       // summed over fetches that waited for an MSHR
  uint64_t atomicUnitBusyCycles = 0;  // the atomic units' sectors' holding times, summed, rounded down
  uint64_t writePortWaitCycles = 0;   // summed over stores and fetches that waited for the write port
  std::vector<uint64_t> partitionSectorHits;

  double sectorHitRatePct() const;  // lts__t_sector_hit_rate.pct; 0 with no sectors
  // Adds `other`'s counts (a slice's share of a window: L2Cache::finishWindow).
  void add(const L2Stats& other);
};

// Throws std::invalid_argument for a configuration L2Cache cannot be built
// with (its constructor's list), without building it.
void checkL2Config(const L2Config& config);

class L2Cache final : public MemoryBackend {
 public:
  // `backend` (e.g. an Hbm) serves the misses and write-backs and must
  // outlive the cache. Throws std::invalid_argument for a geometry that does
  // not divide into sets of `ways` lines of whole sectors (1 to 32 a line),
  // zero slices, partitions, port width or MSHRs, slices not split evenly
  // between partitions, or an atomic unit that takes no or infinite time a
  // word or sector, or a negative or infinite hazard.
  L2Cache(const L2Config& config, MemoryBackend& backend);

  // Throws std::invalid_argument for a line address off the line or a
  // sector mask beyond the line.
  uint64_t request(uint64_t now, const MemoryRequest& request) override;
  // What request() would answer after `before` had been requested in order,
  // from the same code with every change made to a Shadow instead (the back
  // end is asked estimateAfter() its share of them).
  uint64_t estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                         const MemoryRequest& request) const override;

  // One requester's view of the L2 while others ask it too (the timing
  // driver's windows, sim/src/timing/timing_driver.cpp): the L2 as it is plus
  // the requester's own requests since clear(), which estimateInto() applies
  // to copies of the slices and sets they touch, never to the L2. So an SM's
  // several requests to one slice or line in a window wait for each other as
  // they will when applied, and what other SMs do cannot change its answers.
  class Shadow;
  // What request(now, request) would answer after `shadow`'s requests;
  // adds the request to `shadow`. Safe to call from several threads, each
  // with its own shadow, while nothing calls request().
  uint64_t estimateInto(Shadow& shadow, uint64_t now, const MemoryRequest& request) const;

  // A window's requests applied slice by slice, on several host threads at
  // once (the timing driver's phase B, sim/src/timing/timing_driver.cpp):
  // requestInWindow() is request() for one slice's requests, in their
  // order, a slice on one thread at a time. As a slice's state and sets are
  // its own, only the back end is shared: a slice's requests to it see it
  // as at the window's start plus the slice's own earlier ones
  // (estimateAfter), and are logged. finishWindow(), on one thread, then
  // applies the logged requests to the back end in (cycle, slice, order)
  // order and adds the slices' statistics. So the answers depend on no
  // thread's timing; a slice sees the other slices' DRAM traffic of the
  // window from the next one on, as an SM sees the other SMs'.
  uint64_t requestInWindow(uint64_t now, const MemoryRequest& request);
  void finishWindow();

  // A copy engine's store between launches (cudaMemset): `sectorMask` of
  // the line written at its home as a store is, the dirty lines it pushes
  // out written back and the lines beyond the set's share of dirty ones
  // cleaned, so that a launch finds what the memsets before it left in the
  // L2, as on the GPU (an H200 writes back 27.5 MB of the memsets before a
  // launch during it: tests/timing/kernels/probe/write_back_fate_probe.cu).
  // Each store follows the one before on a clock of their own;
  // startLaunch() then restarts the clocks and the statistics they touched.
  void copyEngineStore(uint64_t lineAddress, uint32_t sectorMask);
  // A copy engine's clean line between launches: `sectorMask` of the line
  // allocated at its home as a fill from DRAM would be (present, not dirty,
  // the most recently used of its set), on copyEngineStore's clock. Read:
  // a copy's source (its dirty sectors stay dirty). Replaced: a host
  // copy's destination, written to DRAM and the L2 alike (its sectors are
  // clean, and other partitions' copies of them are dropped). The H200 keeps
  // both so (tests/timing/calibration/h200/copy_residency.out; its launch
  // after a 2 MB cudaMemcpy writes no more back than one without:
  // probe/write_back_fate_probe.cu).
  enum class CopiedData : uint8_t { Read, Replaced };
  void copyEngineFill(uint64_t lineAddress, uint32_t sectorMask, CopiedData data);

  // A new launch: its clock starts at 0, so every fill has arrived and
  // every port, MSHR and atomic unit is free; the statistics restart. The
  // lines and their dirty sectors stay, as the GPU's L2 keeps them.
  void startLaunch();
  // Empties the L2 (its lines and their dirty sectors are dropped, as
  // Nsight Compute's cache control does between launches). Each set is
  // emptied when next used: clearing tens of megabytes of lines at every
  // launch cost a short kernel a twentieth of its host time, on one thread.
  void flush() { ++flushes_; }

  uint32_t sliceOf(uint64_t lineAddress) const;
  // Asks the host's caches for the set `lineAddress` maps to (its ways and
  // their sectors' arrival times), so that a request for it made a little
  // later does not wait on host memory. Changes nothing.
  void prefetchSet(uint64_t lineAddress) const;
  uint32_t partitionOf(uint32_t slice) const { return slice / (config_.slices / config_.partitions); }
  // The partition SM `sm` is near: runs of L2Config::partitionSmRun
  // consecutive SMs, the partitions in turn.
  uint32_t partitionNear(uint32_t sm) const { return (sm / config_.partitionSmRun) % config_.partitions; }

  const L2Stats& stats() const { return stats_; }
  const L2Config& config() const { return config_; }
  // Changes L2Config::fetchBytes between launches, keeping the lines (as
  // cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity) does); throws
  // std::invalid_argument for a granularity checkL2Config refuses.
  void setFetchBytes(uint32_t bytes);

 private:
  // Starts a clock epoch: every fill so far has landed (arrivals() forgets
  // the times), and every port, MSHR and atomic unit is free.
  void restartClocks();
  // copyEngineStore's and copyEngineFill's clock: its cycle for the next
  // copy-engine line (the first after a launch restarts the clocks: every
  // fill of the launch has landed).
  uint64_t copyEngineNow();
  // 40 bytes: a request walks its set's ways, and the L2 holds 409,600.
  struct Way {
    uint64_t line = 0;
    uint64_t rank = 0;  // the replacement policy's: the lowest is evicted first (0: just allocated)
    uint32_t sectors = 0;  // bit s: sector s present or in flight
    uint32_t dirty = 0;
    // Sectors fetched only as a missing sector's fetch-block neighbours and
    // not looked up since: counted as misses when fetched (countLookup).
    uint32_t unasked = 0;
    uint32_t launch = 0;  // the launch whose clock its arrival times count in
    bool valid = false;
    // The partition it serves: its slice's (the line's home), or another
    // one's (a copy of the home's sectors that partition's SMs read).
    uint8_t owner = 0;
  };
  struct RecentRead {
    uint64_t line = 0;
    uint32_t sectors = 0;  // 0: an empty entry
    uint64_t at = 0;       // when it reached the slice
    uint64_t readyAt = 0;  // when its data is back at its SM
  };
  static constexpr uint32_t kRecentReads = 8;
  struct AtomicUpdate {
    uint64_t line = 0;
    uint32_t sector = 0;
    uint32_t words = 0;       // of the sector, bit w: its 4-byte word w (0: not known)
    uint64_t doneAtTick = 0;  // when the sector's words are updated, in kAtomicTicksPerCycle units
    bool used = false;
  };
  // A slice's clocks and queues: all of it but its atomic unit's recent
  // updates, which an SM's shadow copies only for an atomic request
  // (Shadow::slice copies each slice its requests touch, every window: the
  // updates, 49 of them on the H100, were most of those bytes, and most
  // kernels have no atomics).
  struct SliceClocks {
    // The port's byte clock: it passes a byte in 1 / sliceBytesPerCycle of a
    // cycle and is free from portFreeAtByte / sliceBytesPerCycle on, so a
    // line takes 1.6 cycles at 80 bytes a cycle, not 2 (bw.l2.read).
    uint64_t portFreeAtByte = 0;
    uint64_t atomicFreeAtTick = 0;  // in kAtomicTicksPerCycle units
    uint64_t writeFreeAtTick = 0;  // the write port's, in kAtomicTicksPerCycle units
    // When each busy MSHR frees: a min-heap (std::push_heap with greater).
    std::vector<uint64_t> mshrFreeAt;
    // The request coalescer's recent reads (coalesceWindowCycles), oldest
    // replaced first.
    std::array<RecentRead, kRecentReads> recent{};
    uint32_t nextRecent = 0;
    // The clock its sets' lines are ranked by (ReplacementPolicy): one a
    // slice, as a set belongs to one slice (a shadow's copy goes on from it).
    uint64_t useClock = 0;
  };
  struct alignas(64) Slice : SliceClocks {
    // The atomic unit's recent sector updates, as many as it can start in
    // a hazard's time (atomicUpdateSlots_); an older one is a hazard no more.
    std::vector<AtomicUpdate> atomicUpdates;
  };
  // The atomic unit keeps time in fractions of a cycle so that 1.45 cycles a
  // round accumulates without rounding each round.
  static constexpr uint64_t kAtomicTicksPerCycle = 1024;

  // A slice's share of a window (requestInWindow), on cache lines of its
  // own (slices are applied on several host threads).
  struct alignas(64) SliceWindow {
    std::unique_ptr<View> backend;  // its view of the back end (made on first use)
    L2Stats stats;
    uint64_t atomicBusyTicks = 0;
    // Whether it took a request since the last finishWindow(): most
    // windows of a compute-bound kernel touch few slices or none, and
    // finishing an untouched one would only add zeros.
    bool touched = false;
  };
  // Where serve() reads and changes the state: the L2 itself (request(),
  // requestInWindow()) or a Shadow's copies (estimateInto()), so that they
  // cannot drift.
  struct Applied;
  struct Shadowed;
  template <class State>
  static uint64_t serve(State& state, uint64_t now, const MemoryRequest& request);
  template <class State>
  static uint64_t lookup(State& state, uint64_t now, const MemoryRequest& request, uint32_t sliceIndex,
                         Slice& slice);
  // The slice's atomic unit on `request`, whose sectors' data is in the
  // slice from cycle dataAt; returns the tick its last sector is updated
  // and the sum of the sectors' holding times in `busyTicks`.
  uint64_t runAtomicUnit(Slice& slice, uint64_t dataAt, const MemoryRequest& request,
                         uint64_t& busyTicks) const;
  void checkRequest(const MemoryRequest& request) const;
  // The set's ways, emptied first if a flush() came since it was last used.
  Way* setOf(uint64_t line);
  // Whether set `index` holds what it holds since the last flush().
  bool setCurrent(uint32_t index) const { return setFlushes_[index] == flushes_; }
  // A line's set lies in its slice's sets, so that a slice's requests
  // touch no other slice's state (the timing driver applies each slice's
  // on a host thread of its own).
  uint32_t setIndexOf(uint64_t lineAddress) const;
  template <class W>
  static W* findIn(W* set, uint32_t ways, uint64_t line, uint32_t owner);
  // The way's sectors' arrival times, all 0 (arrived) if they were set in
  // an earlier launch: startLaunch restarts the clock without touching
  // every line (the const form reads them without the reset).
  uint64_t* arrivals(Way& way);
  const uint64_t* arrivals(const Way& way) const;
  // Who a lookup is counted for: an SM (srcunit tex), and or the fabric
  // between the partitions (srcunit ltcfabric).
  struct Lookups {
    bool bySm = true;
    bool byFabric = false;
  };
  static void count(L2Stats& stats, const MemoryRequest& request, uint32_t partition, bool near,
                    uint32_t hits, uint32_t misses, uint32_t inFlightHits, Lookups lookups);
  // What a lookup finds of its sectors in a way: those present (landed or
  // in flight), when they are all there, and what the line must fetch.
  struct Found {
    uint32_t present = 0;
    uint32_t unaskedInFlight = 0;  // present, fetched as neighbours, still in flight
    uint32_t inFlightHits = 0;
    uint32_t fetched = 0;  // the missing sectors' fetch blocks less what the line has (reads)
    uint64_t dataAt = 0;
  };
  template <class State>
  static Found find(State& state, Way* way, const MemoryRequest& request, uint64_t now, uint64_t portEnd);
  // Counts the lookup and marks the way used.
  template <class State>
  static void countLookup(State& state, Slice& slice, Way* way, const MemoryRequest& request,
                          const Found& found, uint32_t partition, bool near, Lookups lookups);
  // The line's way for `owner` in `set`, else a way taken for it, with no
  // sectors yet (a copy's not its line's `home` way), else null when every
  // way is filling.
  template <class State>
  static Way* findOrAllocate(State& state, Way* set, uint64_t line, uint32_t owner, uint32_t home,
                             uint64_t now, uint32_t sm);
  // Sends a way's dirty sectors to the back end.
  template <class State>
  static void writeBack(State& state, const Way& way, uint64_t now, uint32_t sm);
  // Empties a way, writing its dirty sectors back.
  template <class State>
  static void evict(State& state, Way& victim, uint64_t now, uint32_t sm);
  // Evicts lines but `keep` until the set's lines fit its ways
  // (overfullVictim), then writes back dirty lines but `keep` until the set
  // has no more than its share of them (L2Config::dirtyShare).
  template <class State>
  static void makeRoom(State& state, Way* set, const Way* keep, uint64_t now, uint32_t sm);
  // Writes a way's dirty sectors back, keeping them.
  template <class State>
  static void clean(State& state, Way& way, uint64_t now, uint32_t sm);
  // The dirty lines the set of `lineAddress` may hold (L2Config::dirtyShare).
  uint32_t maxDirtyLines(uint64_t lineAddress) const;
  // Where a request's line lives: its slice, the slice's partition (the
  // line's home) and its set, looked up once a request.
  struct Place {
    Slice& slice;
    uint32_t home;
    Way* set;
    bool near;  // the requesting SM is near the home
  };
  // The request at the line's home; returns when its data is there (a
  // store: written; an atomic: updated).
  template <class State>
  static uint64_t atHome(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                         const Place& place, Lookups lookups);
  // A far SM's store: written at the home (a fabric lookup), and kept in
  // partition `partition`'s copy, which takes room there as a read's does.
  template <class State>
  static uint64_t storeWithCopy(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                                const Place& place, uint32_t partition);
  // A read through partition `partition`'s copy of a line homed in another.
  template <class State>
  static uint64_t throughCopy(State& state, uint64_t now, const MemoryRequest& request, uint64_t portEnd,
                              const Place& place, uint32_t partition);
  // Removes `sectors` from the copies of `line` that partitions other than
  // `home` keep in `set`.
  static void dropCopies(Way* set, uint32_t ways, uint64_t line, uint32_t home, uint32_t sectors);
  // `sectors` (a line's mask) widened to the whole fetch blocks holding them.
  uint32_t fetchBlocks(uint32_t sectors) const;

  L2Config config_;
  MemoryBackend& backend_;
  uint32_t sets_ = 0;
  uint32_t setsPerSlice_ = 0;
  uint32_t sectorsPerLine_ = 0;
  uint32_t sectorsPerFetch_ = 0;  // config_.fetchBytes in sectors
  uint64_t atomicTicksPerOp_ = 0;
  uint64_t atomicTicksPerSector_ = 0;
  uint64_t atomicHazardTicks_ = 0;
  uint32_t atomicUpdateSlots_ = 0;
  uint64_t writeTicksPerRequest_ = 0;  // the write port's, in kAtomicTicksPerCycle units
  uint64_t writeTicksPerSector_ = 0;
  std::vector<Way> ways_;             // set-major
  uint32_t flushes_ = 0;              // flush() calls so far
  std::vector<uint32_t> setFlushes_;  // per set: flushes_ when it was last emptied or used
  std::vector<uint64_t> arrival_;     // per way and sector: the cycle its data is in the slice
  std::vector<Slice> slices_;
  std::vector<SliceWindow> sliceWindows_;  // one a slice
  // finishWindow's merge: each request and its place in (slice, order).
  std::vector<std::pair<TimedRequest, uint32_t>> windowBackend_;
  uint32_t launch_ = 0;  // clock epochs started (restartClocks): launches, and the copies between them
  // copyEngineStore's clock, from the first after a launch on (each store
  // advances it at least 1); 0: none since startLaunch.
  uint64_t copyEngineClock_ = 0;
  uint64_t atomicBusyTicks_ = 0;
  L2Stats stats_;
};

class L2Cache::Shadow {
 public:
  // Forgets the requests: the view is the L2 as it is again. Keeps the
  // copies' storage, so that the next window's copies allocate nothing (an
  // SM's shadow is cleared every window: allocating its copies anew was a
  // tenth of the timing model's host time, and its page faults held the
  // host threads up).
  void clear();

 private:
  friend class L2Cache;
  struct Set {
    uint32_t index = 0;
    std::vector<Way> ways;
    std::vector<uint64_t> arrival;  // per way and sector, as L2Cache::arrival_
  };
  // The slice's copy, made on first use: by slice index (sized to the
  // L2's slices on first use); slicesCopied_ lists the ones in use. Its
  // atomic unit's updates are copied only by atomicUpdatesOf().
  Slice& slice(const L2Cache& l2, uint32_t index);
  // Copies the updates of `copy` (one of slice()'s) if not yet done.
  void atomicUpdatesOf(const L2Cache& l2, Slice& copy);
  // The set's copy, and whether it was just added (to be filled).
  std::pair<Set*, bool> set(uint32_t index);

  std::vector<Slice> slices_;
  enum class Copied : uint8_t { No, ButAtomicUpdates, Whole };
  std::vector<Copied> sliceCopied_;
  std::vector<uint32_t> slicesCopied_;
  // The sets' copies [0, setsUsed_), found through an open-addressed table
  // of (set index + 1) << 32 | position (0: empty), at most half full.
  std::vector<Set> sets_;
  size_t setsUsed_ = 0;
  std::vector<uint64_t> setTable_;
  std::vector<TimedRequest> backend_;  // what the requests asked of the back end, in order
};

}  // namespace ptxsim::memory
