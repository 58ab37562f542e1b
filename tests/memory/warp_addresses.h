#pragma once

// Test support: one warp's per-lane addresses.

#include <array>
#include <cstdint>

namespace ptxsim::memory::test {

inline constexpr uint32_t kAllLanes = 0xffffffffu;

// Lane i at base + i * strideBytes.
inline std::array<uint64_t, 32> strided(uint64_t strideBytes, uint64_t base = 0) {
  std::array<uint64_t, 32> a{};
  for (uint32_t i = 0; i < 32; ++i) a[i] = base + i * strideBytes;
  return a;
}

}  // namespace ptxsim::memory::test
