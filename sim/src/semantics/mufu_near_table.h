#pragma once

// A multi-function-unit table whose entries are, for nearly every index,
// within one unit in the last place of a reference (the correctly rounded
// function): 2 bits per entry say which (2 MiB for 2^23 entries, small
// enough that look-ups of random inputs mostly hit the host's caches), and
// the few others are listed. rcp, sqrt, rsqrt and ex2 are such tables
// (sim/data/mufu/README.md); the entry is exact either way.

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace ptxsim::sim::semantics::mufu {

class NearTable {
 public:
  static constexpr unsigned kEntries = 1u << 23;
  // The reference's bit pattern for an index; the same function at
  // decoding and at look-up, so entries come back exactly.
  using Reference = uint32_t (*)(uint32_t index);

  // Builds the table from its differences between consecutive entries,
  // a piece at a time.
  class Builder {
   public:
    explicit Builder(Reference reference);
    void add(std::span<const int32_t> differences);
    // Fails unless exactly kEntries differences were added.
    NearTable finish();

   private:
    std::unique_ptr<NearTable> table_;
    uint32_t value_ = 0;
    uint32_t added_ = 0;
  };

  uint32_t operator[](uint32_t index) const {
    uint32_t code = (codes_[index >> 2] >> ((index & 3) * 2)) & 3;
    if (code != kListed) return reference_(index) + code - 1;  // codes 0, 1, 2: one ulp below, at, above
    return listed(index);
  }

 private:
  static constexpr uint32_t kListed = 3;
  uint32_t listed(uint32_t index) const;

  Reference reference_ = nullptr;
  std::vector<uint8_t> codes_;                          // 4 entries a byte
  std::vector<std::pair<uint32_t, uint32_t>> listed_;  // (index, entry), by index
};

}  // namespace ptxsim::sim::semantics::mufu
