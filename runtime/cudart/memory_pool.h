#pragma once

// Stream-ordered allocation: memory pools (cudaMemPool_t points to a
// MemoryPool). Each allocation from a pool is a device allocation of its own,
// checked like cudaMalloc's (an access past its end or after its free is an
// error). A freed allocation's bytes stay reserved by the pool, as on a GPU,
// until a synchronisation releases what exceeds the release threshold or
// cudaMemPoolTrimTo trims them.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>

namespace ptxsim {
class Device;
}

namespace ptxsim::cudart {

struct MemoryPool {
  cudaMemPoolProps props{};
  uint64_t releaseThreshold = 0;
  int reuseFollowEventDependencies = 1;
  int reuseAllowOpportunistic = 1;
  int reuseAllowInternalDependencies = 1;
  uint64_t usedBytes = 0, usedHigh = 0;
  uint64_t reservedBytes = 0, reservedHigh = 0;
  std::map<uint64_t, uint64_t> allocations;  // device address -> bytes
  bool destroyed = false;  // cudaMemPoolDestroy with allocations outstanding: gone when they are freed
};

class MemoryPools {
 public:
  MemoryPools();
  ~MemoryPools();

  MemoryPool* defaultPool() { return &default_; }
  MemoryPool* currentPool() { return current_; }
  void setCurrentPool(MemoryPool* pool) { current_ = pool; }
  // The pool a handle names; null if none (or destroyed).
  MemoryPool* pool(cudaMemPool_t handle);
  MemoryPool* create(const cudaMemPoolProps& props);
  // cudaMemPoolDestroy: the default pool cannot be destroyed.
  cudaError_t destroy(MemoryPool* pool);

  cudaError_t allocate(Device& device, MemoryPool& pool, size_t bytes, void** out);
  // The pool holding an allocation that starts at `pointer`; null if none.
  MemoryPool* owner(const void* pointer);
  // `streamOrdered`: cudaFreeAsync's free. cudaFree's leaves the bytes in
  // the pool's used count: the H100 kept counting them, also after a
  // synchronisation (memory_pools.expected).
  cudaError_t free(Device& device, const void* pointer, bool streamOrdered = true);
  // At a synchronisation: each pool keeps at most its release threshold of
  // unused reserved memory.
  void releaseUnused();
  void trim(MemoryPool& pool, uint64_t keepBytes);
  // cudaDeviceReset: every allocation and pool gone (the device memory with it).
  void reset();

 private:
  static void trimReserved(MemoryPool& pool, uint64_t keepBytes);

  MemoryPool default_;
  MemoryPool* current_ = &default_;
  std::map<MemoryPool*, std::unique_ptr<MemoryPool>> created_;
};

}  // namespace ptxsim::cudart
