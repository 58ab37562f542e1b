#pragma once

// What the sparse wgmma programs (wgmma_sparse.cu, and the tf32 one
// waiting in tests/gpu_truth/pending) share: their cases' layout in shared
// memory (A at 0, B at 16 KiB), the bits of powers of two in each type,
// and where B's elements go.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "wgmma_probe.h"

namespace wgmma_sparse_probe {

using namespace wgmma_probe;

constexpr unsigned kAOffset = 0, kBOffset = 16384;

// The bits of the value 2^e (e >= 0, small) and of 1 in each input type.
inline uint32_t powerOfTwo(T t, unsigned e) {
  switch (t) {
    case T::F16: return (15 + e) << 10;
    case T::BF16: return (127 + e) << 7;
    case T::TF32: return (127 + e) << 23;
    case T::E4M3: return (7 + e) << 3;
    case T::E5M2: return (15 + e) << 2;
    default: return 1u << e;
  }
}

// A case of m64nNk(2K) with the 128 threads' metadata `meta`: A K-major
// (no swizzle), B K-major with K of the sparse shape (twice the dense
// one): 64 bytes a row, core matrices 128 bytes apart along K, 8 rows 512
// bytes apart. Every D word is printed.
inline Case sparseCase(std::string name, T d, T a, unsigned n, unsigned selector, std::vector<uint32_t> meta) {
  Case k;
  k.name = std::move(name);
  k.d = d, k.a = a, k.b = a, k.n = n;
  k.sparse = true;
  k.sparseSelector = selector;
  k.descA = descriptor(kAOffset, 128, 256, 0);
  k.descB = descriptor(kBOffset, 128, 512, 0);
  k.image.assign(kBOffset + 256 * 64, 0);
  k.c.assign(128 * dRegisters(k), 0);
  k.meta = std::move(meta);
  k.printAll = true;
  return k;
}

// B element (n, k) of the sparse shape's K in the layout of sparseCase.
inline void putB(Case& k, unsigned n, unsigned kk, uint32_t v) {
  unsigned bytes = bitsOf(k.b) / 8, kb = kk * bytes;
  putElement(k.image, kBOffset + (n / 8) * 512 + (kb / 16) * 128 + (n % 8) * 16 + kb % 16, k.b, v);
}

}  // namespace wgmma_sparse_probe
