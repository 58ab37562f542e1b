#pragma once

// The graph memory pool: the memory of graph allocation nodes
// (cudaGraphAddMemAllocNode, cudaMallocAsync during capture). An
// allocation's address is fixed when its node is made and stays the same
// across instantiations and launches; the memory behind it is mapped when
// the allocation node runs and unmapped by a free node, cudaFree or
// cudaFreeAsync. Between those an access to it is an access to freed memory
// (the device's allocation table reports it). Unmapped memory stays
// reserved by the pool until cudaDeviceGraphMemTrim, as on a GPU.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>

namespace ptxsim {
class Device;
}

namespace ptxsim::cudart {

class GraphMemory {
 public:
  // A fixed address for an allocation node of `bytes` bytes, not mapped yet.
  cudaError_t reserve(Device& device, size_t bytes, void** out);
  // Whether `pointer` is the address of a graph allocation.
  bool owns(const void* pointer) const { return allocations_.count(address(pointer)) != 0; }
  bool isMapped(const void* pointer) const;
  // The allocation node runs: cudaErrorInvalidValue if it is mapped already.
  cudaError_t map(Device& device, const void* pointer);
  // A free node, cudaFree or cudaFreeAsync: cudaErrorInvalidValue unless mapped.
  cudaError_t unmap(Device& device, const void* pointer);
  // cudaDeviceGraphMemTrim: reserved memory not mapped goes back to the device.
  void trim() { reservedBytes_ = usedBytes_ = roundUpToGranule(mappedBytes_); }

  // cudaDeviceGetGraphMemAttribute / cudaDeviceSetGraphMemAttribute.
  cudaError_t attribute(cudaGraphMemAttributeType attr, uint64_t& value) const;
  // Only the high watermarks may be set, and only to 0, which resets them
  // to the current amount.
  cudaError_t setAttribute(cudaGraphMemAttributeType attr, uint64_t value);

  // cudaDeviceReset: the device and every graph allocation are gone.
  void reset() { *this = GraphMemory(); }

 private:
  struct Allocation {
    uint64_t bytes = 0;
    bool mapped = false;
  };
  static uint64_t address(const void* pointer) { return reinterpret_cast<uint64_t>(pointer); }

  std::map<uint64_t, Allocation> allocations_;
  // Graph memory is backed in granules of 32 MiB that stay with the graph
  // pool after their allocations are freed, until a trim: on an H100 a
  // 2 MiB allocation node makes the used amount 33554432, and it stays so
  // after cudaFreeAsync (tests/cuda/programs/graph_nodes).
  static constexpr uint64_t kGranuleBytes = uint64_t{32} << 20;
  static uint64_t roundUpToGranule(uint64_t bytes) { return (bytes + kGranuleBytes - 1) / kGranuleBytes * kGranuleBytes; }
  uint64_t mappedBytes_ = 0;  // of allocations mapped now
  uint64_t usedBytes_ = 0, usedHigh_ = 0;
  uint64_t reservedBytes_ = 0, reservedHigh_ = 0;
};

}  // namespace ptxsim::cudart
