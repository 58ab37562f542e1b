#pragma once

// What serves the L1's misses and write-throughs. The timing model is
// analytic: a request gets the cycle it leaves the SM and answers the cycle
// its data is back, so a back end is one call, not a ticked queue.
// L2Cache (l2_cache.h) and Hbm (hbm.h) serve the L1s' misses and use the
// line, sectors, requesting SM and atomic flag; FixedLatencyBackend, a
// fixed latency behind a port that only counts bytes, serves what has no
// model of its own yet (the constant cache's misses).

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ptxsim::memory {

struct MemoryRequest {
  uint64_t lineAddress = 0;  // line-aligned
  uint32_t sectorMask = 0;   // bit s: sector s of the line
  uint32_t bytes = 0;        // what crosses the SM's port: the sectors' bytes
  bool write = false;
  uint32_t sm = 0;      // the requesting SM: decides the L2's near or far partition
  bool atomic = false;  // an atomic or reduction performed at the L2: a read-modify-write
                        // of its sectors (`write` is then ignored)
  // Atomics only: the most operations the request makes on one 4-byte word
  // (32 for a warp's lanes all on one address, 1 for distinct words). The
  // L2 serialises operations on one word but updates a sector's distinct
  // words together, which the two H100 atomic throughputs need.
  uint32_t opsPerWord = 1;
  // Atomics only: bit w: a lane updates the line's 4-byte word w (lines of
  // up to 128 bytes; 0: not known). The L2's atomic unit passes a word's
  // result on to the next operation on that word, not to other words.
  uint32_t atomicWords = 0;

  // A plain store (`write` without `atomic`), and a plain read (neither).
  bool isStore() const { return write && !atomic; }
  bool isRead() const { return !write && !atomic; }
};

// A request and the cycle it is sent (MemoryBackend::estimateAfter).
struct TimedRequest {
  uint64_t now = 0;
  MemoryRequest request;
};

class MemoryBackend {
 public:
  virtual ~MemoryBackend() = default;
  // `now`: the cycle the request leaves the L1. Returns the cycle a read's
  // data is available to the warp, or a write has been accepted.
  virtual uint64_t request(uint64_t now, const MemoryRequest& request) = 0;
  // What request(now, request) would answer after `before` had been
  // requested in order, changing nothing (no state, no statistics): the
  // timing driver's SMs ask the shared L2 this while they run in parallel
  // and apply their requests later (sim/src/timing/timing_driver.cpp).
  // Safe to call from several threads while nothing calls request().
  virtual uint64_t estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                                 const MemoryRequest& request) const = 0;
  uint64_t estimate(uint64_t now, const MemoryRequest& request) const { return estimateAfter({}, now, request); }
  // One requester's view of the back end while others use it too (an L2
  // slice's in the timing driver's window, L2Cache::requestInWindow): the
  // back end as it is plus the requests given to estimateInto() since
  // clear(), which requests() lists in order for applying later. The
  // default view asks estimateAfter() with all of them, so n requests cost
  // n squared; a back end can keep what they changed instead (Hbm). Safe
  // to use several views from several threads while nothing calls request().
  class View {
   public:
    virtual ~View() = default;
    virtual uint64_t estimateInto(uint64_t now, const MemoryRequest& request) = 0;
    const std::vector<TimedRequest>& requests() const { return requests_; }
    virtual void clear() { requests_.clear(); }

   protected:
    std::vector<TimedRequest> requests_;
  };
  virtual std::unique_ptr<View> makeView() const;
  // Names the request() just answered when its answer is provisional: the
  // timing driver's SMs get estimates while they run in parallel, and the
  // driver revises those that the real L2 answers later (an SM's L2 port,
  // sim/src/timing/sm_model.h). kFinalAnswer for a back end whose answers stand.
  static constexpr uint64_t kFinalAnswer = UINT64_MAX;
  virtual uint64_t lastTicket() const { return kFinalAnswer; }
};

// Counts `request` as read or written traffic in `stats` (BackendStats,
// HbmStats: readRequests, writeRequests, bytesRead, bytesWritten).
template <typename Stats>
void countTraffic(const MemoryRequest& request, Stats& stats) {
  if (request.write) {
    ++stats.writeRequests;
    stats.bytesWritten += request.bytes;
  } else {
    ++stats.readRequests;
    stats.bytesRead += request.bytes;
  }
}

struct BackendStats {
  uint64_t readRequests = 0;
  uint64_t writeRequests = 0;
  uint64_t bytesRead = 0;
  uint64_t bytesWritten = 0;
  uint64_t portBusyCycles = 0;  // cycles the port spent moving bytes
};

// One port per SM that moves `bytesPerCycle` bytes a cycle, reads and writes
// alike, serving requests in call order (so calls must come in issue
// order). A request starts at max(now, the port's free cycle), holds the
// port ceil(bytes / bytesPerCycle) cycles, and is done `latencyCycles` after
// its transfer ends: an uncontended request of B bytes takes
// latencyCycles + ceil(B / bytesPerCycle).
class FixedLatencyBackend final : public MemoryBackend {
 public:
  // Throws std::invalid_argument for a port of zero bytes per cycle.
  FixedLatencyBackend(uint32_t latencyCycles, uint32_t bytesPerCycle);

  uint64_t request(uint64_t now, const MemoryRequest& request) override;
  uint64_t estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                         const MemoryRequest& request) const override;

  const BackendStats& stats() const { return stats_; }

 private:
  // The cycle the port is free after a request of `bytes` sent at `now`
  // finds it free at `freeAt`.
  uint64_t freeAfter(uint64_t now, uint32_t bytes, uint64_t freeAt) const;

  uint32_t latencyCycles_;
  uint32_t bytesPerCycle_;
  uint64_t portFreeAt_ = 0;
  BackendStats stats_;
};

}  // namespace ptxsim::memory
