// fp16.cu - covers: cuda_fp16.h __half and __half2 arithmetic (hadd, hmul,
// hfma, hfma2, relu, sat), comparisons, conversions with rounding modes
// (float/int/short/double <-> half), half2 packing (__floats2half2_rn,
// __halves2half2, __low2half, __high2half, __lowhigh2highlow), half math
// (hexp, hlog, hsqrt, hrsqrt, hsin, htanh, h2exp2, h2rcp), and half warp shuffles.
#include <cuda_fp16.h>

__global__ void half_scalar(const __half *a, const __half *b, __half *c, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i];
  __half r = __hadd(x, y) + __hsub(x, y) * __hmul(x, y);
  r = __hfma(x, y, r);
  r = __hadd_sat(r, __hmul_sat(x, y));
  r = __hfma_sat(r, x, y);
  r = __hneg(r) + __habs(x) + __hdiv(x, y);
  r = __hmax(r, __hmin(x, y));
#if __CUDA_ARCH__ >= 800
  r = __hfma_relu(r, x, y);
  r = __hmax_nan(r, __hmin_nan(x, y));
#endif
  r = r + hexp(x) + hlog(y) + hsqrt(__habs(x)) + hrsqrt(__habs(y)) + hsin(x) + hcos(y) + hexp2(x) + hlog2(y) + hrcp(y);
  r = r + hfloor(x) + hceil(y) + htrunc(x) + hrint(y) + htanh(x) + htanh_approx(y);
  bool p = __heq(x, y) || __hlt(x, y) || __hgeu(x, y) || __hisnan(x) || __hisinf(y) != 0;
  c[i] = p ? r : x;
  f[i] = __half2float(r) + __low2float(__halves2half2(x, y)) + (float)__half2int_rz(x) + (float)__half2uint_rd(y) +
         (float)__half2short_rn(x) + (float)__half2ll_ru(y) + __half2float(__float2half_rz(f[i])) +
         __half2float(__float2half_ru(1.1f)) + __half2float(__float2half_rd(2.2f)) +
         __half2float(__int2half_rn(i)) + __half2float(__uint2half_rz(i)) + __half2float(__double2half(0.1 * i)) +
         __half2float(__short_as_half(__half_as_short(x) ^ 0x8000)) + __half2float(__ushort2half_rn((unsigned short)i));
}

__global__ void half2_vector(const __half2 *a, const __half2 *b, __half2 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  __half2 r = __hadd2(x, y);
  r = __hfma2(x, y, r);
  r = __hmul2(r, __hsub2(x, y)) + __h2div(x, y);
  r = __hfma2_sat(r, x, y);
  r = __hadd2_sat(r, __hmul2_sat(x, y));
#if __CUDA_ARCH__ >= 800
  r = __hfma2_relu(r, x, y);
  r = __hmax2(r, __hmin2(x, y));
  r = __hcmadd(x, y, r);
#endif
  r = __hneg2(r) + __habs2(x) + h2exp(x) + h2log(y) + h2sqrt(__habs2(x)) + h2rsqrt(__habs2(y)) + h2sin(x) + h2cos(y) + h2rcp(y);
  r = __lowhigh2highlow(r) + __low2half2(x) + __high2half2(y) + __halves2half2(__low2half(x), __high2half(y));
  __half2 m = __hlt2(x, y) + __hge2(x, y) + __hequ2(x, y);
  unsigned mask = __hgt2_mask(x, y) ^ __hle2_mask(x, y);
  bool both = __hbeq2(x, y) || __hbltu2(x, y);
  float2 fl = __half22float2(r);
  __half2 back = __floats2half2_rn(fl.x + __half2float(m.x), fl.y - (float)mask);
  back = __hadd2(back, __float22half2_rn(make_float2(both ? 1.f : 0.f, 2.f)));
  back = __hadd2(back, __float2half2_rn(0.5f)) + __half2half2(__float2half(0.25f));
  c[i] = back;
}

__global__ void half_shuffle_dot(const __half2 *a, const __half2 *b, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 acc = __float2half2_rn(0.f);
  for (int k = i; k < n; k += blockDim.x * gridDim.x) acc = __hfma2(a[k], b[k], acc);
  for (int off = 16; off > 0; off >>= 1) acc = __hadd2(acc, __shfl_xor_sync(0xffffffffu, acc, off));
  __half h = __hadd(__low2half(acc), __high2half(acc));
  h = __hadd(h, __shfl_down_sync(0xffffffffu, h, 1));
  __half v = __ldg(&out[0]) + __ldcs(&out[1]) + __ldca(&out[2]);
  if ((threadIdx.x & 31) == 0) out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 + 3] = __hadd(h, v);
}
