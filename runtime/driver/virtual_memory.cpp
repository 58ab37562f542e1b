// Virtual memory management over the simulator's device memory
// (virtual_memory.h).

#include "virtual_memory.h"

#include <algorithm>
#include <cstdio>

#include "shim_state.h"

namespace ptxsim::driver {

std::map<uint64_t, size_t>::iterator VirtualMemory::reservationOf(uint64_t address, size_t bytes) {
  auto it = reservations_.upper_bound(address);
  if (it == reservations_.begin()) return reservations_.end();
  --it;
  bool inside = address >= it->first && address - it->first + bytes <= it->second;
  return inside ? it : reservations_.end();
}

std::map<uint64_t, Mapping>::iterator VirtualMemory::mappingOf(uint64_t address) {
  auto it = mappings_.upper_bound(address);
  if (it == mappings_.begin()) return mappings_.end();
  --it;
  return address - it->first < it->second.bytes ? it : mappings_.end();
}

VirtualMemory& virtualMemory() {
  // Never destroyed, as the driver's state (a static runtime's exit
  // handlers may still call in).
  static VirtualMemory* memory = new VirtualMemory;
  return *memory;
}

}  // namespace ptxsim::driver

namespace {

using ptxsim::driver::kVirtualMemoryGranularity;
using ptxsim::driver::virtualMemory;

bool deviceProperties(const CUmemAllocationProp* prop) {
  return prop != nullptr && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED &&
         prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE && prop->location.id == 0;
}

// Runs `body` on the device with the runtime's lock held; a simulator error
// becomes CUDA_ERROR_INVALID_VALUE with its message on stderr.
template <typename Body>
CUresult onDevice(Body&& body) {
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  try {
    body(s.device());
    return CUDA_SUCCESS;
  } catch (const ptxsim::Error& e) {
    std::fprintf(stderr, "ptxsim: error: %s\n", e.what());
    return CUDA_ERROR_INVALID_VALUE;
  }
}

}  // namespace

DRIVER_EXPORT CUresult cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                                     CUmemAllocationGranularity_flags option) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (granularity == nullptr || !deviceProperties(prop) || option > CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *granularity = kVirtualMemoryGranularity;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                           unsigned long long flags) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  (void)addr;  // a hint; the simulator places reservations itself
  if (ptr == nullptr || size == 0 || size % kVirtualMemoryGranularity != 0 || flags != 0 ||
      (alignment & (alignment - 1)) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  uint64_t base = 0;
  CUresult r = onDevice([&](ptxsim::Device& d) {
    base = d.reserveAddresses(size, std::max(alignment, kVirtualMemoryGranularity));
  });
  if (r != CUDA_SUCCESS) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard lock(virtualMemory().mutex());
  virtualMemory().reservations()[base] = size;
  *ptr = base;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(virtualMemory().mutex());
  auto it = virtualMemory().reservations().find(ptr);
  if (it == virtualMemory().reservations().end() || it->second != size) return CUDA_ERROR_INVALID_VALUE;
  auto mapped = virtualMemory().mappings().lower_bound(ptr);
  if (mapped != virtualMemory().mappings().end() && mapped->first < ptr + size) return CUDA_ERROR_INVALID_VALUE;
  virtualMemory().reservations().erase(it);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                                   unsigned long long flags) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (handle == nullptr || size == 0 || size % kVirtualMemoryGranularity != 0 || flags != 0 ||
      !deviceProperties(prop)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::lock_guard lock(virtualMemory().mutex());
  CUmemGenericAllocationHandle h = virtualMemory().newHandle();
  ptxsim::driver::PhysicalAllocation& a = virtualMemory().handles()[h];
  a.bytes = size;
  a.properties = *prop;
  a.contents.assign(size, 0);
  *handle = h;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(virtualMemory().mutex());
  auto it = virtualMemory().handles().find(handle);
  if (it == virtualMemory().handles().end() || it->second.released()) return CUDA_ERROR_INVALID_VALUE;
  // The last reference gone, memory still mapped stays until it is
  // unmapped, as in CUDA.
  if (--it->second.references == 0 && it->second.mappedAt == 0) virtualMemory().handles().erase(it);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                                unsigned long long flags) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(virtualMemory().mutex());
  auto h = virtualMemory().handles().find(handle);
  if (h == virtualMemory().handles().end() || h->second.released() || flags != 0 || size == 0 ||
      offset + size > h->second.bytes || virtualMemory().reservationOf(ptr, size) == virtualMemory().reservations().end()) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  auto next = virtualMemory().mappings().lower_bound(ptr);
  bool overlaps = (next != virtualMemory().mappings().end() && next->first < ptr + size) ||
                  virtualMemory().mappingOf(ptr) != virtualMemory().mappings().end();
  if (overlaps) return CUDA_ERROR_INVALID_VALUE;
  if (offset != 0 || size != h->second.bytes || h->second.mappedAt != 0) {
    std::fprintf(stderr,
                 "ptxsim: error: cuMemMap: ptxsim maps a whole allocation at one address at a time (this call maps "
                 "%zu of its %zu bytes from offset %zu%s)\n",
                 size, h->second.bytes, offset, h->second.mappedAt != 0 ? ", and it is mapped already" : "");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult r = onDevice([&](ptxsim::Device& d) {
    d.mapAt(ptr, size);
    d.copyToDevice(ptr, h->second.contents.data(), size);
  });
  if (r != CUDA_SUCCESS) return r;
  h->second.mappedAt = ptr;
  h->second.contents.clear();
  h->second.contents.shrink_to_fit();
  virtualMemory().mappings()[ptr] = ptxsim::driver::Mapping{size, handle, CU_MEM_ACCESS_FLAGS_PROT_NONE};
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(virtualMemory().mutex());
  auto m = virtualMemory().mappings().find(ptr);
  if (m == virtualMemory().mappings().end() || m->second.bytes != size) return CUDA_ERROR_INVALID_VALUE;
  ptxsim::driver::PhysicalAllocation& a = virtualMemory().handles()[m->second.handle];
  a.contents.resize(size);
  CUresult r = onDevice([&](ptxsim::Device& d) {
    d.copyToHost(a.contents.data(), ptr, size);
    d.free(ptr);
  });
  if (r != CUDA_SUCCESS) return r;
  a.mappedAt = 0;
  if (a.released()) virtualMemory().handles().erase(m->second.handle);
  virtualMemory().mappings().erase(m);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (desc == nullptr || count == 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(virtualMemory().mutex());
  // Every byte of the range must be mapped; the whole mappings it covers
  // take the access (the simulated device is the only one).
  std::vector<ptxsim::driver::Mapping*> covered;
  for (uint64_t at = ptr; at < ptr + size;) {
    auto m = virtualMemory().mappingOf(at);
    if (m == virtualMemory().mappings().end()) return CUDA_ERROR_INVALID_VALUE;
    covered.push_back(&m->second);
    at = m->first + m->second.bytes;
  }
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id != 0) {
      return CUDA_ERROR_INVALID_DEVICE;
    }
    if (desc[i].flags > CU_MEM_ACCESS_FLAGS_PROT_READWRITE) return CUDA_ERROR_INVALID_VALUE;
    for (ptxsim::driver::Mapping* m : covered) m->access = desc[i].flags;
  }
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location, CUdeviceptr ptr) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (flags == nullptr || location == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(virtualMemory().mutex());
  auto m = virtualMemory().mappingOf(ptr);
  if (m == virtualMemory().mappings().end()) return CUDA_ERROR_INVALID_VALUE;
  bool thisDevice = location->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id == 0;
  *flags = thisDevice ? m->second.access : CU_MEM_ACCESS_FLAGS_PROT_NONE;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (handle == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(virtualMemory().mutex());
  auto m = virtualMemory().mappingOf(ptxsim::driver::devicePointer(addr));
  if (m == virtualMemory().mappings().end()) return CUDA_ERROR_INVALID_VALUE;
  *handle = m->second.handle;
  ++virtualMemory().handles()[m->second.handle].references;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop,
                                                              CUmemGenericAllocationHandle handle) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (prop == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(virtualMemory().mutex());
  auto h = virtualMemory().handles().find(handle);
  if (h == virtualMemory().handles().end()) return CUDA_ERROR_INVALID_VALUE;
  *prop = h->second.properties;
  return CUDA_SUCCESS;
}
