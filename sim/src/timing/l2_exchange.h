#pragma once

// The L2 requests of a timing window between the SMs that logged them and
// the crossbar and L2 that answer them (timing_driver.cpp, phase B), in
// (cycle, SM, sequence) order, on the host threads:
//  - inject: each SM's crossbar port takes the SM's requests in (cycle,
//    sequence) order, on the SM's own host thread (no other SM's request
//    uses the port), and sorts them by slice;
//  - applySlice: each L2 slice, whose sets and ports are its own, takes the
//    requests sent to it, on whichever host thread runs the slice
//    (L2Cache::requestInWindow: within the window a slice sees the DRAM as
//    at the window's start plus its own requests; the driver then sends
//    the slices' DRAM requests on, L2Cache::finishWindow);
//  - hear: each SM hears its answers, on its own host thread, before it
//    next runs: nothing reads what they change before then (late answers
//    move what waited on them only when the SM runs: late_answers.h).

#include <cstdint>
#include <span>
#include <vector>

#include "memory_system.h"
#include "sm_model.h"

namespace ptxsim::sim::timing {

class L2Exchange {
 public:
  // `timeGathers`: gatheredSeconds() counts the wall time each slice's
  // step spends gathering and ordering its requests (the host profile).
  L2Exchange(MemorySystem& memory, uint32_t smCount, bool timeGathers = false);

  // SM `s`'s log of window `window` (any number that differs from window
  // to window, such as its end) is complete: injects it. On the SM's host
  // thread, at the end of its window in phase A, or in phase B after the
  // deferred instructions of an SM that has some.
  void inject(uint32_t s, const SmModel& sm, uint64_t window);
  // Applies the logs of window `window` of the SMs in `running` (in SM
  // order) to L2 slice `index`, of slices(): each slice's on any thread,
  // all of them before the driver finishes the window. An SM whose log was
  // not injected in the window sent nothing.
  void applySlice(uint32_t index, std::span<const uint32_t> running, uint64_t window);
  uint32_t slices() const { return slices_; }
  // SM `s` hears the answers to its last applied log, if not yet heard.
  void hear(uint32_t s, SmModel& sm);
  // Adds the launch's crossbar counts to the crossbar's (a sum: in any order).
  void addCounts();
  // With timeGathers: the slices' steps' wall time so far gathering and
  // ordering their requests from the SMs' logs, summed over slices.
  double gatheredSeconds() const;

 private:
  struct alignas(64) SliceRequests {  // on cache lines of its own: slices run on several threads
    struct Item {
      uint64_t now;
      uint32_t sm;
      uint32_t index;  // in the SM's log
      const memory::MemoryRequest* request;
      uint64_t injected;  // when it leaves its SM's port
    };
    std::vector<Item> items;
    memory::InterconnectStats counts;
    double gatheredSeconds = 0;
  };
  struct alignas(64) SmSteps {          // an SM's part, and what it owes its next run
    std::vector<uint32_t> order;        // its logged requests in (cycle, sequence) order
    std::vector<uint64_t> injected;     // per logged request
    std::vector<uint32_t> bySlice;      // its logged requests by slice, each slice's in sequence order
    std::vector<uint32_t> sliceStarts;  // ... where each slice's start (slices + 1)
    std::vector<uint32_t> sliceCursor;  // scratch for sorting them
    std::vector<uint64_t> answers;      // per logged request, written by the slices' step
    const SmModel* sm = nullptr;        // whose log was injected
    bool answersDue = false;            // answered, not yet heard
    memory::InterconnectStats counts;
  };
  MemorySystem& memory_;
  memory::Interconnect& crossbar_;
  memory::L2Cache& l2_;
  uint32_t slices_;
  bool timeGathers_;
  std::vector<SliceRequests> bySlice_;
  std::vector<SmSteps> bySm_;
  // An SM's row: the window it was last injected in, then bit k of word
  // 1 + k / 64 set if it logged requests to slice k. Each slice's step
  // reads the rows of the SMs that ran, side by side, and visits only the
  // SMs that sent it something: reading every SM's steps, each of which
  // another core's caches hold, cost each slice's step a cache miss an SM.
  uint32_t rowWords_;
  std::vector<uint64_t> rows_;
};

}  // namespace ptxsim::sim::timing
