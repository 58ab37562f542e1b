// math_dp.cu - covers: double-precision math library (sin, cos, exp, log, pow,
// erf, lgamma, sincos, rsqrt, cbrt, ...), explicitly rounded double intrinsics
// (__dadd_rz, __dmul_ru, __ddiv_ru, __dsqrt_rd, __drcp_rn, __fma_rz), double<->
// float/int conversions with rounding, __double2hiint/__hiloint2double, and
// 64/128-bit integer arithmetic (long long, __int128, __umul64hi, __mulhi, popc,
// clz, ffs, brev, byte_perm, funnel shifts, sad, hadd), .b128 inline-PTX operands.
#include <math.h>

__global__ void libm_dp(const double *__restrict__ x, double *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i], acc = 0.0;
  acc += sin(v) + cos(v) + tan(v) + asin(v * 0.1) + acos(v * 0.1) + atan(v) + atan2(v, 3.0);
  acc += exp(v) + exp2(v) + exp10(v) + expm1(v) + log(fabs(v) + 1.0) + log2(fabs(v) + 1.0);
  acc += log10(fabs(v) + 1.0) + log1p(fabs(v)) + pow(fabs(v), 2.5) + sqrt(fabs(v)) + rsqrt(fabs(v) + 1.0);
  acc += erf(v) + erfc(v) + erfinv(v * 0.1) + erfcx(v) + lgamma(v) + tgamma(v) + cbrt(v) + hypot(v, 2.0);
  acc += sinh(v) + cosh(v) + tanh(v) + asinh(v) + acosh(fabs(v) + 1.0) + atanh(v * 0.1);
  acc += fmod(v, 1.5) + remainder(v, 0.25) + fma(v, v, 1.0) + fmin(v, 0.0) + fmax(v, 1.0) + copysign(1.0, v);
  acc += sinpi(v) + cospi(v) + normcdf(v) + j1(v) + yn(2, fabs(v) + 1.0) + cyl_bessel_i0(v);
  double s, c;
  sincos(v, &s, &c);
  acc += s - c;
  sincospi(v, &s, &c);
  acc += s * c;
  int q;
  acc += remquo(v, 0.3, &q) + q + ldexp(v, -2) + scalbn(v, 4) + nextafter(v, 1.0);
  y[i] = acc + trunc(v) + round(v) + rint(v) + nearbyint(v) + floor(v) + ceil(v);
}

__global__ void intrinsics_dp(const double *x, double *y, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = x[n - 1 - i];
  double r = __dadd_rn(a, b) + __dadd_rz(a, b) + __dadd_ru(a, b) + __dadd_rd(a, b);
  r += __dsub_rn(a, b) + __dsub_ru(a, b) + __dmul_rn(a, b) + __dmul_rz(a, b) + __dmul_ru(a, b) + __dmul_rd(a, b);
  r += __ddiv_rn(a, b) + __ddiv_rz(a, b) + __ddiv_ru(a, b) + __ddiv_rd(a, b);
  r += __drcp_rn(b) + __drcp_rz(b) + __drcp_ru(b) + __drcp_rd(b);
  r += __dsqrt_rn(fabs(a)) + __dsqrt_rz(fabs(a)) + __dsqrt_ru(fabs(a)) + __dsqrt_rd(fabs(a));
  r += __fma_rn(a, b, r) + __fma_rz(a, b, r) + __fma_ru(a, b, r) + __fma_rd(a, b, r);
  int hi = __double2hiint(r), lo = __double2loint(r);
  y[i] = __hiloint2double(hi ^ 0x10, lo) + __longlong_as_double(__double_as_longlong(a) & ~1ll);
  f[i] = __double2float_rn(r) + __double2float_rz(r) + __double2float_ru(r) + __double2float_rd(r) +
         (float)__double2int_rz(a) + (float)__double2uint_ru(fabs(b)) + (float)__double2ll_rd(a) +
         (float)__double2ull_rn(fabs(a)) + (float)__ll2double_rz(hi) + (float)__ull2double_ru(lo) +
         (float)__int2double_rn(hi) + (float)__uint2double_rn(lo);
}

__global__ void int64_ops(const long long *a, const unsigned long long *b, long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = a[i];
  unsigned long long u = b[i];
  long long r = x / (long long)(u | 1) + x % 977 + (x >> 7) + (long long)(u >> 13) + (x * 0x9E3779B97F4A7C15ll);
  r += __mul64hi(x, (long long)u) + (long long)__umul64hi(u, 0xdeadbeefcafef00dull);
  r += __popcll(u) + __clzll(x) + __ffsll(x) + (long long)__brevll(u) + llabs(x) + llmin(x, 5) + ullmax(u, 7ull);
  unsigned w = (unsigned)u;
  r += __popc(w) + __clz((int)w) + __ffs((int)w) + __brev(w) + __byte_perm(w, w >> 3, 0x3210 ^ (i & 0x7777));
  r += __funnelshift_l(w, w >> 5, i) + __funnelshift_r(w, w << 3, i) + __funnelshift_lc(w, 1u, i) + __funnelshift_rc(w, 2u, i);
  r += __mulhi((int)w, 77) + __umulhi(w, 0x12345u) + __mul24((int)w, 3) + __umul24(w, 5u);
  r += __sad((int)w, 3, 1u) + __usad(w, 9u, 2u) + __hadd((int)w, 5) + __rhadd((int)w, 6) + __uhadd(w, 7u) + __urhadd(w, 8u);
  out[i] = r;
}

__global__ void int128_ops(const unsigned long long *a, unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned __int128 x = ((unsigned __int128)a[2 * i] << 64) | a[2 * i + 1];
  __int128 y = (__int128)x * 6364136223846793005ll - ((__int128)1 << 100);
  unsigned __int128 q = x / ((unsigned __int128)a[2 * i] | 3) + x % 1000000007ull;
  __int128 s = y >> 37;
  unsigned __int128 t = (q << 5) ^ (x >> 3) ^ (unsigned __int128)s;
  // 128-bit registers in inline PTX ("q" constraint, .b128 / mov.b128).
  unsigned long long lo, hi;
  asm("mov.b128 {%0, %1}, %2;" : "=l"(lo), "=l"(hi) : "q"(t));
  unsigned __int128 swapped;
  asm("mov.b128 %0, {%1, %2};" : "=q"(swapped) : "l"(hi), "l"(lo));
  out[2 * i] = (unsigned long long)(swapped >> 64) ^ lo;
  out[2 * i + 1] = (unsigned long long)swapped + (y < 0 ? 1 : 0) + (x > q ? 2 : 0) + hi;
}
