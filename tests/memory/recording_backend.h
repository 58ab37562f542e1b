#pragma once

// Test support: a back end that answers every request a fixed number of
// cycles after it is sent, with no bandwidth limit, and keeps each request
// so a test can check what the L1 asked for and when.

#include <cstdint>
#include <vector>

#include "ptxsim/memory/backend.h"

namespace ptxsim::memory::test {

class RecordingBackend final : public MemoryBackend {
 public:
  struct Sent {
    uint64_t at = 0;
    MemoryRequest request;
  };

  explicit RecordingBackend(uint64_t latencyCycles) : latencyCycles_(latencyCycles) {}

  uint64_t request(uint64_t now, const MemoryRequest& request) override {
    sent.push_back({now, request});
    return now + latencyCycles_;
  }
  uint64_t estimateAfter(std::span<const TimedRequest>, uint64_t now, const MemoryRequest&) const override {
    return now + latencyCycles_;
  }

  std::vector<Sent> sent;

 private:
  uint64_t latencyCycles_;
};

}  // namespace ptxsim::memory::test
