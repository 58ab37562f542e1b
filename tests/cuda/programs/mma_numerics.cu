// How the tensor core adds: one dot product d = c + sum a[k] b[k] per case
// (row 0 of A, column 0 of B, C[0][0]; every other element zero) through
// mma.sync m16n8k16 (f16 or bf16 inputs, f32 or f16 accumulator) or
// m16n8k8 (tf32), printing the result's bits. The cases tell apart the
// candidate models of sim/src/semantics/mma_numerics.h: exact products;
// alignment to the largest exponent with truncation and how many extra
// bits; the block size (where the products stop being summed in one
// step); rounding of the normalised sum (ties, carries); subnormal inputs
// and results; infinity, NaN and overflow; the sign of zero.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "check.h"

enum Kind { kHalfF32, kBf16F32, kTf32F32, kHalfF16 };

struct Case {
  const char* name;
  Kind kind;
  uint32_t a[16];  // element bits of row 0 of A
  uint32_t b[16];  // element bits of column 0 of B
  uint32_t c;      // C[0][0] bits (f32, or f16 for kHalfF16)
};

struct Operands {
  uint32_t a[16][16];
  uint32_t b[16][8];
  uint32_t c[16][8];
};

__device__ uint32_t pack(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | (hi << 16); }

__global__ void dot(Kind kind, const Operands* ops, uint32_t* d) {
  const Operands& o = *ops;
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  uint32_t c[4], out[4];
  for (int i = 0; i < 4; ++i) c[i] = o.c[g + 8 * (i >> 1)][2 * t + (i & 1)];
  if (kind == kTf32F32) {
    uint32_t a[4] = {o.a[g][t], o.a[g + 8][t], o.a[g][t + 4], o.a[g + 8][t + 4]};
    uint32_t b[2] = {o.b[t][g], o.b[t + 4][g]};
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};"
        : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]),
          "r"(c[3]));
  } else {
    uint32_t a[4], b[2];
    for (int r = 0; r < 4; ++r) {
      int row = g + 8 * (r & 1), col = (r >> 1) * 8 + 2 * t;
      a[r] = pack(o.a[row][col], o.a[row][col + 1]);
    }
    for (int r = 0; r < 2; ++r) b[r] = pack(o.b[r * 8 + 2 * t][g], o.b[r * 8 + 2 * t + 1][g]);
    if (kind == kHalfF32) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%10,%11,%12,%13};"
          : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]),
            "r"(c[3]));
    } else if (kind == kBf16F32) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%10,%11,%12,%13};"
          : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]),
            "r"(c[3]));
    } else {
      uint32_t ch[2] = {pack(c[0], c[1]), pack(c[2], c[3])}, dh[2];
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
          : "=r"(dh[0]), "=r"(dh[1])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(ch[0]), "r"(ch[1]));
      for (int i = 0; i < 4; ++i) out[i] = (dh[i >> 1] >> (16 * (i & 1))) & 0xffff;
    }
  }
  for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = out[i];
}

// Element bits of exactly representable host values.
uint32_t h(double x) {
  __half_raw r = __float2half_rn(static_cast<float>(x));
  return r.x;
}
uint32_t bf(double x) {
  __nv_bfloat16_raw r = __float2bfloat16_rn(static_cast<float>(x));
  return r.x;
}
uint32_t f(double x) {
  float v = static_cast<float>(x);
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

constexpr uint32_t kF16Inf = 0x7c00, kF16NaN = 0x7e00;
constexpr uint32_t kF32Inf = 0x7f800000, kF32NegZero = 0x80000000;

// A case whose products are the listed values (the rest zero): a[k] * 1,
// or for f16, where a small value is not representable, (v 2^12) * 2^-12.
Case products(const char* name, Kind kind, const double* values, int count, uint32_t c) {
  Case x{name, kind, {}, {}, c};
  auto bits = [&](double v) { return kind == kBf16F32 ? bf(v) : kind == kTf32F32 ? f(v) : h(v); };
  for (int k = 0; k < count; ++k) {
    bool split = (kind == kHalfF32 || kind == kHalfF16) && values[k] != 0 && std::fabs(values[k]) < 0x1p-8;
    x.a[k] = bits(split ? values[k] * 0x1p12 : values[k]);
    x.b[k] = bits(split ? 0x1p-12 : 1.0);
  }
  return x;
}

void print(const Case& x, uint32_t bits) {
  if (x.kind == kHalfF16) {
    __half_raw r;
    r.x = static_cast<unsigned short>(bits);
    std::printf("%-44s %04x %a\n", x.name, bits, static_cast<double>(__half2float(__half(r))));
  } else {
    float v;
    std::memcpy(&v, &bits, 4);
    std::printf("%-44s %08x %a\n", x.name, bits, static_cast<double>(v));
  }
}

int main() {
  const double p26 = std::ldexp(1.0, -26), p25 = std::ldexp(1.0, -25), p24 = std::ldexp(1.0, -24),
               p27 = std::ldexp(1.0, -27), p28 = std::ldexp(1.0, -28);
  Case cases[64];
  int n = 0;
  {
    double v[3] = {1, 2, 3};
    cases[n++] = products("sanity: 1+2+3+10", kHalfF32, v, 3, f(10));
  }
  // Extra alignment bits: eight products of 2^-(24+e) beside c = 1 sum to
  // 2^(3-24-e); they count only where the grid reaches them.
  for (int e = 1; e <= 4; ++e) {
    static char names[4][48];
    std::snprintf(names[e - 1], sizeof names[0], "extra bits: c=1, 8 x 2^-%d", 24 + e);
    double v[8];
    for (double& x : v) x = std::ldexp(1.0, -(24 + e));
    cases[n++] = products(names[e - 1], kHalfF32, v, 8, f(1));
  }
  {
    // Alignment rounding: 1 + 0.75 ulp and 1 + 0.5 ulp, one product each.
    double v1[1] = {1.5 * p24};
    cases[n++] = products("align: c=1, p=1.5*2^-24", kHalfF32, v1, 1, f(1));
    double v2[1] = {p24};
    cases[n++] = products("tie: c=1, p=2^-24", kHalfF32, v2, 1, f(1));
    cases[n++] = products("tie: c=1+2^-23, p=2^-24", kHalfF32, v2, 1, f(1 + std::ldexp(1.0, -23)));
    // 1 + 5/8 ulp and 1 + 3/4 ulp: truncated or rounded up.
    double v3[5] = {p26, p26, p26, p26, p26};
    cases[n++] = products("normalise: c=1, 5 x 2^-26", kHalfF32, v3, 5, f(1));
    double v4[2] = {p24, p25};
    cases[n++] = products("normalise: c=1, 2^-24+2^-25", kHalfF32, v4, 2, f(1));
    // Accumulator below the products' grid.
    double v5[1] = {1};
    cases[n++] = products("acc aligned: c=1.5*2^-24, p=1", kHalfF32, v5, 1, f(1.5 * p24));
    cases[n++] = products("acc aligned: c=-1.5*2^-24, p=1", kHalfF32, v5, 1, f(-1.5 * p24));
    // Carry: the sum reaches the next binade.
    double v6[2] = {p24, p25};
    cases[n++] =
        products("below carry: c=2-2^-23, p=2^-24+2^-25", kHalfF32, v6, 2, f(2 - std::ldexp(1.0, -23)));
    double v7[4] = {0.5, 0.5, 0.5, 0.5};
    cases[n++] = products("carry: c=1.75, 4 x 0.5", kHalfF32, v7, 4, f(1.75));
    // Negative terms truncated toward zero or toward minus infinity.
    double v8[1] = {-1.5 * p24};
    cases[n++] = products("negative: c=1, p=-1.5*2^-24", kHalfF32, v8, 1, f(1));
    double v9[2] = {-p26, -p26};
    cases[n++] = products("negative: c=1, 2 x -2^-26", kHalfF32, v9, 2, f(1));
  }
  {
    // Cancellation: what was truncated before the big terms cancelled.
    double v[1] = {-(1 - std::ldexp(1.0, -11))};
    Case x = products("cancel: c=1, -(1-2^-11), 2^-15*2^-15", kHalfF32, v, 1, f(1));
    x.a[1] = h(std::ldexp(1.0, -15));  // subnormal f16
    x.b[1] = h(std::ldexp(1.0, -15));
    cases[n++] = x;
    double w[3] = {1024, std::ldexp(1.0, -14), -1024};
    cases[n++] = products("cancel: 2^10, 2^-14, -2^10", kHalfF32, w, 3, f(0));
  }
  // Block size: 2^10 at k=0, 2^-14 at k=1, -2^10 at k=B: 2^-14 survives
  // only when k=0 and k=B are summed in one step.
  for (int block : {2, 4, 8, 12, 15}) {
    static char names[5][48];
    static int used = 0;
    char* name = names[used++];
    std::snprintf(name, 48, "block: 2^10, 2^-14 | -2^10 at k=%d", block);
    double v[16] = {};
    v[0] = 1024;
    v[1] = std::ldexp(1.0, -14);
    v[block] = -1024;
    cases[n++] = products(name, kHalfF32, v, 16, f(0));
  }
  {
    // Huge exponent differences.
    double v[1] = {1};
    cases[n++] = products("range: c=2^100, p=1", kHalfF32, v, 1, f(std::ldexp(1.0, 100)));
    cases[n++] = products("range: c=2^-100, p=1", kHalfF32, v, 1, f(std::ldexp(1.0, -100)));
    double w[2] = {65504, -65504};
    Case x = products("range: 65504^2 - 65504^2 + c=2^-20", kHalfF32, w, 2, f(std::ldexp(1.0, -20)));
    x.b[0] = x.b[1] = h(65504);
    cases[n++] = x;
  }
  {
    // Subnormals.
    Case x = products("subnormal in: 2^-24 * 2^-24", kHalfF32, nullptr, 0, f(0));
    x.a[0] = x.b[0] = h(p24);
    cases[n++] = x;
    Case y = products("subnormal out: bf16 2^-70 * 2^-70", kBf16F32, nullptr, 0, f(0));
    y.a[0] = y.b[0] = bf(std::ldexp(1.0, -70));
    cases[n++] = y;
    Case z = products("subnormal out: bf16 1.5*2^-75 * 2^-75", kBf16F32, nullptr, 0, f(0));
    z.a[0] = bf(1.5 * std::ldexp(1.0, -75));
    z.b[0] = bf(std::ldexp(1.0, -75));
    cases[n++] = z;
    Case s = products("subnormal c: c=2^-140, p=2^-48", kHalfF32, nullptr, 0, f(std::ldexp(1.0, -140)));
    s.a[0] = s.b[0] = h(p24);
    cases[n++] = s;
    Case t = products("subnormal c alone: c=3*2^-149", kHalfF32, nullptr, 0, f(3 * std::ldexp(1.0, -149)));
    cases[n++] = t;
  }
  {
    // Infinity, NaN, overflow, the sign of zero.
    Case x = products("inf * 1", kHalfF32, nullptr, 0, f(0));
    x.a[0] = kF16Inf;
    x.b[0] = h(1);
    cases[n++] = x;
    Case y = products("inf * 0", kHalfF32, nullptr, 0, f(0));
    y.a[0] = kF16Inf;
    y.b[0] = h(0);
    cases[n++] = y;
    Case z = products("inf - inf", kHalfF32, nullptr, 0, f(0));
    z.a[0] = kF16Inf;
    z.a[1] = kF16Inf | 0x8000;
    z.b[0] = z.b[1] = h(1);
    cases[n++] = z;
    Case u = products("NaN input", kHalfF32, nullptr, 0, f(1));
    u.a[0] = kF16NaN | 0x0155;
    u.b[0] = h(1);
    cases[n++] = u;
    cases[n++] = products("c = NaN", kHalfF32, nullptr, 0, 0x7fc12345u);
    cases[n++] = products("c = -inf, p = 0", kHalfF32, nullptr, 0, kF32Inf | kF32NegZero);
    Case v = products("c = inf, p = -inf", kHalfF32, nullptr, 0, kF32Inf);
    v.a[0] = kF16Inf | 0x8000;
    v.b[0] = h(1);
    cases[n++] = v;
    Case w = products("overflow: bf16 2^100 * 2^100", kBf16F32, nullptr, 0, f(0));
    w.a[0] = w.b[0] = bf(std::ldexp(1.0, 100));
    cases[n++] = w;
    Case w2 = products("overflow: bf16 2^64*2^63 twice", kBf16F32, nullptr, 0, f(0));
    w2.a[0] = w2.a[1] = bf(std::ldexp(1.0, 64));
    w2.b[0] = w2.b[1] = bf(std::ldexp(1.0, 63));
    cases[n++] = w2;
    Case w3 =
        products("c=bf16 max-ish: c=2^127*1.5, p=2^126", kBf16F32, nullptr, 0, f(1.5 * std::ldexp(1.0, 127)));
    w3.a[0] = bf(std::ldexp(1.0, 63));
    w3.b[0] = bf(std::ldexp(1.0, 63));
    cases[n++] = w3;
    cases[n++] = products("zero: c=-0, products +0", kHalfF32, nullptr, 0, kF32NegZero);
    Case z2 = products("zero: c=-0, all 16 products -0", kHalfF32, nullptr, 0, kF32NegZero);
    for (uint32_t& b : z2.b) b = h(-0.0);
    cases[n++] = z2;
    double c1[2] = {1, -1};
    cases[n++] = products("zero: c=0, 1 - 1", kHalfF32, c1, 2, f(0));
    cases[n++] = products("zero: c=-0, 1 - 1", kHalfF32, c1, 2, kF32NegZero);
  }
  {
    // bf16 and tf32 inputs, f16 accumulation.
    double v[2] = {p27, p28};
    cases[n++] = products("bf16: c=1, 2^-27+2^-28", kBf16F32, v, 2, f(1));
    double w[8];
    for (double& x : w) x = p26;
    cases[n++] = products("tf32: c=1, 8 x 2^-26", kTf32F32, w, 8, f(1));
    Case t = products("tf32: operand low bits, (1+3*2^-12)*1", kTf32F32, nullptr, 0, f(0));
    t.a[0] = f(1 + 3 * std::ldexp(1.0, -12));
    t.b[0] = f(1);
    cases[n++] = t;
    double hv[2] = {std::ldexp(1.0, -11), std::ldexp(1.0, -12)};
    cases[n++] = products("f16 acc: c=1, 2^-11+2^-12", kHalfF16, hv, 2, h(1));
    double hw[1] = {std::ldexp(1.0, -11)};
    cases[n++] = products("f16 acc: c=1, 2^-11 (tie)", kHalfF16, hw, 1, h(1));
    cases[n++] = products("f16 acc: c=1+2^-10, 2^-11 (tie)", kHalfF16, hw, 1, h(1 + std::ldexp(1.0, -10)));
    double hx[2] = {32768, 32768};
    Case o = products("f16 acc: overflow 2*32768*2", kHalfF16, hx, 2, h(0));
    o.b[0] = o.b[1] = h(2);
    cases[n++] = o;
  }

  Operands* ops;
  uint32_t* d;
  CHECK(cudaMallocManaged(&ops, sizeof(Operands)));
  CHECK(cudaMallocManaged(&d, 16 * 8 * sizeof(uint32_t)));
  for (int i = 0; i < n; ++i) {
    std::memset(ops, 0, sizeof(Operands));
    for (int k = 0; k < 16; ++k) {
      ops->a[0][k] = cases[i].a[k];
      ops->b[k][0] = cases[i].b[k];
    }
    ops->c[0][0] = cases[i].c;
    dot<<<1, 32>>>(cases[i].kind, ops, d);
    CHECK(cudaDeviceSynchronize());
    print(cases[i], d[0]);
  }
  return 0;
}
