// memory_spaces.cu - covers: dynamic shared memory (extern __shared__, several
// typed views of it), static shared arrays (1-D, 2-D, structs), __constant__
// data with initializers (scalars, arrays, structs), __device__ globals with
// initializers: arrays, structs, pointers to other globals and into the middle
// of arrays (generic(sym)+off), string tables, function-pointer-free aggregate
// initializers, __managed__ variables, local arrays indexed dynamically (local
// memory / stack), address-space predicates (__isGlobal/__isShared/...),
// generic<->specific conversions (cvta), and cache-hint loads/stores
// (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs, __stwt).
#include <cstdint>

struct Params { float scale; int offset; double bias; short flags[4]; };

__constant__ float c_coeffs[8] = {1.f, 0.5f, 0.25f, 0.125f, -1.f, -0.5f, 3.14159f, 2.71828f};
__constant__ Params c_params = {2.0f, 17, -0.75, {1, 2, 3, 4}};
__constant__ int c_lut[4][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
__constant__ unsigned long long c_big = 0xfedcba9876543210ull;
__constant__ double c_dbl[3] = {1e-300, 1.5, -2.0e300};

__device__ int g_table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__device__ int g_counter = 0;
__device__ int *g_ptr = &g_table[4];
__device__ int *g_ptrs[3] = {&g_table[0], &g_counter, &g_table[15]};
__device__ const char *g_names[3] = {"alpha", "beta", "gamma"};
__device__ float g_matrix[2][3] = {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}};
__device__ Params g_params = {1.25f, -3, 0.5, {9, 8, 7, 6}};
__device__ Params *g_params_ptr = &g_params;
__device__ unsigned char g_bytes[7] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03};
__device__ float g_zeroed[64];
__device__ __managed__ int m_value = 42;
__device__ __managed__ float m_array[4] = {0.f, 1.f, 2.f, 3.f};

__global__ void dyn_shared(const float *in, float *out, int n) {
  extern __shared__ float4 dyn4[];
  float *dynf = reinterpret_cast<float *>(dyn4);
  int *dyni = reinterpret_cast<int *>(dynf + blockDim.x * 4);
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  dyn4[t] = make_float4(i < n ? in[i] : 0.f, 1.f, 2.f, 3.f);
  dyni[t] = t * c_lut[t & 3][(t >> 2) & 3];
  __syncthreads();
  float4 nb = dyn4[(t + 1) % blockDim.x];
  float acc = nb.x + nb.y * c_coeffs[t & 7] + (float)dyni[blockDim.x - 1 - t];
  if (i < n) out[i] = acc * c_params.scale + c_params.offset + (float)c_params.bias + c_params.flags[t & 3] +
                     (float)(c_big >> (t & 63)) + (float)c_dbl[t % 3];
}

__global__ void static_shared(const int *in, int *out, int n) {
  __shared__ int tile[16][17];
  __shared__ Params sp;
  __shared__ unsigned long long s64[8];
  __shared__ short s16[32];
  int tx = threadIdx.x & 15, ty = (threadIdx.x >> 4) & 15;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[ty][tx] = i < n ? in[i] : 0;
  if (threadIdx.x == 0) sp = g_params;
  if (threadIdx.x < 8) s64[threadIdx.x] = (unsigned long long)threadIdx.x << 40;
  if (threadIdx.x < 32) s16[threadIdx.x] = (short)-threadIdx.x;
  __syncthreads();
  if (i < n)
    out[i] = tile[tx][ty] + sp.offset + (int)(s64[tx & 7] >> 40) + s16[tx + ty] + *g_ptr + *g_ptrs[tx % 3] +
             g_names[tx % 3][1] + (int)g_matrix[ty & 1][tx % 3] + g_params_ptr->flags[ty & 3] + g_bytes[tx % 7] + m_value +
             (int)m_array[tx & 3];
  atomicAdd(&g_counter, 1);
  g_zeroed[threadIdx.x & 63] = (float)g_counter;
}

__global__ void local_arrays(const int *idx, const float *vals, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float hist[32];
  int perm[24];
  double acc[5] = {0, 0, 0, 0, 0};
  for (int k = 0; k < 32; ++k) hist[k] = 0.f;
  for (int k = 0; k < 24; ++k) perm[k] = (k * 7 + i) % 24;
  for (int k = 0; k < 16; ++k) {
    int b = idx[(i + k) % n] & 31;
    hist[b] += vals[(i + k) % n];
    acc[b % 5] += hist[perm[b % 24] & 31];
  }
  float best = hist[idx[i] & 31];
  for (int k = 0; k < 32; ++k) best = fmaxf(best, hist[perm[k % 24]]);
  out[i] = best + (float)(acc[0] + acc[1] + acc[2] + acc[3] + acc[4]);
}

__device__ __noinline__ int space_kind(const void *p) {
  return (__isGlobal(p) ? 1 : 0) | (__isShared(p) ? 2 : 0) | (__isConstant(p) ? 4 : 0) | (__isLocal(p) ? 8 : 0);
}

__global__ void address_spaces(const float *__restrict__ in, float *__restrict__ out, int *kinds, int n) {
  __shared__ float sbuf[128];
  float local[4] = {1.f, 2.f, 3.f, 4.f};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  sbuf[threadIdx.x & 127] = in[i];
  size_t saddr = __cvta_generic_to_shared(&sbuf[threadIdx.x & 127]);
  const void *back = __cvta_shared_to_generic(saddr);
  kinds[i] = space_kind(in) + space_kind(&sbuf[0]) + space_kind(&c_coeffs[0]) + space_kind(&local[i & 3]) +
             space_kind(back) + (int)(__cvta_generic_to_global(out) & 1) + (int)(__cvta_generic_to_constant(c_coeffs) & 3);
  float v = __ldg(&in[i]) + __ldcg(&in[i]) + __ldca(&in[i]) + __ldcs(&in[i]) + __ldlu(&in[i]) + __ldcv(&in[i]);
  float4 v4 = __ldg(reinterpret_cast<const float4 *>(in) + (i >> 2));
  int2 i2 = __ldg(reinterpret_cast<const int2 *>(in) + (i >> 1));
  __stwb(&out[i], v + v4.x + v4.w);
  __stcg(&out[n + i], (float)i2.x);
  __stcs(&out[2 * n + i], (float)i2.y);
  __stwt(&out[3 * n + i], local[i & 3]);
}
