#pragma once

// bitsHash(values, count): FNV-1a over the bytes of `count` values, to
// print a whole output's bits in one number that must equal the GPU's.

#include <cstddef>

template <typename T>
unsigned long long bitsHash(const T* values, size_t count) {
  unsigned long long h = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(values);
  for (size_t i = 0; i < count * sizeof(T); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}
