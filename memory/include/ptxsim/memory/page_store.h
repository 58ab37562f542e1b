#pragma once

// Sparse, paged backing store for the simulated device's flat address
// space. Pages are created on first write and read as zeros before that, so
// a large cudaMalloc costs host memory only for what the program touches.
// Look-ups are lock-free (a two-level table of atomic pointers) because CTAs
// on many host threads read and write device memory at once.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace ptxsim::memory {

class PageStore {
 public:
  static constexpr unsigned kPageBits = 16;  // 64 KiB pages
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;
  static constexpr unsigned kAddressBits = 48;

  PageStore();
  ~PageStore();
  PageStore(const PageStore&) = delete;
  PageStore& operator=(const PageStore&) = delete;

  // The host bytes of the page holding `address`, creating it (zeroed) if
  // needed. Accesses never span pages: they are naturally aligned and at
  // most 32 bytes.
  uint8_t* pageForWrite(uint64_t address);
  // The page, or a shared page of zeros when it was never written.
  const uint8_t* pageForRead(uint64_t address) const;
  // Whether a page from pageForRead is the shared zero page (no page yet).
  bool isUnbacked(const uint8_t* page) const { return page == zeroPage_.get(); }

  // Byte copies of any length and alignment (host API transfers).
  void read(uint64_t address, void* out, uint64_t size) const;
  void write(uint64_t address, const void* in, uint64_t size);
  void fill(uint64_t address, uint8_t value, uint64_t size);
  // Drops the pages wholly inside [address, address+size) so freed memory
  // returns to the host.
  void release(uint64_t address, uint64_t size);

  // Host bytes held by pages now, for statistics and memory benchmarks.
  uint64_t residentBytes() const { return residentPages_.load(std::memory_order_relaxed) * kPageSize; }

 private:
  static constexpr unsigned kLeafBits = 16;
  static constexpr unsigned kRootBits = kAddressBits - kPageBits - kLeafBits;
  struct Leaf {
    std::atomic<uint8_t*> pages[uint64_t{1} << kLeafBits];
  };

  std::atomic<uint8_t*>* slotFor(uint64_t address, bool create) const;

  std::unique_ptr<std::atomic<Leaf*>[]> root_;
  std::unique_ptr<uint8_t[]> zeroPage_;
  mutable std::mutex leafMutex_;
  std::atomic<uint64_t> residentPages_{0};
};

}  // namespace ptxsim::memory
