#pragma once

// The crossbar between the SMs and the L2's slices, analytic like the rest
// of the timing model: a MemoryBackend that sits in front of the L2 (or any
// back end whose requests have a slice) and delays each request only by the
// queueing it meets on the way.
//
// Every SM has an injection port that moves `smBytesPerCycle` bytes a
// cycle (a read's bytes are the data it brings back), a store's bytes at
// `smStoreBytesPerCycle`, its requests in call order; every slice has an
// ejection port that moves `sliceBytesPerCycle`. A request takes its SM's
// port from max(now, when the port is free) and holds it ceil(bytes / that
// rate) whole cycles (an SM sends one request a cycle at most), then takes
// its slice's port from max(the cycle it started in, when that port is
// free) for bytes / sliceBytesPerCycle cycles, fractions kept (four
// one-sector requests pass a 128-byte port in one cycle); it reaches the
// back end in the cycle it starts on the slice's port. Why (the H200
// probe tests/timing/kernels/probe/write_back_probe.cu, 2026-11-28): its
// random gathers take up to 115 one-sector requests a cycle from 132 SMs
// (write_first: 0.87 an SM a cycle); until then a slice's port held each
// request whole cycles too, so 48 slices let 48 through a cycle at most,
// and the model ran those gathers up to 71% slower than the H200.
// An uncontended request is not delayed at all: the back end's latencies
// (the L2's near and far hit latencies, measured from the SM) already
// include the trip across the crossbar, so only the wait for a busy port
// is added.
//
// Defaults: the H100 SXM. 64 bytes a cycle into one SM is the L2-to-SM
// bandwidth NVIDIA states for its recent SMs (not measured on the H100);
// 64 bytes a cycle out of each of 48 slices is ~5.5 TB/s at 1.755 GHz (the
// published Hopper L2 bandwidth, over the L2's estimated 48 slices; not
// measured). The L2's own slice port (l2_cache.h, 32 bytes a cycle,
// calibrated on bw.l2.read) is the narrower one, so the ejection ports bind
// only in configurations that make them narrower.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ptxsim/memory/backend.h"

namespace ptxsim::memory {

struct InterconnectConfig {
  uint32_t smBytesPerCycle = 64;
  // A store's data moves through its SM's port at this narrower rate: on the
  // H100 one SM stores a sector a cycle (fill of 8 MB by 16 SMs, 1024
  // threads each: 15.7 sectors a cycle; tests/timing/kernels/probe/h100/
  // l2_write.ncu.csv), where its reads bring in twice that.
  uint32_t smStoreBytesPerCycle = 32;
  uint32_t sliceBytesPerCycle = 128;

  bool operator==(const InterconnectConfig&) const = default;
};

// Cumulative: requests and bytes that crossed, and the cycles requests
// waited for a busy port (summed over requests).
struct InterconnectStats {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t smPortWaitCycles = 0;
  uint64_t slicePortWaitCycles = 0;
};

// Throws std::invalid_argument for a port of zero bytes a cycle.
void checkInterconnectConfig(const InterconnectConfig& config);

class Interconnect final : public MemoryBackend {
 public:
  // `sliceOf` maps a line address to its slice, below `slices`; `backend`
  // (the L2) serves the requests and must outlive the interconnect. Throws
  // std::invalid_argument for a bad configuration or zero slices.
  Interconnect(const InterconnectConfig& config, uint32_t slices, std::function<uint32_t(uint64_t)> sliceOf,
               MemoryBackend& backend);

  // Throws std::out_of_range when `sliceOf` names a slice beyond `slices`.
  uint64_t request(uint64_t now, const MemoryRequest& request) override;
  // What request() would answer after `before`, changing nothing: the
  // crossbar's share from the same arithmetic, the back end asked
  // estimateAfter() with the cycles `before` and `request` reach it.
  uint64_t estimateAfter(std::span<const TimedRequest> before, uint64_t now,
                         const MemoryRequest& request) const override;

  // One SM's view of the crossbar while other SMs use it too (the timing
  // driver's windows, sim/src/timing/timing_driver.cpp): the ports as they
  // are plus the SM's own requests since clear(), which arrivalInto()
  // applies to copies of its SM port and the slice ports they touch, never
  // to the crossbar.
  class Shadow {
   public:
    void clear() {
      smPortFreeAt_.reset();
      slicePortFreeAt_.clear();
    }

   private:
    friend class Interconnect;
    std::optional<uint64_t> smPortFreeAt_;  // in port ticks (interconnect.cpp)
    std::vector<std::pair<uint32_t, uint64_t>> slicePortFreeAt_;  // (slice, free tick), the slices touched
  };
  // The cycle `request` (sent at `now`) would reach the back end after
  // `shadow`'s requests; adds it to `shadow`. Asks the back end nothing.
  // Safe to call from several threads, each with its own shadow, while
  // nothing calls request(). Throws std::out_of_range as request() does.
  uint64_t arrivalInto(Shadow& shadow, uint64_t now, const MemoryRequest& request) const;

  // request() in two steps, for the timing driver's windows, whose host
  // threads take an SM's or a slice's requests each: inject() takes the
  // SM's port (the SM's requests in their order; `sm` below the count
  // given to addSms()) and returns the cycle the request leaves it;
  // eject() then takes the slice's port from that cycle (the slice's
  // requests in their order) and returns the cycle it reaches the back
  // end. Both count into `counts`, which addCounts() adds to stats().
  void addSms(uint32_t count);
  uint64_t inject(uint64_t now, const MemoryRequest& request, InterconnectStats& counts);
  uint64_t eject(uint64_t injected, const MemoryRequest& request, InterconnectStats& counts);
  void addCounts(const InterconnectStats& counts);

  // A new launch: its clock starts at 0, so every port is free; the
  // statistics restart.
  void startLaunch();

  const InterconnectStats& stats() const { return stats_; }
  const InterconnectConfig& config() const { return config_; }

 private:
  uint32_t checkedSlice(const MemoryRequest& request) const;
  // A request sent at `now` through ports free at `smFree` and
  // `sliceFree`: moves both on; returns the cycle it has the slice's port.
  uint64_t cross(uint64_t now, const MemoryRequest& request, uint64_t& smFree, uint64_t& sliceFree) const {
    return crossSlice(crossSm(now, request, smFree), request, sliceFree);
  }
  // Its two halves: the cycle it leaves the SM's port, and the one it has the slice's.
  uint64_t crossSm(uint64_t now, const MemoryRequest& request, uint64_t& smFree) const;
  uint64_t crossSlice(uint64_t injected, const MemoryRequest& request, uint64_t& sliceFree) const;

  InterconnectConfig config_;
  std::function<uint32_t(uint64_t)> sliceOf_;
  MemoryBackend& backend_;
  // A cache line each, like the slices' ports (below): grown to the
  // highest SM seen or added.
  struct alignas(64) SmPort {
    uint64_t freeAt = 0;  // in port ticks (interconnect.cpp)
  };
  std::vector<SmPort> smPortFreeAt_;
  // A cache line each: the timing driver moves different slices' ports on
  // different host threads (eject).
  struct alignas(64) SlicePort {
    uint64_t freeAt = 0;
  };
  std::vector<SlicePort> slicePortFreeAt_;
  InterconnectStats stats_;
};

}  // namespace ptxsim::memory
