#pragma once

// The multi-function unit's tables as read on an H100 (sim/data/mufu):
// result bit patterns (2^23 for each f32 function of the mantissa, fewer
// for the f64 and 16-bit forms, 2^24 for half a period of sin, a table per
// binade for tanh), embedded compressed in the library and decoded on
// first use. Tables far from any simple reference are kept packed here.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ptxsim::sim::semantics::mufu {

enum class TableId : uint8_t {
  Ex2Pos, Ex2Neg, Lg2E0, Lg2Em1, Rcp, SqrtE0, SqrtE1, RsqrtE0, RsqrtE1,  // f32, 2^23 entries
  SinHalf,                                                               // sin over half a period, 2^24
  TanhF32,                                                               // binades 2^-8 to 2^2
  Rcp64H, Rsqrt64HE0, Rsqrt64HE1,                                        // upper words, 2^20
  Ex2F16, Ex2Bf16, TanhF16, TanhBf16,                                    // every 16-bit input
  Count
};

// One table, packed: each block of 32 entries keeps its smallest bit
// pattern and one byte per entry above it, together in 40 bytes so a
// look-up touches one cache line (10 MiB for 2^23 entries instead of 32);
// a block whose entries span more than a byte keeps them whole apart.
class PackedTable {
 public:
  // From the differences between consecutive entries, as stored.
  static PackedTable fromDifferences(std::span<const int32_t> differences);

  // Builds a table of `entries` entries from its differences a piece at a
  // time, so decoding needs no full copy.
  class Builder {
   public:
    explicit Builder(size_t entries);
    void add(std::span<const int32_t> differences);
    // Fails unless exactly `entries` differences were added.
    PackedTable finish();

   private:
    void packBlock(const uint32_t* block);
    std::vector<uint32_t> pending_;  // entries of the block being filled
    uint32_t value_ = 0;
    size_t entries_;
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

// MUFU.TANH on f32 (tests/gpu_truth/probes/mufu_explore_probe.cu): the
// result of an input in binade 2^e, e in [-8, 2], depends only on the top
// tanhFractionBits(e) bits of its fraction; TanhF32 holds those results
// binade after binade, from 2^-8 up.
constexpr int kTanhFirstBinade = -8;
constexpr int kTanhLastBinade = 2;
constexpr int tanhFractionBits(int e) { return e <= -6 ? 17 : e <= -4 ? 18 : e <= -1 ? 19 : e == 1 ? 21 : 20; }
constexpr uint32_t tanhBinadeOffset(int e) {
  uint32_t offset = 0;
  for (int b = kTanhFirstBinade; b < e; ++b) offset += 1u << tanhFractionBits(b);
  return offset;
}
constexpr size_t kTanhF32Entries = tanhBinadeOffset(kTanhLastBinade + 1);
static_assert(kTanhF32Entries == 6684672, "the table read on the H100");

// Entry `index` of table `id`. Each table is decoded on its first use
// (thread-safe) and kept read-only: the f32 rcp, sqrt, rsqrt and ex2 as
// NearTables (mufu_near_table.h), the others packed.
uint32_t entry(TableId id, uint32_t index);

}  // namespace ptxsim::sim::semantics::mufu
