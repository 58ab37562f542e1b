// Sweeps over many inputs where a few hand-picked cases are not enough:
// cvt.rn.f16.f64 (one rounding from f64, never through f32: inputs just
// above and below f16 ties by less than an f32 ulp, f16 subnormals,
// overflow), and the instructions of nvcc's cbrtf sequence (lg2.approx.f32
// without .ftz on denormals, ex2.approx.ftz.f32) and cbrtf itself. Inputs
// come from a fixed hash, so the simulator sees the same ones.
#include <cstdint>

__device__ unsigned int case_count = 1536;

__device__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// A double near an f16 rounding boundary: an f16 value (normal or
// subnormal) plus half its ulp, nudged by a few f64 ulps either way.
__device__ double nearF16Tie(uint64_t r) {
  int exponent = static_cast<int>(r % 40) - 25;  // 2^-25 .. 2^14
  double mant = 1.0 + static_cast<double>((r >> 8) & 0x3ff) / 1024.0;
  double value = ldexp(mant, exponent);
  double ulp = ldexp(1.0, (exponent < -14 ? -14 : exponent) - 10);
  double tie = value + ulp / 2;
  long long nudge = static_cast<long long>((r >> 20) % 7) - 3;
  long long bits = __double_as_longlong(tie) + nudge;
  double v = __longlong_as_double(bits);
  return (r >> 40) & 1 ? -v : v;
}

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned k = 0;
  // 512 cvt.rn.f16.f64: 384 near ties, 128 raw random doubles of f16 range.
  for (int i = 0; i < 512; ++i) {
    uint64_t r = mix(i + 1);
    double d;
    if (i < 384) {
      d = nearF16Tie(r);
    } else {
      d = __longlong_as_double(static_cast<long long>((r & 0x800fffffffffffffull) |
                                                      (static_cast<uint64_t>(0x3e0 + (r >> 52) % 0x40) << 52)));
    }
    uint16_t h;
    asm volatile("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    out[k++] = h;
  }
  // 256 each of lg2.approx.f32 (denormals and normals), ex2.approx.ftz.f32,
  // and 512 cbrtf over denormals, normals, zeros, infinities and NaNs.
  for (int i = 0; i < 256; ++i) {
    uint32_t r = static_cast<uint32_t>(mix(1000 + i));
    uint32_t x = i < 128 ? (r & 0x807fffff) : (r & 0x80ffffff) | 0x00800000;  // denormal, then small normal
    float y;
    asm volatile("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(__uint_as_float(x & 0x7fffffff)));
    out[k++] = __float_as_uint(y);
  }
  for (int i = 0; i < 256; ++i) {
    uint32_t r = static_cast<uint32_t>(mix(2000 + i));
    float x = __uint_as_float((r & 0x83ffffff) | 0x3c000000);  // |x| in [2^-7, 2^8)
    float y;
    asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    out[k++] = __float_as_uint(y);
  }
  for (int i = 0; i < 512; ++i) {
    uint32_t r = static_cast<uint32_t>(mix(3000 + i));
    uint32_t x = r;
    if (i < 128) x = r & 0x807fffff;          // denormals
    else if (i == 128) x = 0x00000000;
    else if (i == 129) x = 0x80000000;
    else if (i == 130) x = 0x7f800000;
    else if (i == 131) x = 0xff800000;
    else if (i == 132) x = 0x7fc00001;
    else if (i == 133) x = 0xffc00002;
    out[k++] = __float_as_uint(cbrtf(__uint_as_float(x)));
  }
}

#include "harness.h"
