#pragma once

// The 128-byte tensor map (CUtensorMap) as ptxsim's driver writes it
// (cuTensorMapEncodeTiled/Im2col) and as the simulator's tensor memory
// accelerator (cp.async.bulk.tensor) will read it: NVIDIA's layout is not
// published, and programs treat the object as opaque, so ptxsim keeps its
// own, marked with a magic number so a kernel handed anything else can say
// so.

#include <cstdint>
#include <cstring>
#include <optional>

namespace ptxsim::sim {

inline constexpr uint32_t kTensorMapMagic = 0x544d4150u;  // "PAMT" in memory
inline constexpr unsigned kTensorMapMaxRank = 5;

enum class TensorMapKind : uint8_t { Tiled = 1, Im2col = 2 };

struct TensorMapDescriptor {
  uint32_t magic = kTensorMapMagic;
  TensorMapKind kind = TensorMapKind::Tiled;
  uint8_t dataType = 0;     // CUtensorMapDataType
  uint8_t rank = 0;         // 1..5
  uint8_t interleave = 0;   // CUtensorMapInterleave
  uint8_t swizzle = 0;      // CUtensorMapSwizzle
  uint8_t l2Promotion = 0;  // CUtensorMapL2promotion
  uint8_t oobFill = 0;      // CUtensorMapFloatOOBfill
  uint8_t elementBits = 0;  // of dataType (4, 6, 8, 16, 32, 64)
  uint64_t globalAddress = 0;
  uint32_t globalDimMinusOne[kTensorMapMaxRank] = {};  // dims are 1..2^32
  uint8_t boxDimMinusOne[kTensorMapMaxRank] = {};      // tiled: 1..256 elements
  uint8_t elementStrides[kTensorMapMaxRank] = {};      // 1..8
  uint16_t channelsPerPixel = 0;                       // im2col: 1..256
  uint16_t pixelsPerColumn = 0;                        // im2col: 1..1024
  int16_t pixelBoxLowerCorner[kTensorMapMaxRank - 2] = {};
  int16_t pixelBoxUpperCorner[kTensorMapMaxRank - 2] = {};
  uint64_t globalStrides[kTensorMapMaxRank - 1] = {};  // bytes, of dimensions 1..rank-1
};
static_assert(sizeof(TensorMapDescriptor) <= 128, "a CUtensorMap holds 128 bytes");

inline void writeTensorMap(const TensorMapDescriptor& d, void* map128) {
  std::memset(map128, 0, 128);
  std::memcpy(map128, &d, sizeof d);
}

// Null when the 128 bytes are not a tensor map ptxsim wrote.
inline std::optional<TensorMapDescriptor> readTensorMap(const void* map128) {
  TensorMapDescriptor d;
  std::memcpy(&d, map128, sizeof d);
  if (d.magic != kTensorMapMagic || d.rank == 0 || d.rank > kTensorMapMaxRank) return std::nullopt;
  return d;
}

}  // namespace ptxsim::sim
