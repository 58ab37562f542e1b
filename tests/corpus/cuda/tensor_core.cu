// tensor_core.cu - covers: nvcuda::wmma fragments, load_matrix_sync,
// mma_sync, store_matrix_sync, fill_fragment for f16 (f16 and f32
// accumulators, row/col layouts, m16n16k16/m32n8k16/m8n32k16), s8/u8 -> s32,
// and on sm_80+ bf16, tf32 (with __float_to_tf32) and f64 (m8n8k4); plus
// warp-level inline PTX ldmatrix (sm_75+) and mma.sync.aligned (sm_80+).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K, typename AL, typename BL>
__global__ void wmma_half(const __half *a, const __half *b, const float *c, float *d, __half *dh, int lda) {
  wmma::fragment<wmma::matrix_a, M, N, K, __half, AL> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, __half, BL> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fragment<wmma::accumulator, M, N, K, __half> acch;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, lda);
  wmma::load_matrix_sync(acc, c, N, wmma::mem_row_major);
  wmma::fill_fragment(acch, __float2half(0.f));
  for (int k = 0; k < 2; ++k) {
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::mma_sync(acch, fa, fb, acch);
  }
  for (int t = 0; t < acc.num_elements; ++t) acc.x[t] = fmaxf(acc.x[t], 0.f);
  wmma::store_matrix_sync(d, acc, N, wmma::mem_col_major);
  wmma::store_matrix_sync(dh, acch, N, wmma::mem_row_major);
}
template __global__ void wmma_half<16, 16, 16, wmma::row_major, wmma::col_major>(const __half *, const __half *, const float *, float *, __half *, int);
template __global__ void wmma_half<32, 8, 16, wmma::col_major, wmma::row_major>(const __half *, const __half *, const float *, float *, __half *, int);
template __global__ void wmma_half<8, 32, 16, wmma::row_major, wmma::row_major>(const __half *, const __half *, const float *, float *, __half *, int);

__global__ void wmma_int8(const signed char *a, const unsigned char *b, const signed char *a2, int *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> ua;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> ub;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, a2, 16);
  wmma::load_matrix_sync(ua, b, 16);
  wmma::load_matrix_sync(ub, b + 256, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::mma_sync(acc, ua, ub, acc, true);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

__global__ void wmma_sm80_types(const __nv_bfloat16 *ab, const float *af, const double *ad, float *d, double *dd) {
#if __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> bacc;
  wmma::fill_fragment(bacc, 1.f);
  wmma::load_matrix_sync(ba, ab, 16);
  wmma::load_matrix_sync(bb, ab + 256, 16);
  wmma::mma_sync(bacc, ba, bb, bacc);
  wmma::store_matrix_sync(d, bacc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tacc;
  wmma::fill_fragment(tacc, 0.f);
  wmma::load_matrix_sync(ta, af, 8);
  wmma::load_matrix_sync(tb, af + 128, 8);
  for (int t = 0; t < ta.num_elements; ++t) ta.x[t] = wmma::__float_to_tf32(ta.x[t]);
  wmma::mma_sync(tacc, ta, tb, tacc);
  wmma::store_matrix_sync(d + 256, tacc, 16, wmma::mem_col_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> dacc;
  wmma::fill_fragment(dacc, 0.0);
  wmma::load_matrix_sync(da, ad, 4);
  wmma::load_matrix_sync(db, ad + 32, 4);
  wmma::mma_sync(dacc, da, db, dacc);
  wmma::store_matrix_sync(dd, dacc, 8, wmma::mem_row_major);
#else
  if (threadIdx.x == 0) d[0] = (float)ad[0] + af[0] + __bfloat162float(ab[0]);
  if (threadIdx.x == 0) dd[0] = 0.0;
#endif
}

__global__ void mma_ptx(const __half *a, const __half *b, float *d) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  int lane = threadIdx.x & 31;
  for (int k = lane; k < 256; k += 32) sa[k] = a[k];
  for (int k = lane; k < 128; k += 32) sb[k] = b[k];
  __syncwarp();
  unsigned ra[4], rb[2];
  unsigned sa_addr = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
  unsigned sb_addr = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3]) : "r"(sa_addr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(rb[0]), "=r"(rb[1]) : "r"(sb_addr));
  float c[4] = {0.f, 0.f, 0.f, 0.f};
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
#else
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]));
#endif
  for (int k = 0; k < 4; ++k) d[lane * 4 + k] = c[k];
}
