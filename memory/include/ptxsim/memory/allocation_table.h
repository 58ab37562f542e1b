#pragma once

// Which ranges of the device's global address space are allocated, so that
// every global access can be checked: inside a live allocation, inside a
// freed one (use after free), or nowhere. Addresses are never reused, which
// keeps a freed range recognisable for the rest of the run.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ptxsim::memory {

// Array: the texels of a CUDA array (sim/texture_objects.h); programs reach
// them only through texture and surface instructions and array copies.
enum class AllocationKind : uint8_t { Device, ModuleVariable, ModuleConstant, Heap, Managed, Host, Array };

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
  AllocationKind kind = AllocationKind::Device;
  std::string label;  // the variable name for module variables
  // Host-backed ranges (managed and mapped host memory): the device
  // address is the host pointer, and the bytes live there, not in the
  // page store.
  uint8_t* host = nullptr;
  // Numbers the allocations of a run from 1, never reused (the driver's
  // CU_POINTER_ATTRIBUTE_BUFFER_ID, which libraries key caches by).
  uint64_t bufferId = 0;
};

enum class AccessStatus : uint8_t { Ok, OutOfBounds, Freed, Misaligned };

struct AccessCheck {
  AccessStatus status = AccessStatus::Ok;
  const Allocation* allocation = nullptr;  // the live or freed allocation nearest the address
};

class AllocationTable {
 public:
  // Global allocations start here: above the shared and local windows of
  // the generic address space (generic_address.h), below 2^47.
  static constexpr uint64_t kFirstAddress = 0x0000'7200'0000'0000ull;
  static constexpr uint64_t kGranularity = 256;  // cudaMalloc's alignment

  // A fresh range of `size` bytes (at least one granule) aligned to
  // `alignment` (a power of two, at most 2^20).
  const Allocation& allocate(uint64_t size, uint64_t alignment, AllocationKind kind, std::string label = {});
  // Virtual memory management (cuMemAddressReserve, cuMemMap): a range of
  // `size` bytes of addresses aligned to `alignment` (a power of two), set
  // aside with nothing there yet; and an allocation placed at a given
  // address, which must overlap no live one. (The address space is not
  // modelled further: the caller keeps a mapping inside its reservation.)
  uint64_t reserve(uint64_t size, uint64_t alignment);
  const Allocation& allocateAt(uint64_t base, uint64_t size, AllocationKind kind);
  // Registers host memory [base, base+size) that kernels may access at the
  // same addresses (cudaMallocManaged, cudaMallocHost). False when it
  // overlaps a device range or a window of the generic address space.
  bool addHostRange(uint8_t* base, uint64_t size, AllocationKind kind);

  // The live allocation that begins at `base`, removed; nullopt when there
  // is none (a double free or a pointer into the middle).
  std::optional<Allocation> release(uint64_t base);
  // Makes the freed allocation that began at `base` live again at the same
  // address (graph memory: an allocation node's address stays fixed while
  // its memory is mapped at each launch and unmapped by its free). False
  // when no freed allocation begins there.
  bool restore(uint64_t base);

  // The live allocation containing address, or null.
  const Allocation* find(uint64_t address) const;
  // Whether [address, address+size) lies inside one live allocation.
  AccessCheck check(uint64_t address, uint64_t size) const;

  uint64_t liveBytes() const { return liveBytes_; }
  const std::map<uint64_t, Allocation>& live() const { return live_; }

 private:
  static const Allocation* containing(const std::map<uint64_t, Allocation>& ranges, uint64_t address);

  std::map<uint64_t, Allocation> live_;
  std::map<uint64_t, Allocation> freed_;
  uint64_t next_ = kFirstAddress;
  uint64_t nextBufferId_ = 1;
  uint64_t liveBytes_ = 0;
};

}  // namespace ptxsim::memory
