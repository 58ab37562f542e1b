#include "ptxsim/runtime/fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace ptxsim::runtime {

namespace {

// Entry header fields (little endian), as nvcc 12/13 write them.
constexpr uint32_t kEntryKindOffset = 0;           // u16
constexpr uint32_t kEntryHeaderSizeOffset = 4;     // u32
constexpr uint32_t kEntryPayloadSizeOffset = 8;    // u64, padded
constexpr uint32_t kEntryCompressedOffset = 16;    // u32, bytes of compressed data (0: not compressed)
constexpr uint32_t kEntryArchOffset = 28;          // u32
constexpr uint32_t kEntryFlagsOffset = 40;         // u32
constexpr uint32_t kEntryUncompressedOffset = 56;  // u64
constexpr uint32_t kFlagZstd = 0x8000;
constexpr uint32_t kFlagLegacyCompression = 0x2000;

template <typename T>
T read(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// An entry's payload, decompressed as its flags say.
bool decompressPayload(const uint8_t* entry, uint32_t entryHeader, uint64_t entrySize, std::string& out,
                       std::string& error) {
  const uint8_t* bytes = entry + entryHeader;
  uint32_t flags = read<uint32_t>(entry + kEntryFlagsOffset);
  if ((flags & (kFlagZstd | kFlagLegacyCompression)) == 0) {
    out.assign(reinterpret_cast<const char*>(bytes), entrySize);
    return true;
  }
  uint32_t compressed = read<uint32_t>(entry + kEntryCompressedOffset);
  uint64_t size = read<uint64_t>(entry + kEntryUncompressedOffset);
  if (compressed == 0 || compressed > entrySize) compressed = static_cast<uint32_t>(entrySize);
  out.resize(size);
  if ((flags & kFlagZstd) != 0) {
    size_t got = ZSTD_decompress(out.data(), size, bytes, compressed);
    if (ZSTD_isError(got)) {
      error = ZSTD_getErrorName(got);
      return false;
    }
    out.resize(got);
    return true;
  }
  // CUDA 11/12 toolkits compressed with an LZ4 block (no frame).
  int got = LZ4_decompress_safe(reinterpret_cast<const char*>(bytes), out.data(),
                                static_cast<int>(compressed), static_cast<int>(size));
  if (got < 0) {
    error = "LZ4-compressed, damaged";
    return false;
  }
  out.resize(static_cast<size_t>(got));
  return true;
}

}  // namespace

bool Fatbin::hasPtx() const {
  return std::any_of(entries.begin(), entries.end(),
                     [](const FatbinEntry& e) { return e.kind == FatbinEntryKind::Ptx; });
}

const FatbinEntry* Fatbin::bestPtx(uint32_t sm) const {
  const FatbinEntry* best = nullptr;
  for (const FatbinEntry& e : entries) {
    if (e.kind != FatbinEntryKind::Ptx || e.arch > sm) continue;
    if (best == nullptr || e.arch > best->arch) best = &e;
  }
  return best;
}

const FatbinEntry* Fatbin::bestCubin(uint32_t sm) const {
  const FatbinEntry* best = nullptr;
  for (const FatbinEntry& e : entries) {
    if (e.kind == FatbinEntryKind::Cubin && e.arch <= sm && (best == nullptr || e.arch > best->arch))
      best = &e;
  }
  return best;
}

std::string Fatbin::architectures() const {
  std::string text;
  for (const FatbinEntry& e : entries) {
    if (!text.empty()) text += ", ";
    text += e.kind == FatbinEntryKind::Ptx ? "compute_" + std::to_string(e.arch) + " (PTX)"
                                           : "sm_" + std::to_string(e.arch) + " (cubin)";
  }
  return text.empty() ? "nothing" : text;
}

std::optional<Fatbin> readFatbin(const uint8_t* data, uint64_t available, std::string& error) {
  if (available < 16 || read<uint32_t>(data) != kFatbinMagic) {
    error = "not a fat binary (bad magic)";
    return std::nullopt;
  }
  uint16_t headerSize = read<uint16_t>(data + 6);
  uint64_t payload = read<uint64_t>(data + 8);
  if (headerSize < 16 || headerSize + payload > available) {
    error = "truncated fat binary container";
    return std::nullopt;
  }
  Fatbin fatbin;
  fatbin.bytes = headerSize + payload;
  uint64_t offset = headerSize;
  while (offset + 64 <= fatbin.bytes) {
    const uint8_t* entry = data + offset;
    uint32_t entryHeader = read<uint32_t>(entry + kEntryHeaderSizeOffset);
    uint64_t entrySize = read<uint64_t>(entry + kEntryPayloadSizeOffset);
    if (entryHeader < 64 || offset + entryHeader + entrySize > fatbin.bytes) {
      error = "truncated fat binary entry at offset " + std::to_string(offset);
      return std::nullopt;
    }
    FatbinEntry e;
    e.kind = static_cast<FatbinEntryKind>(read<uint16_t>(entry + kEntryKindOffset));
    e.arch = read<uint32_t>(entry + kEntryArchOffset);
    std::string& content = e.kind == FatbinEntryKind::Ptx ? e.ptx : e.image;
    if (!decompressPayload(entry, entryHeader, entrySize, content, error)) {
      error = "cannot decompress the " +
              (e.kind == FatbinEntryKind::Ptx ? "compute_" + std::to_string(e.arch) + " PTX"
                                              : "sm_" + std::to_string(e.arch) + " cubin") +
              ": " + error;
      return std::nullopt;
    }
    // PTX payloads are padded with NULs.
    if (e.kind == FatbinEntryKind::Ptx) {
      while (!e.ptx.empty() && e.ptx.back() == '\0') e.ptx.pop_back();
    }
    fatbin.entries.push_back(std::move(e));
    offset += entryHeader + entrySize;
  }
  return fatbin;
}

}  // namespace ptxsim::runtime
