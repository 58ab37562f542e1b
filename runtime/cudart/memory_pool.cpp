#include "memory_pool.h"

#include <algorithm>

#include "ptxsim/runtime/device.h"

namespace ptxsim::cudart {

namespace {

cudaMemPoolProps defaultProps() {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  return props;
}

}  // namespace

MemoryPools::MemoryPools() { default_.props = defaultProps(); }

MemoryPools::~MemoryPools() = default;

MemoryPool* MemoryPools::pool(cudaMemPool_t handle) {
  auto* p = reinterpret_cast<MemoryPool*>(handle);
  if (p == &default_) return p;
  auto it = created_.find(p);
  return it == created_.end() || it->second->destroyed ? nullptr : p;
}

MemoryPool* MemoryPools::create(const cudaMemPoolProps& props) {
  auto pool = std::make_unique<MemoryPool>();
  pool->props = props;
  MemoryPool* p = pool.get();
  created_[p] = std::move(pool);
  return p;
}

cudaError_t MemoryPools::destroy(MemoryPool* pool) {
  if (pool == &default_) return cudaErrorInvalidValue;
  if (current_ == pool) current_ = &default_;  // the device falls back to its default pool
  pool->destroyed = true;
  if (pool->allocations.empty()) created_.erase(pool);
  return cudaSuccess;
}

cudaError_t MemoryPools::allocate(Device& device, MemoryPool& pool, size_t bytes, void** out) {
  if (bytes == 0) {  // allowed, as on the H100: nothing is allocated
    *out = nullptr;
    return cudaSuccess;
  }
  uint64_t address = 0;
  try {
    address = device.malloc(bytes);
  } catch (const Error&) {
    return cudaErrorMemoryAllocation;
  }
  pool.allocations[address] = bytes;
  pool.usedBytes += bytes;
  pool.usedHigh = std::max(pool.usedHigh, pool.usedBytes);
  // Memory freed earlier and still reserved is reused before more is reserved.
  pool.reservedBytes = std::max(pool.reservedBytes, pool.usedBytes);
  pool.reservedHigh = std::max(pool.reservedHigh, pool.reservedBytes);
  *out = reinterpret_cast<void*>(address);
  return cudaSuccess;
}

MemoryPool* MemoryPools::owner(const void* pointer) {
  auto address = reinterpret_cast<uint64_t>(pointer);
  if (default_.allocations.count(address) != 0) return &default_;
  for (auto& [p, pool] : created_) {
    if (pool->allocations.count(address) != 0) return p;
  }
  return nullptr;
}

cudaError_t MemoryPools::free(Device& device, const void* pointer, bool streamOrdered) {
  MemoryPool* pool = owner(pointer);
  if (pool == nullptr) return cudaErrorInvalidValue;
  auto address = reinterpret_cast<uint64_t>(pointer);
  auto it = pool->allocations.find(address);
  if (streamOrdered) pool->usedBytes -= it->second;
  pool->allocations.erase(it);
  device.free(address);
  if (pool->destroyed && pool->allocations.empty()) created_.erase(pool);
  return cudaSuccess;
}

void MemoryPools::trimReserved(MemoryPool& pool, uint64_t keepBytes) {
  pool.reservedBytes = std::max(pool.usedBytes, std::min(pool.reservedBytes, keepBytes));
}

void MemoryPools::releaseUnused() {
  trimReserved(default_, default_.releaseThreshold);
  for (auto& [p, pool] : created_) trimReserved(*pool, pool->releaseThreshold);
}

void MemoryPools::trim(MemoryPool& pool, uint64_t keepBytes) { trimReserved(pool, keepBytes); }

void MemoryPools::reset() {
  MemoryPool fresh;
  fresh.props = defaultProps();
  default_ = fresh;
  created_.clear();
  current_ = &default_;
}

}  // namespace ptxsim::cudart
