#pragma once

// Shared by the timing-accuracy kernel suite: deterministic inputs, a hash
// of an output buffer that is bit-identical on every correct run, a float
// comparison against the host reference, and one report line per kernel.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../../cuda/programs/check.h"

// A fixed 32-bit linear congruential generator (Numerical Recipes' constants):
// the same inputs on every machine, unlike rand().
struct Lcg {
  uint32_t state;
  explicit Lcg(uint32_t seed) : state(seed) {}
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state;
  }
  // The high bits are the well-mixed ones of an LCG.
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>((uint64_t(next()) * bound) >> 32); }
  float unit() { return float(next() >> 8) * (1.0f / 16777216.0f); }  // in [0, 1)
  float signedUnit() { return 2.0f * unit() - 1.0f; }                 // in [-1, 1)
};

// FNV-1a over the bytes of a buffer: the checksum each report line prints.
template <class T>
uint64_t hashOf(const std::vector<T>& values) {
  uint64_t hash = 1469598103934665603ull;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < values.size() * sizeof(T); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

// Float results differ from the host's in rounding (FMA contraction, order of
// sums, fast math functions); they match when within a relative tolerance.
inline bool allClose(const std::vector<float>& got, const std::vector<float>& want, float relative,
                     float absolute = 1e-5f) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(std::fabs(got[i] - want[i]) <= absolute + relative * std::fabs(want[i]))) {
      std::printf("  first difference at %zu: got %.9g, want %.9g\n", i, got[i], want[i]);
      return false;
    }
  }
  return true;
}

template <class T>
bool allEqual(const std::vector<T>& got, const std::vector<T>& want) {
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      std::printf("  first difference at %zu\n", i);
      return false;
    }
  }
  return got.size() == want.size();
}

// One line per kernel: its name, the output's hash, OK or MISMATCH.
struct Report {
  bool allMatch = true;
  void line(const char* kernel, uint64_t hash, bool match) {
    std::printf("%-20s %016llx %s\n", kernel, static_cast<unsigned long long>(hash),
                match ? "OK" : "MISMATCH");
    allMatch = allMatch && match;
  }
};

// Device buffers of a test, freed when it returns (also on a failed CHECK).
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  ~DeviceBuffer() { cudaFree(ptr); }
  cudaError_t alloc(size_t n) {
    count = n;
    return cudaMalloc(&ptr, n * sizeof(T));
  }
  cudaError_t upload(const std::vector<T>& host) {
    count = host.size();
    cudaError_t e = cudaMalloc(&ptr, count * sizeof(T));
    return e != cudaSuccess ? e : cudaMemcpy(ptr, host.data(), count * sizeof(T), cudaMemcpyHostToDevice);
  }
  cudaError_t download(std::vector<T>& host) const {
    host.resize(count);
    return cudaMemcpy(host.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost);
  }
};

inline std::vector<float> randomFloats(size_t n, uint32_t seed) {
  Lcg lcg(seed);
  std::vector<float> v(n);
  for (float& x : v) x = lcg.signedUnit();
  return v;
}
