#include "graph_memory.h"

#include <algorithm>

#include "ptxsim/runtime/device.h"

namespace ptxsim::cudart {

cudaError_t GraphMemory::reserve(Device& device, size_t bytes, void** out) {
  uint64_t base = 0;
  try {
    // The range is taken now and released at once: addresses are never
    // handed out twice, so it stays this node's until it is mapped.
    base = device.malloc(bytes);
    device.free(base);
  } catch (const Error&) {
    return cudaErrorMemoryAllocation;
  }
  allocations_[base] = Allocation{bytes, false};
  *out = reinterpret_cast<void*>(base);
  return cudaSuccess;
}

bool GraphMemory::isMapped(const void* pointer) const {
  auto it = allocations_.find(address(pointer));
  return it != allocations_.end() && it->second.mapped;
}

cudaError_t GraphMemory::map(Device& device, const void* pointer) {
  auto it = allocations_.find(address(pointer));
  if (it == allocations_.end() || it->second.mapped) return cudaErrorInvalidValue;
  device.remap(it->first);
  it->second.mapped = true;
  mappedBytes_ += it->second.bytes;
  usedBytes_ = std::max(usedBytes_, roundUpToGranule(mappedBytes_));
  usedHigh_ = std::max(usedHigh_, usedBytes_);
  // Memory unmapped earlier and still reserved is used before more is reserved.
  reservedBytes_ = std::max(reservedBytes_, usedBytes_);
  reservedHigh_ = std::max(reservedHigh_, reservedBytes_);
  return cudaSuccess;
}

cudaError_t GraphMemory::unmap(Device& device, const void* pointer) {
  auto it = allocations_.find(address(pointer));
  if (it == allocations_.end() || !it->second.mapped) return cudaErrorInvalidValue;
  device.free(it->first);
  it->second.mapped = false;
  mappedBytes_ -= it->second.bytes;  // its granules stay used until a trim
  return cudaSuccess;
}

cudaError_t GraphMemory::attribute(cudaGraphMemAttributeType attr, uint64_t& value) const {
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: value = usedBytes_; break;
    case cudaGraphMemAttrUsedMemHigh: value = usedHigh_; break;
    case cudaGraphMemAttrReservedMemCurrent: value = reservedBytes_; break;
    case cudaGraphMemAttrReservedMemHigh: value = reservedHigh_; break;
    default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t GraphMemory::setAttribute(cudaGraphMemAttributeType attr, uint64_t value) {
  if (value != 0) return cudaErrorInvalidValue;
  switch (attr) {
    case cudaGraphMemAttrUsedMemHigh: usedHigh_ = usedBytes_; break;
    case cudaGraphMemAttrReservedMemHigh: reservedHigh_ = reservedBytes_; break;
    default: return cudaErrorInvalidValue;  // the current amounts are read-only
  }
  return cudaSuccess;
}

}  // namespace ptxsim::cudart
