#pragma once

// Hexadecimal text for messages: addresses and values ("0x7200001000"),
// and lane masks at their full 32-bit width ("0x0000ffff").

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ptxsim::sim {

inline std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

inline std::string hex32(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

}  // namespace ptxsim::sim
