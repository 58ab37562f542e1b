#pragma once

// Reading the fat binaries nvcc embeds in programs (.nv_fatbin): containers
// (magic 0xBA55ED50) of entries, each a PTX text or an ELF cubin for one
// architecture, the PTX usually zstd-compressed (CUDA 13's default).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxsim::runtime {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
// The wrapper nvcc passes to __cudaRegisterFatBinary (__fatBinC_Wrapper_t).
inline constexpr uint32_t kFatbinWrapperMagic = 0x466243B1u;

enum class FatbinEntryKind : uint16_t { Ptx = 1, Cubin = 2 };

struct FatbinEntry {
  FatbinEntryKind kind = FatbinEntryKind::Ptx;
  uint32_t arch = 0;  // 90 for sm_90 / compute_90
  std::string ptx;    // PTX entries: the text, decompressed
  std::string image;  // cubin entries: the ELF image, decompressed
};

struct Fatbin {
  std::vector<FatbinEntry> entries;
  uint64_t bytes = 0;  // the container's total size, header included
  bool hasPtx() const;
  // The PTX entry for the highest architecture not above `sm`; null if none.
  const FatbinEntry* bestPtx(uint32_t sm) const;
  // The cubin for the highest architecture not above `sm`; null if none.
  const FatbinEntry* bestCubin(uint32_t sm) const;
  std::string architectures() const;  // "sm_90 (cubin), compute_90 (PTX)"
};

// Reads one container at `data`. Sets `error` and returns nullopt for a bad
// magic, a truncated entry or a payload that cannot be decompressed (with
// what and where).
std::optional<Fatbin> readFatbin(const uint8_t* data, uint64_t available, std::string& error);

}  // namespace ptxsim::runtime
