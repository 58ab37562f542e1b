#pragma once

// Warp-wide register rows and the one lane loop every instruction runs
// through. Registers are structure of arrays: a row holds one register for
// the 32 lanes, each lane's value in a 64-bit slot with the value's bits at
// the bottom (zero-extended, whatever its type).

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ptxsim::sim::exec {

inline constexpr unsigned kWarpSize = 32;
using LaneMask = uint32_t;
inline constexpr LaneMask kFullMask = 0xffffffffu;
using Row = uint64_t[kWarpSize];

// Calls f(lane) for each lane set in mask, in lane order. A full mask takes
// a loop the compiler can unroll and vectorise.
template <typename F>
inline void forLanes(LaneMask mask, F&& f) {
  if (mask == kFullMask) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) f(lane);
    return;
  }
  while (mask != 0) {
    unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
    mask &= mask - 1;
    f(lane);
  }
}

// A register slot's bits as type T (integers truncate, floats reinterpret
// the low bits) and back (zero-extended).
template <typename T>
inline T fromBits(uint64_t bits) {
  if constexpr (std::is_same_v<T, bool>) {
    return bits != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4) {
      return std::bit_cast<T>(static_cast<uint32_t>(bits));
    } else {
      return std::bit_cast<T>(bits);
    }
  } else {
    return static_cast<T>(bits);
  }
}

template <typename T>
inline uint64_t toBits(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? 1 : 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4) {
      return std::bit_cast<uint32_t>(value);
    } else {
      return std::bit_cast<uint64_t>(value);
    }
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<uint64_t>(static_cast<U>(value));
  }
}

// The lanes of a predicate row that are true.
inline LaneMask predicateMask(const uint64_t* row) {
  LaneMask mask = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) mask |= static_cast<LaneMask>(row[lane] != 0) << lane;
  return mask;
}

}  // namespace ptxsim::sim::exec
