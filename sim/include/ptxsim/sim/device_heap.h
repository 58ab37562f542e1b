#pragma once

// The device-side heap behind in-kernel malloc and free: one reserved
// allocation (cudaLimitMallocHeapSize bytes) carved first-fit. Guarded by a
// mutex because CTAs on different host threads allocate at once.

#include <cstdint>
#include <map>
#include <mutex>

namespace ptxsim::sim {

class DeviceHeap {
 public:
  // The heap covers [base, base+size); 16-byte granules, as CUDA's malloc aligns.
  void reset(uint64_t base, uint64_t size);
  bool ready() const { return size_ != 0; }
  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }

  // 0 when the heap is exhausted, as device malloc returns NULL.
  uint64_t allocate(uint64_t bytes);
  // False for a pointer malloc did not return (or already freed).
  bool release(uint64_t address);

 private:
  std::mutex mutex_;
  uint64_t base_ = 0;
  uint64_t size_ = 0;
  std::map<uint64_t, uint64_t> used_;  // address -> bytes
};

}  // namespace ptxsim::sim
