#include "mufu_table.h"

#include "mufu_near_table.h"

#include <zstd.h>


#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <atomic>
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
PTXSIM_MUFU_TABLE(sin_half)
PTXSIM_MUFU_TABLE(tanh_f32)
PTXSIM_MUFU_TABLE(rcp64h)
PTXSIM_MUFU_TABLE(rsqrt64h_e0)
PTXSIM_MUFU_TABLE(rsqrt64h_e1)
PTXSIM_MUFU_TABLE(ex2_f16)
PTXSIM_MUFU_TABLE(ex2_bf16)
PTXSIM_MUFU_TABLE(tanh_f16)
PTXSIM_MUFU_TABLE(tanh_bf16)
#undef PTXSIM_MUFU_TABLE
}

namespace ptxsim::sim::semantics::mufu {

PackedTable::Builder::Builder(size_t entries) : entries_(entries), table_(std::make_unique<PackedTable>()) {
  table_->blocks_.resize((entries + kBlockMask) >> kBlockBits);
  pending_.reserve(kBlockMask + 1);
}

void PackedTable::Builder::add(std::span<const int32_t> differences) {
  if (added_ + differences.size() > entries_) throw std::runtime_error("MUFU table: more entries than the table has");
  for (int32_t d : differences) {
    pending_.push_back(value_ += static_cast<uint32_t>(d));
    if (pending_.size() == kBlockMask + 1) {
      packBlock(pending_.data());
      pending_.clear();
    }
  }
  added_ += differences.size();
}

void PackedTable::Builder::packBlock(const uint32_t* block) {
  size_t b = blocksPacked_++;
  PackedTable& t = *table_;
  uint32_t low = block[0], high = block[0];
  for (uint32_t k = 1; k <= kBlockMask; ++k) {
    low = std::min(low, block[k]);
    high = std::max(high, block[k]);
  }
  Block& packed = t.blocks_[b];
  packed.base = low;
  if (high - low > UINT8_MAX) {
    packed.whole = static_cast<uint32_t>(t.raw_.size() >> kBlockBits);
    t.raw_.insert(t.raw_.end(), block, block + kBlockMask + 1);
    return;
  }
  for (uint32_t k = 0; k <= kBlockMask; ++k) packed.offsets[k] = static_cast<uint8_t>(block[k] - low);
}

PackedTable PackedTable::Builder::finish() {
  if (added_ != entries_) throw std::runtime_error("MUFU table: fewer entries than the table has");
  if (!pending_.empty()) {  // a last, partial block: padded with its last entry, never read
    pending_.resize(kBlockMask + 1, pending_.back());
    packBlock(pending_.data());
    pending_.clear();
  }
  return std::move(*table_);
}

PackedTable PackedTable::fromDifferences(std::span<const int32_t> differences) {
  Builder builder(differences.size());
  builder.add(differences);
  return builder.finish();
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
    PTXSIM_MUFU_CASE(SinHalf, sin_half)
    PTXSIM_MUFU_CASE(TanhF32, tanh_f32)
    PTXSIM_MUFU_CASE(Rcp64H, rcp64h)
    PTXSIM_MUFU_CASE(Rsqrt64HE0, rsqrt64h_e0)
    PTXSIM_MUFU_CASE(Rsqrt64HE1, rsqrt64h_e1)
    PTXSIM_MUFU_CASE(Ex2F16, ex2_f16)
    PTXSIM_MUFU_CASE(Ex2Bf16, ex2_bf16)
    PTXSIM_MUFU_CASE(TanhF16, tanh_f16)
    PTXSIM_MUFU_CASE(TanhBf16, tanh_bf16)
#undef PTXSIM_MUFU_CASE
    case TableId::Count:
      break;
  }
  throw std::logic_error("MUFU table: unknown table");
}

// Decompresses a piece at a time, decoding the byte-coded differences
// (sim/data/mufu/encode_diff8.py) into the builder: no full copy of the
// table is ever made (fresh pages cost more than the decoding).
template <typename Builder>
auto decode(TableId id, Builder builder) {
  Embedded e = embedded(id);
  auto corrupt = [&] { return std::runtime_error(std::string("MUFU table ") + e.name + ": corrupt embedded data"); };
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  std::vector<uint8_t> bytes(1u << 16);
  std::vector<int32_t> differences;
  differences.reserve(bytes.size());
  ZSTD_inBuffer in{e.begin, static_cast<size_t>(e.end - e.begin), 0};
  size_t carried = 0;  // bytes of an escaped difference split between two pieces
  while (true) {
    ZSTD_outBuffer out{bytes.data() + carried, bytes.size() - carried, 0};
    size_t status = ZSTD_decompressStream(context.get(), &out, &in);
    if (ZSTD_isError(status)) throw corrupt();
    size_t end = carried + out.pos, at = 0;
    differences.clear();
    while (at < end) {
      if (bytes[at] != 0x80) {
        differences.push_back(static_cast<int8_t>(bytes[at++]));
      } else if (end - at >= 5) {
        int32_t d;
        std::memcpy(&d, &bytes[at + 1], sizeof d);
        differences.push_back(d);
        at += 5;
      } else {
        break;  // the rest of it comes with the next piece
      }
    }
    builder.add(differences);
    carried = end - at;
    std::memmove(bytes.data(), bytes.data() + at, carried);
    if (status == 0 && in.pos == in.size) break;
    if (out.pos == 0 && in.pos == in.size) throw corrupt();
  }
  if (carried != 0) throw corrupt();
  return builder.finish();
}

// The references NearTables are held against: the correctly rounded
// function of each table's inputs, in double arithmetic.
double oneDotM(uint32_t m) { return 1.0 + m * 0x1p-23; }
uint32_t bitsOf(double value) { return std::bit_cast<uint32_t>(static_cast<float>(value)); }
uint32_t rcpOf(uint32_t m) { return bitsOf(1.0 / oneDotM(m)); }
uint32_t sqrtOf(uint32_t m) { return bitsOf(std::sqrt(oneDotM(m))); }
uint32_t sqrtOfTwice(uint32_t m) { return bitsOf(std::sqrt(2 * oneDotM(m))); }
uint32_t rsqrtOf(uint32_t m) { return bitsOf(1.0 / std::sqrt(oneDotM(m))); }
uint32_t rsqrtOfTwice(uint32_t m) { return bitsOf(1.0 / std::sqrt(2 * oneDotM(m))); }
uint32_t exp2Of(uint32_t i) { return bitsOf(std::exp2(i * 0x1p-23)); }
uint32_t exp2OfMinus(uint32_t i) { return bitsOf(std::exp2(-(i * 0x1p-23))); }

NearTable::Reference referenceOf(TableId id) {
  switch (id) {
    case TableId::Ex2Pos: return &exp2Of;
    case TableId::Ex2Neg: return &exp2OfMinus;
    case TableId::Rcp: return &rcpOf;
    case TableId::SqrtE0: return &sqrtOf;
    case TableId::SqrtE1: return &sqrtOfTwice;
    case TableId::RsqrtE0: return &rsqrtOf;
    case TableId::RsqrtE1: return &rsqrtOfTwice;
    default: return nullptr;  // lg2 and the others: packed
  }
}

size_t entriesOf(TableId id) {
  switch (id) {
    case TableId::SinHalf: return size_t{1} << 24;
    case TableId::TanhF32: return kTanhF32Entries;
    case TableId::Rcp64H:
    case TableId::Rsqrt64HE0:
    case TableId::Rsqrt64HE1: return size_t{1} << 20;
    case TableId::Ex2F16:
    case TableId::Ex2Bf16:
    case TableId::TanhF16:
    case TableId::TanhBf16: return size_t{1} << 16;
    default: return size_t{1} << 23;
  }
}

struct LoadedTable {
  std::unique_ptr<NearTable> near;
  std::unique_ptr<PackedTable> packed;
};

}  // namespace

uint32_t entry(TableId id, uint32_t index) {
  // Read-only data decoded once per process, like a ROM; every simulated
  // GPU shares it, so it is not part of any one simulator's state. The
  // ready pointer makes the common case one atomic load: every rcp, sqrt,
  // ex2 and lg2 of every lane comes here.
  static std::array<std::atomic<const LoadedTable*>, static_cast<size_t>(TableId::Count)> ready{};
  static std::array<LoadedTable, static_cast<size_t>(TableId::Count)> tables;
  static std::mutex decoding;
  size_t i = static_cast<size_t>(id);
  const LoadedTable* t = ready[i].load(std::memory_order_acquire);
  if (t == nullptr) {
    std::lock_guard lock(decoding);
    LoadedTable& loaded = tables[i];
    if (loaded.near == nullptr && loaded.packed == nullptr) {
      if (NearTable::Reference reference = referenceOf(id)) {
        loaded.near = std::make_unique<NearTable>(decode(id, NearTable::Builder(reference)));
      } else {
        loaded.packed = std::make_unique<PackedTable>(decode(id, PackedTable::Builder(entriesOf(id))));
      }
    }
    t = &loaded;
    ready[i].store(t, std::memory_order_release);
  }
  return t->near != nullptr ? (*t->near)[index] : (*t->packed)[index];
}

}  // namespace ptxsim::sim::semantics::mufu
