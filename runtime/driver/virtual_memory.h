#pragma once

// Virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap,
// cuMemSetAccess and the rest): reserved address ranges, physical
// allocations (handles) and the mappings between them. The simulator's
// memory has no separate physical pages, so a mapping is device memory
// placed at the mapped address; a handle's bytes are kept while it is not
// mapped, so unmapping and mapping it again (elsewhere too) keeps them. A
// handle mapped at two places at once (aliasing) is refused, not modelled.

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "driver_api.h"

namespace ptxsim::driver {

struct PhysicalAllocation {
  size_t bytes = 0;
  CUmemAllocationProp properties{};
  unsigned references = 1;         // cuMemCreate's and cuMemRetainAllocationHandle's, less cuMemRelease's
  bool released() const { return references == 0; }  // gone once unmapped
  uint64_t mappedAt = 0;           // 0: not mapped
  std::vector<uint8_t> contents;   // kept while not mapped
};

struct Mapping {
  size_t bytes = 0;
  CUmemGenericAllocationHandle handle = 0;
  CUmemAccess_flags access = CU_MEM_ACCESS_FLAGS_PROT_NONE;
};

class VirtualMemory {
 public:
  std::mutex& mutex() { return mutex_; }
  std::map<uint64_t, size_t>& reservations() { return reservations_; }
  std::map<CUmemGenericAllocationHandle, PhysicalAllocation>& handles() { return handles_; }
  std::map<uint64_t, Mapping>& mappings() { return mappings_; }
  CUmemGenericAllocationHandle newHandle() { return nextHandle_++; }

  // The reservation holding [address, address+bytes), or end().
  std::map<uint64_t, size_t>::iterator reservationOf(uint64_t address, size_t bytes);
  // The mapping holding address, or end().
  std::map<uint64_t, Mapping>::iterator mappingOf(uint64_t address);

 private:
  std::mutex mutex_;
  std::map<uint64_t, size_t> reservations_;  // base -> bytes
  std::map<CUmemGenericAllocationHandle, PhysicalAllocation> handles_;
  std::map<uint64_t, Mapping> mappings_;     // base -> mapping
  CUmemGenericAllocationHandle nextHandle_ = 1;
};

VirtualMemory& virtualMemory();

// The granularity of reservations and allocations: 2 MiB, as CUDA reports
// for the H100 (minimum and recommended alike).
inline constexpr size_t kVirtualMemoryGranularity = size_t{2} << 20;

}  // namespace ptxsim::driver
