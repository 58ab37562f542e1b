// sin/cos.approx.f32 on the H100 read in full. sm_90 compiles them to
// FMUL.RZ by 1/2pi (0x3e22f983), then MUFU.SIN/COS of the revolutions r.
// Exploration (mufu_explore_probe.cu) found the unit reads frac(r) as a
// fixed-point number of 25 fraction bits, truncated. This probe fills the
// tables T[q], q = trunc(frac(r) 2^25), from every finite x >= 0, checks
// the rule against all 2^32 inputs (sin odd, cos even; NaN and infinities
// give the canonical NaN), measures the tables' symmetries, prints the
// special values of rcp/rsqrt.approx.ftz.f64, then merges them into one table of
// half a period, H[q] = sin(2 pi q 2^-25) for q < 2^24 (the unit's
// sin(t + pi) = -sin t and cos t = sin(t + pi/2) hold for every entry),
// checks the simulator's rule from H alone against all 2^32 inputs, and
// writes H to DIR/sin_half.diff8 as sim/data/mufu stores tables.
// Usage: mufu_trig_probe DIR
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "exit_on_error.h"

typedef unsigned long long u64;
constexpr int kFractionBits = 25;
constexpr uint32_t kEntries = 1u << kFractionBits;
constexpr uint32_t kEmpty = 0xfefefefeu;  // what cudaMemset(0xfe) writes

__device__ float sinA(float x) { float r; asm volatile("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float cosA(float x) { float r; asm volatile("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ double rcp64(double x) { double r; asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
__device__ double rsq64(double x) { double r; asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }

__device__ uint32_t entryIndex(float x) {
  const double r = double(__fmul_rz(x, __int_as_float(0x3e22f983)));
  return uint32_t((r - floor(r)) * double(kEntries));
}

template <bool kCos>
__global__ void fill(uint32_t* table) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < 0x7f800000ull; i += (u64)gridDim.x * blockDim.x) {
    const float x = __uint_as_float(uint32_t(i));
    atomicCAS(&table[entryIndex(x)], kEmpty, __float_as_uint(kCos ? cosA(x) : sinA(x)));
  }
}

template <bool kCos>
__global__ void check(const uint32_t* table, u64* bad, uint32_t* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 32); i += (u64)gridDim.x * blockDim.x) {
    const uint32_t u = uint32_t(i), a = u & 0x7fffffffu;
    uint32_t want;
    if (a >= 0x7f800000u) want = 0x7fffffffu;
    else {
      want = table[entryIndex(__uint_as_float(a))];
      if (!kCos && (u >> 31)) want ^= 0x80000000u;
    }
    const uint32_t y = __float_as_uint(kCos ? cosA(__uint_as_float(u)) : sinA(__uint_as_float(u)));
    if (y != want && atomicAdd(bad, 1ull) < 4) { uint32_t k = atomicAdd(&ex[15], 1) % 4; ex[2 * k] = u; ex[2 * k + 1] = y; }
  }
}

// Symmetries among reached entries: sin(pi - t) = sin t, sin(t + pi) = -sin t,
// cos t = sin(t + pi/2).
__global__ void symmetry(const uint32_t* s, const uint32_t* c, u64* counts) {
  for (uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < kEntries; q += gridDim.x * blockDim.x) {
    const uint32_t half = kEntries / 2, quarter = kEntries / 4;
    if (s[q] != kEmpty && q > 0 && q < half && s[half - q] != kEmpty) {
      atomicAdd(&counts[0], 1ull);
      if (s[half - q] != s[q]) atomicAdd(&counts[1], 1ull);
    }
    if (s[q] != kEmpty && s[(q + half) % kEntries] != kEmpty) {
      atomicAdd(&counts[2], 1ull);
      if (s[(q + half) % kEntries] != (s[q] ^ 0x80000000u)) atomicAdd(&counts[3], 1ull);
    }
    if (c[q] != kEmpty && s[(q + quarter) % kEntries] != kEmpty) {
      atomicAdd(&counts[4], 1ull);
      if (c[q] != s[(q + quarter) % kEntries]) atomicAdd(&counts[5], 1ull);
    }
    if (s[q] == kEmpty) atomicAdd(&counts[6], 1ull);
    if (c[q] == kEmpty) atomicAdd(&counts[7], 1ull);
  }
}

// The half-period table H[q] = sin(2 pi q 2^-25), q < 2^24, from every
// view that reached an entry: sin q, -sin(q + 2^24), cos(q - 2^23),
// -cos(q + 2^23). Counts entries the views disagree on and entries no
// view reached.
__global__ void mergeHalf(const uint32_t* s, const uint32_t* c, uint32_t* half, u64* counts) {
  const uint32_t mask = kEntries - 1, sign = 0x80000000u;
  for (uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < kEntries / 2; q += gridDim.x * blockDim.x) {
    const uint32_t views[4] = {s[q], s[q + kEntries / 2], c[(q - kEntries / 4) & mask], c[(q + kEntries / 4) & mask]};
    const uint32_t flips[4] = {0, sign, 0, sign};
    uint32_t value = kEmpty;
    for (int v = 0; v < 4; ++v) {
      if (views[v] == kEmpty) continue;
      const uint32_t candidate = views[v] ^ flips[v];
      if (value == kEmpty) value = candidate;
      else if (candidate != value) atomicAdd(&counts[0], 1ull);
    }
    if (value == kEmpty) atomicAdd(&counts[1], 1ull);
    half[q] = value;
  }
}
// The simulator's rule from the half table alone, on every input.
__device__ uint32_t sinOfTurns(const uint32_t* half, uint32_t q) {
  return q < kEntries / 2 ? half[q] : half[q - kEntries / 2] ^ 0x80000000u;
}
__global__ void checkHalf(const uint32_t* half, u64* bad, uint32_t* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 32); i += (u64)gridDim.x * blockDim.x) {
    const uint32_t u = uint32_t(i), a = u & 0x7fffffffu;
    uint32_t wantSin = 0x7fffffffu, wantCos = 0x7fffffffu;
    if (a < 0x7f800000u) {
      const uint32_t q = entryIndex(__uint_as_float(a));
      wantSin = sinOfTurns(half, q) ^ (u & 0x80000000u);
      wantCos = sinOfTurns(half, (q + kEntries / 4) & (kEntries - 1));
    }
    const float x = __uint_as_float(u);
    if (__float_as_uint(sinA(x)) != wantSin && atomicAdd(&bad[0], 1ull) < 2) ex[atomicAdd(&ex[15], 1) % 4] = u;
    if (__float_as_uint(cosA(x)) != wantCos && atomicAdd(&bad[1], 1ull) < 2) ex[4 + atomicAdd(&ex[14], 1) % 4] = u;
  }
}

__global__ void f64Specials(uint32_t* out) {
  const uint32_t highs[] = {0x3ff00000u, 0xbff00000u, 0x00000000u, 0x80000000u, 0x00080000u, 0x80080000u, 0x7ff00000u,
                            0xfff00000u, 0x7ff80000u, 0xfff80000u, 0x7ff00001u, 0x00100000u, 0x80100000u, 0x7fe00000u};
  for (int k = 0; k < 14; ++k) {
    const double x = __hiloint2double(int(highs[k]), 0);
    out[3 * k] = highs[k];
    out[3 * k + 1] = __double2hiint(rcp64(x));
    out[3 * k + 2] = __double2hiint(rsq64(x));
  }
}

// As sim/data/mufu stores tables (encode_diff8.py): a difference in
// [-127, 127] as one signed byte, any other as 0x80 and its four bytes.
void writeDifferences(const std::string& path, std::vector<uint32_t>& table) {
  uint32_t previous = 0;
  std::vector<uint8_t> bytes;
  bytes.reserve(table.size());
  for (size_t q = 0; q < table.size(); ++q) {
    if (table[q] == kEmpty) table[q] = previous;
    const int32_t d = int32_t(table[q] - previous);
    previous = table[q];
    if (d >= -127 && d <= 127) {
      bytes.push_back(uint8_t(d));
    } else {
      bytes.push_back(0x80);
      for (int b = 0; b < 4; ++b) bytes.push_back(uint8_t(uint32_t(d) >> (8 * b)));
    }
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: %s DIR\n", argv[0]); return 2; }
  const std::string dir = argv[1];
  uint32_t *s, *c, *ex;
  u64* counts;
  CHECK(cudaMalloc(&s, size_t(kEntries) * 4));
  CHECK(cudaMalloc(&c, size_t(kEntries) * 4));
  CHECK(cudaMalloc(&ex, 64 * 4));
  CHECK(cudaMalloc(&counts, 64 * 8));
  CHECK(cudaMemset(s, 0xfe, size_t(kEntries) * 4));
  CHECK(cudaMemset(c, 0xfe, size_t(kEntries) * 4));
  fill<false><<<8192, 256>>>(s);
  fill<true><<<8192, 256>>>(c);
  std::vector<u64> h(64);
  std::vector<uint32_t> hx(64);
  for (int kind = 0; kind < 2; ++kind) {
    CHECK(cudaMemset(counts, 0, 64 * 8));
    CHECK(cudaMemset(ex, 0, 64 * 4));
    if (kind) check<true><<<8192, 256>>>(c, counts, ex); else check<false><<<8192, 256>>>(s, counts, ex);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), counts, 64 * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hx.data(), ex, 64 * 4, cudaMemcpyDeviceToHost));
    std::printf("%s: %llu of 2^32 inputs differ from T[trunc(frac(rz(|x| 0x3e22f983)) 2^25)]%s; examples:", kind ? "cos" : "sin", h[0],
                kind ? "" : " with the sign of x");
    for (int k = 0; k < 4; ++k) std::printf(" 0x%08x->0x%08x", hx[2 * k], hx[2 * k + 1]);
    std::printf("\n");
  }
  CHECK(cudaMemset(counts, 0, 64 * 8));
  symmetry<<<4096, 256>>>(s, c, counts);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), counts, 64 * 8, cudaMemcpyDeviceToHost));
  std::printf("sin(pi - t) = sin t: %llu of %llu reached pairs differ\n", h[1], h[0]);
  std::printf("sin(t + pi) = -sin t: %llu of %llu differ\n", h[3], h[2]);
  std::printf("cos t = sin(t + pi/2): %llu of %llu differ\n", h[5], h[4]);
  std::printf("entries no input reaches: sin %llu, cos %llu of %u\n", h[6], h[7], kEntries);
  f64Specials<<<1, 1>>>(ex);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hx.data(), ex, 64 * 4, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 14; ++k) std::printf("f64 high word 0x%08x: rcp 0x%08x rsqrt 0x%08x\n", hx[3 * k], hx[3 * k + 1], hx[3 * k + 2]);
  // The half table: merged, holes given the previous entry's value, then
  // checked as the simulator uses it.
  uint32_t* half;
  CHECK(cudaMalloc(&half, size_t(kEntries / 2) * 4));
  CHECK(cudaMemset(counts, 0, 64 * 8));
  mergeHalf<<<4096, 256>>>(s, c, half, counts);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), counts, 64 * 8, cudaMemcpyDeviceToHost));
  std::printf("half table: %llu entries where views disagree, %llu no view reaches, of %u\n", h[0], h[1], kEntries / 2);
  std::vector<uint32_t> table(kEntries / 2);
  CHECK(cudaMemcpy(table.data(), half, table.size() * 4, cudaMemcpyDeviceToHost));
  writeDifferences(dir + "/sin_half.diff8", table);  // fills the holes in `table`
  CHECK(cudaMemcpy(half, table.data(), table.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counts, 0, 64 * 8));
  CHECK(cudaMemset(ex, 0, 64 * 4));
  checkHalf<<<8192, 256>>>(half, counts, ex);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), counts, 64 * 8, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hx.data(), ex, 64 * 4, cudaMemcpyDeviceToHost));
  std::printf("the half-table rule: sin %llu, cos %llu of 2^32 inputs differ (examples 0x%08x 0x%08x)\n", h[0], h[1], hx[0], hx[4]);
  return 0;
}
