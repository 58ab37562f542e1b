#pragma once

// The multi-function unit's tables as read on an H100 (sim/data/mufu):
// 2^23 result bit patterns each, embedded compressed in the library and
// decoded on first use. Tables far from any simple reference (lg2) are
// kept packed here.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ptxsim::sim::semantics::mufu {

enum class TableId : uint8_t { Ex2Pos, Ex2Neg, Lg2E0, Lg2Em1, Rcp, SqrtE0, SqrtE1, RsqrtE0, RsqrtE1, Count };

// One table, packed: each block of 32 entries keeps its smallest bit
// pattern and one byte per entry above it, together in 40 bytes so a
// look-up touches one cache line (10 MiB for 2^23 entries instead of 32);
// a block whose entries span more than a byte keeps them whole apart.
class PackedTable {
 public:
  static constexpr unsigned kEntries = 1u << 23;

  // From the differences between consecutive entries, as stored.
  static PackedTable fromDifferences(std::span<const int32_t> differences);

  // Builds a table from its differences a piece at a time (a whole number
  // of blocks each time but the last), so decoding needs no full copy.
  class Builder {
   public:
    Builder();
    void add(std::span<const int32_t> differences);
    // Fails unless exactly kEntries differences were added.
    PackedTable finish();

   private:
    void packBlock(const uint32_t* block);
    std::vector<uint32_t> pending_;  // entries of the block being filled
    uint32_t value_ = 0;
    size_t added_ = 0;
    size_t blocksPacked_ = 0;
    std::unique_ptr<PackedTable> table_;
  };

  uint32_t operator[](uint32_t index) const {
    const Block& block = blocks_[index >> kBlockBits];
    if (block.whole != kPacked) return raw_[(static_cast<size_t>(block.whole) << kBlockBits) | (index & kBlockMask)];
    return block.base + block.offsets[index & kBlockMask];
  }

 private:
  static constexpr unsigned kBlockBits = 5;
  static constexpr uint32_t kBlockMask = (1u << kBlockBits) - 1;
  static constexpr uint32_t kPacked = UINT32_MAX;

  struct Block {
    uint32_t base = 0;          // the smallest entry
    uint32_t whole = kPacked;   // kPacked, or the block's index in raw_
    std::array<uint8_t, kBlockMask + 1> offsets{};  // each entry above base
  };
  std::vector<Block> blocks_;
  std::vector<uint32_t> raw_;  // the blocks kept whole
};

// Entry `index` of table `id`. Each table is decoded on its first use
// (thread-safe) and kept read-only: rcp, sqrt, rsqrt and ex2 as NearTables
// (mufu_near_table.h), lg2 packed.
uint32_t entry(TableId id, uint32_t index);

}  // namespace ptxsim::sim::semantics::mufu
