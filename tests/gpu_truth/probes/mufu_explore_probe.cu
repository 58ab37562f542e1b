// Exploration of the H100's multi-function unit for the .approx forms the
// conformance suite found differing: sin/cos (FMUL.RZ by 1/2pi, then
// MUFU.SIN/COS), tanh.f32 (MUFU.TANH), the 16-bit forms (MUFU.TANH.F16/BF16,
// MUFU.EX2.BF16) and rcp/rsqrt.approx.ftz.f64 (MUFU.RCP64H/RSQ64H).
// Usage: mufu_explore_probe DIR   (writes tables to DIR, findings to stdout)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "exit_on_error.h"

typedef unsigned long long u64;

__device__ float sinA(float x) { float r; asm volatile("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float cosA(float x) { float r; asm volatile("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float tanhA(float x) { float r; asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ uint16_t tanhH(uint16_t x) { uint16_t r; asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ uint16_t tanhB(uint16_t x) { uint16_t r; asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ uint16_t ex2H(uint16_t x) { uint16_t r; asm volatile("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ uint32_t ex2H2(uint32_t x) { uint32_t r; asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ uint16_t ex2B(uint16_t x) { uint16_t r; asm volatile("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(x)); return r; }
__device__ uint32_t tanhH2(uint32_t x) { uint32_t r; asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ uint32_t tanhB2(uint32_t x) { uint32_t r; asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ uint32_t ex2B2(uint32_t x) { uint32_t r; asm volatile("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ double rcp64(double x) { double r; asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
__device__ double rsq64(double x) { double r; asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }

__device__ uint32_t mix(uint32_t v) {
  v ^= v >> 16; v *= 0x7feb352dU; v ^= v >> 15; v *= 0x846ca68bU; v ^= v >> 16;
  return v;
}

// ---- 16-bit forms: full tables and lane independence of the x2 forms
__global__ void table16(uint16_t* th, uint16_t* tb, uint16_t* eb, uint16_t* eh) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  th[i] = tanhH(i); tb[i] = tanhB(i); eb[i] = ex2B(i); eh[i] = ex2H(i);
}
__global__ void lanes16(const uint16_t* th, const uint16_t* tb, const uint16_t* eb, const uint16_t* eh, u64* bad) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;  // 2^26 pairs
  uint32_t a = i & 0xffff, b = mix(i) & 0xffff, x = a | (b << 16);
  if (tanhH2(x) != (th[a] | (uint32_t(th[b]) << 16))) atomicAdd(&bad[0], 1ull);
  if (tanhB2(x) != (tb[a] | (uint32_t(tb[b]) << 16))) atomicAdd(&bad[1], 1ull);
  if (ex2B2(x) != (eb[a] | (uint32_t(eb[b]) << 16))) atomicAdd(&bad[2], 1ull);
  if (ex2H2(x) != (eh[a] | (uint32_t(eh[b]) << 16))) atomicAdd(&bad[3], 1ull);
}

// ---- rcp/rsqrt f64: the high word alone decides; tables of one binade
__global__ void f64High(u64* bad, uint32_t* ex) {
  for (u64 h = blockIdx.x * (u64)blockDim.x + threadIdx.x; h < (1ull << 32); h += (u64)gridDim.x * blockDim.x) {
    uint32_t lo = mix(uint32_t(h)) | 1;
    double x0 = __hiloint2double(int(h), 0), x1 = __hiloint2double(int(h), int(lo));
    double a0 = rcp64(x0), a1 = rcp64(x1), b0 = rsq64(x0), b1 = rsq64(x1);
    if (__double_as_longlong(a0) != __double_as_longlong(a1)) { if (atomicAdd(&bad[0], 1ull) < 4) ex[0 + atomicAdd(&ex[15], 1) % 4] = h; }
    if (__double_as_longlong(b0) != __double_as_longlong(b1)) { if (atomicAdd(&bad[1], 1ull) < 4) ex[4 + atomicAdd(&ex[14], 1) % 4] = h; }
    if (__double2loint(a0) != 0) atomicAdd(&bad[2], 1ull);
    if (__double2loint(b0) != 0) atomicAdd(&bad[3], 1ull);
  }
}
__global__ void f64Tables(uint32_t* rcpT, uint32_t* rsqE0, uint32_t* rsqE1) {
  uint32_t m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= (1u << 20)) return;
  rcpT[m] = __double2hiint(rcp64(__hiloint2double(int(0x3ff00000u | m), 0)));
  rsqE0[m] = __double2hiint(rsq64(__hiloint2double(int(0x3ff00000u | m), 0)));
  rsqE1[m] = __double2hiint(rsq64(__hiloint2double(int(0x40000000u | m), 0)));
}

// ---- sin/cos: does the result depend only on the revolutions r = rz(x/2pi)
// in fixed point with F fraction bits? First writer of each table entry
// wins; a second pass counts inputs whose result differs from the entry.
constexpr uint32_t kEmpty = 0xfefefefeu;  // what cudaMemset(0xfe) writes
__device__ float revolutions(float x) { return __fmul_rz(x, __int_as_float(0x3e22f983)); }
template <bool kCos>
__global__ void trigFill(uint32_t* table, int F, int pass, u64* bad, uint32_t* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < 0x7f800000ull; i += (u64)gridDim.x * blockDim.x) {
    float x = __uint_as_float(uint32_t(i));
    float r = revolutions(x);
    if (!(r < 1.0f)) continue;
    uint32_t q = uint32_t(floor(double(r) * double(1ull << F)));
    uint32_t y = __float_as_uint(kCos ? cosA(x) : sinA(x));
    if (pass == 0) atomicCAS(&table[q], kEmpty, y);
    else if (table[q] != y) {
      if (atomicAdd(bad, 1ull) < 4) { uint32_t k = atomicAdd(&ex[63], 1) % 4; ex[k * 3] = uint32_t(i); ex[k * 3 + 1] = y; ex[k * 3 + 2] = table[q]; }
    }
  }
}
// r >= 1: per exponent of r, how many results are nonzero, two examples.
template <bool kCos>
__global__ void trigLarge(u64* nonzeroByExp, uint32_t* ex /*[64][4]*/) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < 0x7f800000ull; i += (u64)gridDim.x * blockDim.x) {
    float x = __uint_as_float(uint32_t(i));
    float r = revolutions(x);
    int e = int((__float_as_uint(r) >> 23) & 0xff) - 127;
    if (e < 0) continue;
    uint32_t y = __float_as_uint(kCos ? cosA(x) : sinA(x));
    bool interesting = kCos ? (y != 0x3f800000u) : ((y & 0x7fffffff) != 0);
    if (!interesting) continue;
    if (atomicAdd(&nonzeroByExp[e], 1ull) < 2) { uint32_t k = atomicAdd(&ex[e * 5 + 4], 1) % 2; ex[e * 5 + 2 * k] = uint32_t(i); ex[e * 5 + 2 * k + 1] = y; }
  }
}

// ---- tanh f32: how many fraction bits of the input matter, per binade;
// where the result is x itself and where it is 1.
__global__ void tanhFractionBits(u64* bad /* [64][24] */, u64* notIdentity /*[64]*/, u64* notOne /*[64]*/, u64* oddBad) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < 0x7f800000ull; i += (u64)gridDim.x * blockDim.x) {
    uint32_t u = uint32_t(i);
    int e = int(u >> 23) - 127;
    uint32_t y = __float_as_uint(tanhA(__uint_as_float(u)));
    if ((__float_as_uint(tanhA(-__uint_as_float(u))) ^ 0x80000000u) != y) atomicAdd(oddBad, 1ull);
    if (e < -40 || e > 10) continue;
    int slot = e + 40;
    if (y != u) atomicAdd(&notIdentity[slot], 1ull);
    if (y != 0x3f800000u) atomicAdd(&notOne[slot], 1ull);
    for (int k = 8; k < 23; ++k) {
      uint32_t t = u & ~((1u << (23 - k)) - 1);
      if (t != u && __float_as_uint(tanhA(__uint_as_float(t))) != y) atomicAdd(&bad[slot * 24 + k], 1ull);
    }
  }
}

// ---- tanh f32: the rule found by the first exploration, checked on every input:
// odd; |x| < 2^-8: x; binade 2^e, e in [-8, 2]: a table of the top k(e)
// fraction bits; |x| >= 8: 1.
__host__ __device__ int tanhBits(int e) { return e <= -6 ? 17 : e <= -4 ? 18 : e <= -1 ? 19 : e == 0 ? 20 : e == 1 ? 21 : 20; }
__host__ __device__ uint32_t tanhOffset(int e) { uint32_t o = 0; for (int b = -8; b < e; ++b) o += 1u << tanhBits(b); return o; }
__global__ void tanhTable(uint32_t* t) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int e = -8; e <= 2; ++e) {
    int k = tanhBits(e);
    if (i >= (1u << k)) continue;
    uint32_t u = (uint32_t(e + 127) << 23) | (i << (23 - k));
    t[tanhOffset(e) + i] = __float_as_uint(tanhA(__uint_as_float(u)));
  }
}
__global__ void tanhCheck(const uint32_t* t, u64* bad, uint32_t* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 32); i += (u64)gridDim.x * blockDim.x) {
    uint32_t u = uint32_t(i), a = u & 0x7fffffff, s = u & 0x80000000u;
    int e = int(a >> 23) - 127;
    uint32_t want;
    if (a > 0x7f800000u) want = 0x7fffffffu;
    else if (e < -8) want = u;
    else if (e > 2) want = s | 0x3f800000u;
    else { int k = tanhBits(e); want = s | t[tanhOffset(e) + ((a & 0x7fffff) >> (23 - k))]; }
    uint32_t y = __float_as_uint(tanhA(__uint_as_float(u)));
    if (y != want && atomicAdd(bad, 1ull) < 8) { uint32_t k = atomicAdd(&ex[63], 1) % 8; ex[2 * k] = u; ex[2 * k + 1] = y; }
  }
}

// ---- rcp/rsqrt f64 rule: the high word 1.11.20 only; the table of its
// mantissa (rsqrt: and exponent parity), scaled by the exponent.
__global__ void f64Check(const uint32_t* rcpT, const uint32_t* rsq0, const uint32_t* rsq1, u64* bad, uint32_t* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 32); i += (u64)gridDim.x * blockDim.x) {
    uint32_t h = uint32_t(i), s = h & 0x80000000u, E = (h >> 20) & 0x7ff, m = h & 0xfffff;
    double x = __hiloint2double(int(h), 0);
    uint32_t yr = __double2hiint(rcp64(x)), ys = __double2hiint(rsq64(x));
    // rcp
    uint32_t wr;
    if (E == 0x7ff) wr = m ? 0x7fffffffu : s;  // NaN: the canonical NaN's upper word
    else if (E == 0) wr = s | 0x7ff00000u;
    else {
      int Et = int((rcpT[m] >> 20) & 0x7ff) - (int(E) - 1023);
      wr = Et <= 0 ? s : (s | (uint32_t(Et) << 20) | (rcpT[m] & 0xfffff));
    }
    if (yr != wr && atomicAdd(&bad[0], 1ull) < 8) { uint32_t k = atomicAdd(&ex[62], 1) % 8; ex[2 * k] = h; ex[2 * k + 1] = yr; }
    uint32_t ws;
    if (E == 0x7ff) ws = (m || s) ? 0x7fffffffu : 0;
    else if (E == 0) ws = s | 0x7ff00000u;  // -0 and negative subnormals: -inf
    else if (s) ws = 0x7fffffffu;
    else {
      int p = int(E) - 1023, odd = p & 1;
      uint32_t t = odd ? rsq1[m] : rsq0[m];
      int Et = int((t >> 20) & 0x7ff) - (p - odd) / 2;
      ws = (uint32_t(Et) << 20) | (t & 0xfffff);
    }
    if (ys != ws && atomicAdd(&bad[1], 1ull) < 8) { uint32_t k = atomicAdd(&ex[61], 1) % 8; ex[16 + 2 * k] = h; ex[16 + 2 * k + 1] = ys; }
  }
}

template <typename T>
void save(const std::string& path, const T* device, size_t count) {
  std::vector<T> host(count);
  CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(host.data(), sizeof(T), count, f);
  std::fclose(f);
}

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: %s DIR\n", argv[0]); return 2; }
  const std::string dir = argv[1];
  u64* counts;
  uint32_t* ex;
  CHECK(cudaMalloc(&counts, 4096 * sizeof(u64)));
  CHECK(cudaMalloc(&ex, 512 * sizeof(uint32_t)));
  auto zero = [&] { CHECK(cudaMemset(counts, 0, 4096 * sizeof(u64))); CHECK(cudaMemset(ex, 0, 512 * 4)); };
  std::vector<u64> h(4096);
  std::vector<uint32_t> hx(64);
  auto fetch = [&] {
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), counts, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hx.data(), ex, hx.size() * 4, cudaMemcpyDeviceToHost));
  };

  // 16-bit
  uint16_t *th, *tb, *eb, *eh;
  CHECK(cudaMalloc(&th, 65536 * 2)); CHECK(cudaMalloc(&tb, 65536 * 2)); CHECK(cudaMalloc(&eb, 65536 * 2)); CHECK(cudaMalloc(&eh, 65536 * 2));
  table16<<<256, 256>>>(th, tb, eb, eh);
  zero();
  lanes16<<<(1 << 26) / 256, 256>>>(th, tb, eb, eh, counts);
  fetch();
  std::printf("x2 lanes differing from the scalar tables (of 2^26): tanh.f16x2 %llu, tanh.bf16x2 %llu, ex2.bf16x2 %llu, ex2.f16x2 %llu\n", h[0], h[1], h[2], h[3]);
  save(dir + "/tanh_f16.u16", th, 65536); save(dir + "/tanh_bf16.u16", tb, 65536); save(dir + "/ex2_bf16.u16", eb, 65536);
  save(dir + "/ex2_f16.u16", eh, 65536);

  // f64
  zero();
  f64High<<<4096, 256>>>(counts, ex);
  fetch();
  std::printf("f64: low word changes rcp %llu, rsqrt %llu (of 2^32); nonzero low result word rcp %llu, rsqrt %llu\n", h[0], h[1], h[2], h[3]);
  for (int k = 0; k < 4; ++k) std::printf("  example high words rcp 0x%08x rsqrt 0x%08x\n", hx[k], hx[4 + k]);
  uint32_t *rcpT, *rsq0, *rsq1;
  CHECK(cudaMalloc(&rcpT, 4 << 20)); CHECK(cudaMalloc(&rsq0, 4 << 20)); CHECK(cudaMalloc(&rsq1, 4 << 20));
  f64Tables<<<(1 << 20) / 256, 256>>>(rcpT, rsq0, rsq1);
  save(dir + "/rcp64h.u32", rcpT, 1 << 20); save(dir + "/rsq64h_e0.u32", rsq0, 1 << 20); save(dir + "/rsq64h_e1.u32", rsq1, 1 << 20);

  // f64 rule
  zero();
  f64Check<<<4096, 256>>>(rcpT, rsq0, rsq1, counts, ex);
  fetch();
  std::printf("f64 rule: rcp %llu, rsqrt %llu of 2^32 high words differ\n", h[0], h[1]);
  for (int k = 0; k < 8; ++k) std::printf("  rcp 0x%08x -> 0x%08x   rsqrt 0x%08x -> 0x%08x\n", hx[2 * k], hx[2 * k + 1], hx[16 + 2 * k], hx[17 + 2 * k]);

  // tanh f32: exploration, then the rule
  zero();
  tanhFractionBits<<<8192, 256>>>(counts, counts + 64 * 24, counts + 64 * 24 + 64, counts + 64 * 24 + 128);
  fetch();
  std::printf("tanh.f32: %llu positive inputs break oddness\n", h[64 * 24 + 128]);
  for (int s = 30; s < 51; ++s) {
    std::printf("tanh binade 2^%d: not x %llu, not 1 %llu; inputs whose result changes when truncated to k fraction bits, k=8..22:", s - 40,
                h[64 * 24 + s], h[64 * 24 + 64 + s]);
    for (int k = 8; k < 23; ++k) std::printf(" %llu", h[s * 24 + k]);
    std::printf("\n");
  }
  uint32_t* tt;
  const uint32_t tanhEntries = tanhOffset(3);
  CHECK(cudaMalloc(&tt, tanhEntries * 4));
  tanhTable<<<(1 << 21) / 256, 256>>>(tt);
  zero();
  tanhCheck<<<4096, 256>>>(tt, counts, ex);
  fetch();
  std::printf("tanh.f32 rule: %llu of 2^32 inputs differ (table of %u entries)\n", h[0], tanhEntries);
  for (int k = 0; k < 8; ++k) std::printf("  tanh 0x%08x -> 0x%08x\n", hx[2 * k], hx[2 * k + 1]);
  save(dir + "/tanh_f32.u32", tt, tanhEntries);

  // sin/cos
  uint32_t* table;
  CHECK(cudaMalloc(&table, (size_t(4) << 28)));
  for (int kind = 0; kind < 2; ++kind) {
    for (int F = 23; F <= 28; ++F) {
      CHECK(cudaMemset(table, 0xfe, size_t(4) << F));
      zero();
      if (kind) { trigFill<true><<<8192, 256>>>(table, F, 0, counts, ex); trigFill<true><<<8192, 256>>>(table, F, 1, counts, ex); }
      else { trigFill<false><<<8192, 256>>>(table, F, 0, counts, ex); trigFill<false><<<8192, 256>>>(table, F, 1, counts, ex); }
      fetch();
      std::printf("%s F=%d: %llu inputs with r<1 differ from their fixed-point entry; examples (x y entry):", kind ? "cos" : "sin", F, h[0]);
      for (int k = 0; k < 4; ++k) std::printf(" 0x%08x 0x%08x 0x%08x;", hx[3 * k], hx[3 * k + 1], hx[3 * k + 2]);
      std::printf("\n");
    }
    zero();
    if (kind) trigLarge<true><<<8192, 256>>>(counts, ex); else trigLarge<false><<<8192, 256>>>(counts, ex);
    std::vector<uint32_t> big(64 * 5);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), counts, 64 * 8, cudaMemcpyDeviceToHost));
    std::printf("%s, r >= 1, by exponent of r: results that are not %s (count, examples x y)\n", kind ? "cos" : "sin", kind ? "1" : "+-0");
    CHECK(cudaMemcpy(big.data(), ex, 64 * 5 * 4, cudaMemcpyDeviceToHost));
    for (int e = 0; e < 12; ++e) std::printf("  2^%d: %llu  0x%08x 0x%08x  0x%08x 0x%08x\n", e, h[e], big[e * 5], big[e * 5 + 1], big[e * 5 + 2], big[e * 5 + 3]);
    for (int e = 12; e < 64; ++e) if (h[e]) std::printf("  2^%d: %llu\n", e, h[e]);
  }
  return 0;
}
