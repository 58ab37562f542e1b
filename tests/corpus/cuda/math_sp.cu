// math_sp.cu - covers: single-precision math library (sinf, cosf, tanf, expf,
// exp2f, logf, log2f, powf, erff, erfcf, tgammaf, atan2f, sincosf, cbrtf,
// rsqrtf, hypotf, fmodf, remainderf, ...), fast intrinsics (__sinf, __cosf,
// __expf, __logf, __powf, __fdividef, __saturatef), explicitly-rounded
// intrinsics (__fadd_rz, __fmul_ru, __fmaf_rn, __frcp_rd, __fsqrt_ru, __fdiv_rn),
// float<->int conversions with rounding modes, bit casts, classification.
#include <math.h>

__global__ void libm_sp(const float *__restrict__ x, float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.f;
  acc += sinf(v) + cosf(v) + tanf(v);
  acc += expf(v) + exp2f(v) + exp10f(v) + expm1f(v);
  acc += logf(fabsf(v) + 1.f) + log2f(fabsf(v) + 2.f) + log10f(fabsf(v) + 3.f) + log1pf(fabsf(v));
  acc += powf(fabsf(v), 1.7f) + erff(v) + erfcf(v) + erfinvf(v * 0.5f) + tgammaf(v) + lgammaf(v);
  acc += atan2f(v, 2.f) + asinf(v * 0.1f) + acosf(v * 0.1f) + atanf(v);
  acc += sinhf(v) + coshf(v) + tanhf(v) + asinhf(v) + acoshf(fabsf(v) + 1.f) + atanhf(v * 0.1f);
  acc += cbrtf(v) + rcbrtf(v) + rsqrtf(fabsf(v) + 1e-3f) + sqrtf(fabsf(v)) + hypotf(v, 3.f);
  acc += fmodf(v, 1.3f) + remainderf(v, 0.7f) + fdimf(v, 1.f) + copysignf(2.f, v) + ldexpf(v, 3);
  acc += j0f(v) + y1f(fabsf(v) + 1.f) + normcdff(v) + normcdfinvf(0.3f) + sinpif(v) + cospif(v);
  float s, c;
  sincosf(v, &s, &c);
  acc += s * c;
  int e = 0;
  acc += frexpf(v, &e);
  acc += (float)e;
  float ip;
  acc += modff(v, &ip) + ip;
  y[i] = acc + fmaf(v, v, 1.f) + fminf(v, 0.f) + fmaxf(v, 1.f) + truncf(v) + roundf(v) + rintf(v) + floorf(v) + ceilf(v);
}

__global__ void intrinsics_sp(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], w = x[(i + 1) % n];
  float r = __sinf(v) + __cosf(v) + __tanf(v) + __expf(v) + __exp10f(v) + __logf(fabsf(v) + 1.f) +
            __log2f(fabsf(v) + 1.f) + __log10f(fabsf(v) + 1.f) + __powf(fabsf(v), w) + __fdividef(v, w);
  r += __saturatef(v) + __fadd_rn(v, w) + __fadd_rz(v, w) + __fadd_ru(v, w) + __fadd_rd(v, w);
  r += __fsub_rn(v, w) + __fmul_rz(v, w) + __fmul_ru(v, w) + __fmul_rd(v, w);
  r += __fmaf_rn(v, w, r) + __fmaf_rz(v, w, r) + __fmaf_ru(v, w, r) + __fmaf_rd(v, w, r);
  r += __frcp_rn(w) + __frcp_rz(w) + __frcp_ru(w) + __frcp_rd(w);
  r += __fsqrt_rn(fabsf(v)) + __fsqrt_ru(fabsf(v)) + __fsqrt_rd(fabsf(v)) + __frsqrt_rn(fabsf(v) + 1.f);
  r += __fdiv_rn(v, w) + __fdiv_rz(v, w) + __fdiv_ru(v, w) + __fdiv_rd(v, w);
  float s, c;
  __sincosf(v, &s, &c);
  y[i] = r + s + c + __fmaf_ieee_rn(v, w, 1.f) + __tanhf(v);
}

__global__ void conversions_sp(const float *x, int *iy, unsigned *uy, long long *ly, float *fy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  iy[i] = __float2int_rn(v) + __float2int_rz(v) + __float2int_ru(v) + __float2int_rd(v) + lrintf(v) + (int)lroundf(v);
  uy[i] = __float2uint_rn(v) ^ __float2uint_rz(v) ^ __float2uint_ru(v) ^ __float2uint_rd(v) ^ __float_as_uint(v);
  ly[i] = __float2ll_rn(v) + __float2ll_rz(v) + __float2ull_ru(v) + llrintf(v) + llroundf(v);
  fy[i] = __int2float_rn(iy[i]) + __int2float_rz(iy[i]) + __uint2float_ru(uy[i]) + __uint2float_rd(uy[i]) +
          __ll2float_rn(ly[i]) + __ull2float_rz((unsigned long long)ly[i]) + __int_as_float(iy[i] & 0x3f800000) +
          (float)isnan(v) + (float)isinf(v) + (float)isfinite(v) + (float)signbit(v) + nanf("") * 0.f +
          nextafterf(v, 0.f) + __frcp_rn(v) + scalbnf(v, 2) + (float)ilogbf(v) + logbf(v);
}
