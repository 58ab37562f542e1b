#pragma once

// The multi-function unit's tables as read on an H100 (sim/data/mufu):
// 2^23 result bit patterns each, embedded compressed in the library and
// decoded on first use.

#include <cstdint>
#include <span>
#include <vector>

namespace ptxsim::sim::semantics::mufu {

enum class TableId : uint8_t { Ex2Pos, Ex2Neg, Lg2E0, Lg2Em1, Rcp, SqrtE0, SqrtE1, RsqrtE0, RsqrtE1, Count };

// One table, packed: each block of 32 entries keeps its smallest bit
// pattern and one byte per entry above it (9 MiB for 2^23 entries instead
// of 32); a block whose entries span more than a byte keeps them whole.
class PackedTable {
 public:
  static constexpr unsigned kEntries = 1u << 23;

  // From the differences between consecutive entries, as stored.
  static PackedTable fromDifferences(std::span<const int32_t> differences);

  uint32_t operator[](uint32_t index) const {
    uint32_t block = index >> kBlockBits;
    if (whole_[block] != kPacked) return raw_[(static_cast<size_t>(whole_[block]) << kBlockBits) | (index & kBlockMask)];
    return base_[block] + offsets_[index];
  }

 private:
  static constexpr unsigned kBlockBits = 5;
  static constexpr uint32_t kBlockMask = (1u << kBlockBits) - 1;
  static constexpr uint32_t kPacked = UINT32_MAX;

  std::vector<uint32_t> base_;     // per block: the smallest entry
  std::vector<uint32_t> whole_;    // per block: kPacked, or its index in raw_
  std::vector<uint8_t> offsets_;   // per entry: above its block's base
  std::vector<uint32_t> raw_;      // the blocks kept whole
};

// The table, decoded on the first call (thread-safe); later calls return
// the same read-only table.
const PackedTable& table(TableId id);

}  // namespace ptxsim::sim::semantics::mufu
