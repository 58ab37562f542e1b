#pragma once

#include <cstdint>

namespace ptxsim::sim {

// `value` rounded up to a multiple of `alignment` (0 and 1: unchanged).
inline uint64_t alignUp(uint64_t value, uint64_t alignment) {
  if (alignment <= 1) return value;
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace ptxsim::sim
