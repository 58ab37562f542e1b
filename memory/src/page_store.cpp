#include "ptxsim/memory/page_store.h"

#include <algorithm>
#include <stdexcept>

namespace ptxsim::memory {

PageStore::PageStore()
    : root_(new std::atomic<Leaf*>[uint64_t{1} << kRootBits]()), zeroPage_(new uint8_t[kPageSize]()) {}

PageStore::~PageStore() {
  for (uint64_t r = 0; r < (uint64_t{1} << kRootBits); ++r) {
    Leaf* leaf = root_[r].load();
    if (leaf == nullptr) continue;
    for (auto& page : leaf->pages) delete[] page.load();
    delete leaf;
  }
}

std::atomic<uint8_t*>* PageStore::slotFor(uint64_t address, bool create) const {
  if ((address >> kAddressBits) != 0) return nullptr;
  uint64_t pageNumber = address >> kPageBits;
  uint64_t rootIndex = pageNumber >> kLeafBits;
  Leaf* leaf = root_[rootIndex].load(std::memory_order_acquire);
  if (leaf == nullptr) {
    if (!create) return nullptr;
    std::lock_guard lock(leafMutex_);
    leaf = root_[rootIndex].load(std::memory_order_acquire);
    if (leaf == nullptr) {
      leaf = new Leaf();
      for (auto& page : leaf->pages) page.store(nullptr, std::memory_order_relaxed);
      root_[rootIndex].store(leaf, std::memory_order_release);
    }
  }
  return &leaf->pages[pageNumber & ((uint64_t{1} << kLeafBits) - 1)];
}

uint8_t* PageStore::pageForWrite(uint64_t address) {
  std::atomic<uint8_t*>* slot = slotFor(address, true);
  if (slot == nullptr) throw std::out_of_range("device address beyond 48 bits");
  uint8_t* page = slot->load(std::memory_order_acquire);
  if (page != nullptr) return page;
  auto* fresh = new uint8_t[kPageSize]();
  if (slot->compare_exchange_strong(page, fresh, std::memory_order_acq_rel)) {
    residentPages_.fetch_add(1, std::memory_order_relaxed);
    return fresh;
  }
  delete[] fresh;  // another thread created it first
  return page;
}

const uint8_t* PageStore::pageForRead(uint64_t address) const {
  std::atomic<uint8_t*>* slot = slotFor(address, false);
  if (slot == nullptr) return zeroPage_.get();
  uint8_t* page = slot->load(std::memory_order_acquire);
  return page != nullptr ? page : zeroPage_.get();
}

void PageStore::read(uint64_t address, void* out, uint64_t size) const {
  auto* dst = static_cast<uint8_t*>(out);
  while (size > 0) {
    uint64_t offset = address & (kPageSize - 1);
    uint64_t chunk = std::min(size, kPageSize - offset);
    std::memcpy(dst, pageForRead(address) + offset, chunk);
    address += chunk;
    dst += chunk;
    size -= chunk;
  }
}

void PageStore::write(uint64_t address, const void* in, uint64_t size) {
  const auto* src = static_cast<const uint8_t*>(in);
  while (size > 0) {
    uint64_t offset = address & (kPageSize - 1);
    uint64_t chunk = std::min(size, kPageSize - offset);
    std::memcpy(pageForWrite(address) + offset, src, chunk);
    address += chunk;
    src += chunk;
    size -= chunk;
  }
}

void PageStore::fill(uint64_t address, uint8_t value, uint64_t size) {
  while (size > 0) {
    uint64_t offset = address & (kPageSize - 1);
    uint64_t chunk = std::min(size, kPageSize - offset);
    // Zero-filling an untouched page needs no page.
    if (value != 0 || pageForRead(address) != zeroPage_.get()) {
      std::memset(pageForWrite(address) + offset, value, chunk);
    }
    address += chunk;
    size -= chunk;
  }
}

void PageStore::release(uint64_t address, uint64_t size) {
  uint64_t first = (address + kPageSize - 1) & ~(kPageSize - 1);
  uint64_t end = (address + size) & ~(kPageSize - 1);
  for (uint64_t page = first; page < end; page += kPageSize) {
    std::atomic<uint8_t*>* slot = slotFor(page, false);
    if (slot == nullptr) continue;
    uint8_t* bytes = slot->exchange(nullptr);
    if (bytes != nullptr) {
      delete[] bytes;
      residentPages_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

}  // namespace ptxsim::memory
