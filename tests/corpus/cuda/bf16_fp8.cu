// bf16_fp8.cu - covers: cuda_bf16.h __nv_bfloat16/__nv_bfloat162 arithmetic
// and conversions (native on sm_80+, emulated below), bf16 math, and the
// cuda_fp8.h / cuda_fp6.h / cuda_fp4.h narrow formats: __nv_fp8_e4m3,
// __nv_fp8_e5m2, __nv_fp8x2/x4 packed types, __nv_cvt_* conversion helpers
// (cvt.rn.satfinite.e4m3x2.f32 etc. on sm_89+), e8m0 scale factors, fp6, fp4.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>

__global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat162 *b, __nv_bfloat16 *c,
                         __nv_bfloat162 *d, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = a[i], y = a[(i + 1) % n];
  __nv_bfloat16 r = __hadd(x, y) * __hsub(x, y);
#if __CUDA_ARCH__ >= 800
  r = __hfma(r, x, y);
#else
  r = r * x + y;
#endif
  r = __hmax(r, __hmin(x, y)) + __habs(x) + __hneg(y) + __hdiv(x, y);
  r = r + hexp(x) + hlog(__habs(y)) + hsqrt(__habs(x)) + hsin(y) + hcos(x) + hrcp(y) + htrunc(x) + hfloor(y);
#if __CUDA_ARCH__ >= 800
  c[i] = __hlt(x, y) ? r : __hfma_relu(x, y, r);
#else
  c[i] = __hlt(x, y) ? r : x * y;
#endif
  __nv_bfloat162 v = b[i], w = b[(i + 3) % n];
#if __CUDA_ARCH__ >= 800
  __nv_bfloat162 s = __hfma2(v, w, __hadd2(v, w));
  s = __hmul2(s, __hsub2(v, w)) + __hcmadd(v, w, s);
#else
  __nv_bfloat162 s = __hmul2(v, w) + __hadd2(v, w);
  s = __hmul2(s, __hsub2(v, w));
#endif
  s = s + h2exp(v) + h2sqrt(__habs2(w));
  s = __lowhigh2highlow(s) + __halves2bfloat162(__low2bfloat16(v), __high2bfloat16(w));
  d[i] = __hmax2(s, __floats2bfloat162_rn(-1.f, 1.f));
  f[i] = __bfloat162float(r) + __low2float(s) + __high2float(s) + (float)__bfloat162int_rz(x) +
         (float)__bfloat162short_rn(y) + (float)__bfloat162ull_rd(x) +
         __bfloat162float(__float2bfloat16_rz(f[i])) + __bfloat162float(__float2bfloat16_ru(1.3f)) +
         __bfloat162float(__double2bfloat16(0.3 * i)) + __bfloat162float(__int2bfloat16_rn(i)) +
         __bfloat162float(__ushort_as_bfloat16(__bfloat16_as_ushort(x) ^ 0x8000u)) +
         __bfloat162float(__float2bfloat16(__half2float(__float2half(1.5f))));
}

__global__ void fp8_convert(const float *in, __nv_fp8_storage_t *q4, __nv_fp8_storage_t *q5,
                            __nv_fp8x2_storage_t *p2, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  __nv_fp8_e4m3 a(v);
  __nv_fp8_e5m2 b(v * 0.5f);
  __nv_fp8x2_e4m3 a2(make_float2(v, -v));
  __nv_fp8x4_e5m2 b4(make_float4(v, 1.f, 2.f, -v));
  q4[i] = a.__x;
  q5[i] = b.__x;
  p2[i] = __nv_cvt_float2_to_fp8x2(make_float2(v, v * 2.f), __NV_SATFINITE, __NV_E4M3) ^
          __nv_cvt_float2_to_fp8x2(make_float2(v, v * 3.f), __NV_NOSAT, __NV_E5M2);
  __half_raw hr = __nv_cvt_fp8_to_halfraw(q4[i], __NV_E4M3);
  __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2(p2[i], __NV_E5M2);
  __nv_fp8_storage_t fromh = __nv_cvt_halfraw_to_fp8(hr, __NV_SATFINITE, __NV_E5M2);
  __nv_fp8x2_storage_t fromh2 = __nv_cvt_halfraw2_to_fp8x2(h2, __NV_SATFINITE, __NV_E4M3);
  __nv_fp8_storage_t fromb = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(v)), __NV_SATFINITE, __NV_E4M3);
  __nv_fp8_storage_t fromd = __nv_cvt_double_to_fp8((double)v, __NV_SATFINITE, __NV_E5M2);
  float2 f2 = static_cast<float2>(a2);
  float4 f4 = static_cast<float4>(b4);
  out[i] = static_cast<float>(a) + static_cast<float>(b) + __half2float(__half(hr)) + f2.x + f2.y + f4.x + f4.w +
           (float)(fromh + fromh2 + fromb + fromd) + __half2float(static_cast<__half>(a)) +
           __bfloat162float(static_cast<__nv_bfloat16>(b));
}

__global__ void narrow_scale_formats(const float *in, unsigned char *codes, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  __nv_fp8_storage_t e8 = __nv_cvt_float_to_e8m0(v, __NV_SATFINITE, cudaRoundPosInf);
  __nv_fp8x2_storage_t e8x2 = __nv_cvt_float2_to_e8m0x2(make_float2(v, 2.f * v), __NV_NOSAT, cudaRoundZero);
  __nv_bfloat16_raw scale = __nv_cvt_e8m0_to_bf16raw(e8);
  __nv_fp6_storage_t f6 = __nv_cvt_float_to_fp6(v, __NV_E2M3, cudaRoundNearest);
  __nv_fp6_storage_t f6b = __nv_cvt_float_to_fp6(v, __NV_E3M2, cudaRoundNearest);
  __nv_fp4_storage_t f4 = __nv_cvt_float_to_fp4(v, __NV_E2M1, cudaRoundNearest);
  __nv_fp4x2_storage_t f4x2 = __nv_cvt_float2_to_fp4x2(make_float2(v, -v), __NV_E2M1, cudaRoundNearest);
  codes[4 * i + 0] = e8;
  codes[4 * i + 1] = (unsigned char)(e8x2 >> 3);
  codes[4 * i + 2] = f6 ^ f6b;
  codes[4 * i + 3] = (unsigned char)(f4 | (f4x2 << 4));
  __half_raw back6 = __nv_cvt_fp6_to_halfraw(f6, __NV_E2M3);
  __half_raw back4 = __nv_cvt_fp4_to_halfraw(f4, __NV_E2M1);
  out[i] = __bfloat162float(__nv_bfloat16(scale)) + __half2float(__half(back6)) + __half2float(__half(back4));
}
