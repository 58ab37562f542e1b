#include "mufu_table.h"

#include <zstd.h>

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

// The compressed tables, linked in by mufu_data.S (configured from
// mufu_data.S.in with the path of sim/data/mufu).
extern "C" {
#define PTXSIM_MUFU_TABLE(name) extern const unsigned char ptxsim_mufu_##name##_begin[], ptxsim_mufu_##name##_end[];
PTXSIM_MUFU_TABLE(ex2_pos)
PTXSIM_MUFU_TABLE(ex2_neg)
PTXSIM_MUFU_TABLE(lg2_e0)
PTXSIM_MUFU_TABLE(lg2_em1)
PTXSIM_MUFU_TABLE(rcp)
PTXSIM_MUFU_TABLE(sqrt_e0)
PTXSIM_MUFU_TABLE(sqrt_e1)
PTXSIM_MUFU_TABLE(rsqrt_e0)
PTXSIM_MUFU_TABLE(rsqrt_e1)
#undef PTXSIM_MUFU_TABLE
}

namespace ptxsim::sim::semantics::mufu {

PackedTable PackedTable::fromDifferences(std::span<const int32_t> differences) {
  if (differences.size() != kEntries) throw std::runtime_error("MUFU table: not 2^23 entries");
  std::vector<uint32_t> entries(kEntries);
  uint32_t value = 0;
  for (size_t i = 0; i < kEntries; ++i) entries[i] = value += static_cast<uint32_t>(differences[i]);
  PackedTable t;
  size_t blocks = kEntries >> kBlockBits;
  t.base_.resize(blocks);
  t.whole_.assign(blocks, kPacked);
  t.offsets_.resize(kEntries);
  for (size_t b = 0; b < blocks; ++b) {
    const uint32_t* block = &entries[b << kBlockBits];
    uint32_t low = block[0], high = block[0];
    for (uint32_t k = 1; k <= kBlockMask; ++k) {
      low = std::min(low, block[k]);
      high = std::max(high, block[k]);
    }
    t.base_[b] = low;
    if (high - low > UINT8_MAX) {
      t.whole_[b] = static_cast<uint32_t>(t.raw_.size() >> kBlockBits);
      t.raw_.insert(t.raw_.end(), block, block + kBlockMask + 1);
      continue;
    }
    for (uint32_t k = 0; k <= kBlockMask; ++k) t.offsets_[(b << kBlockBits) | k] = static_cast<uint8_t>(block[k] - low);
  }
  return t;
}

namespace {

struct Embedded {
  const char* name;
  const unsigned char* begin;
  const unsigned char* end;
};

Embedded embedded(TableId id) {
  switch (id) {
#define PTXSIM_MUFU_CASE(id, name) \
  case TableId::id:                \
    return {#name, ptxsim_mufu_##name##_begin, ptxsim_mufu_##name##_end};
    PTXSIM_MUFU_CASE(Ex2Pos, ex2_pos)
    PTXSIM_MUFU_CASE(Ex2Neg, ex2_neg)
    PTXSIM_MUFU_CASE(Lg2E0, lg2_e0)
    PTXSIM_MUFU_CASE(Lg2Em1, lg2_em1)
    PTXSIM_MUFU_CASE(Rcp, rcp)
    PTXSIM_MUFU_CASE(SqrtE0, sqrt_e0)
    PTXSIM_MUFU_CASE(SqrtE1, sqrt_e1)
    PTXSIM_MUFU_CASE(RsqrtE0, rsqrt_e0)
    PTXSIM_MUFU_CASE(RsqrtE1, rsqrt_e1)
#undef PTXSIM_MUFU_CASE
    case TableId::Count:
      break;
  }
  throw std::logic_error("MUFU table: unknown table");
}

PackedTable decode(TableId id) {
  Embedded e = embedded(id);
  std::vector<int32_t> differences(PackedTable::kEntries);
  size_t bytes = differences.size() * sizeof(int32_t);
  // Compressed with --long=27, so the decoder must allow that window.
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  ZSTD_DCtx_setParameter(context.get(), ZSTD_d_windowLogMax, 27);
  size_t got = ZSTD_decompressDCtx(context.get(), differences.data(), bytes, e.begin, static_cast<size_t>(e.end - e.begin));
  if (ZSTD_isError(got) || got != bytes)
    throw std::runtime_error(std::string("MUFU table ") + e.name + ": corrupt embedded data");
  return PackedTable::fromDifferences(differences);
}

}  // namespace

const PackedTable& table(TableId id) {
  // Read-only data decoded once per process, like a ROM; every simulated
  // GPU shares it, so it is not part of any one simulator's state.
  static std::array<std::once_flag, static_cast<size_t>(TableId::Count)> once;
  static std::array<std::unique_ptr<PackedTable>, static_cast<size_t>(TableId::Count)> tables;
  size_t i = static_cast<size_t>(id);
  std::call_once(once[i], [&] { tables[i] = std::make_unique<PackedTable>(decode(id)); });
  return *tables[i];
}

}  // namespace ptxsim::sim::semantics::mufu
