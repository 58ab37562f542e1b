// warp.cu - covers: warp-level intrinsics: __shfl_sync / __shfl_up_sync /
// __shfl_down_sync / __shfl_xor_sync on int, unsigned, float, double,
// long long with widths; votes (__ballot_sync, __any_sync, __all_sync,
// __uni_sync), __activemask, __syncwarp with partial masks, __match_any_sync /
// __match_all_sync (match.sync), __reduce_{add,min,max,and,or,xor}_sync
// (redux.sync, sm_80+), %lanemask_* special registers, warp-aggregated atomics.

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }
#define LANEMASK(name)                                              \
  __device__ __forceinline__ unsigned lanemask_##name() {           \
    unsigned m;                                                     \
    asm("mov.u32 %0, %%lanemask_" #name ";" : "=r"(m));             \
    return m;                                                       \
  }
LANEMASK(lt)
LANEMASK(le)
LANEMASK(eq)
LANEMASK(gt)
LANEMASK(ge)

__global__ void shuffles(const int *in, int *iout, float *fout, double *dout, long long *lout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  const unsigned full = 0xffffffffu;
  int a = __shfl_sync(full, v, 0);
  int b = __shfl_sync(full, v, (lane_id() + 5) & 31, 16);
  int c = __shfl_up_sync(full, v, 1);
  int d = __shfl_up_sync(full, v, 3, 8);
  int e = __shfl_down_sync(full, v, 2);
  int f = __shfl_down_sync(full, v, 1, 4);
  int g = __shfl_xor_sync(full, v, 7);
  unsigned h = __shfl_xor_sync(full, (unsigned)v, 1, 2);
  float fv = (float)v * 0.5f;
  for (int off = 16; off; off >>= 1) fv += __shfl_xor_sync(full, fv, off);
  double dv = (double)v;
  for (int off = 1; off < 32; off <<= 1) {
    double t = __shfl_up_sync(full, dv, off);
    if ((int)lane_id() >= off) dv += t;
  }
  long long lv = (long long)v << 20;
  lv = __shfl_down_sync(full, lv, 4) + __shfl_sync(full, lv, 31);
  unsigned long long ul = __shfl_sync(full, (unsigned long long)lv, 2);
  if (i < n) {
    iout[i] = a + b + c + d + e + f + g + (int)h;
    fout[i] = fv;
    dout[i] = dv;
    lout[i] = lv ^ (long long)ul;
  }
}

__global__ void votes(const int *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -1;
  unsigned active = __activemask();
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v == 42);
  int all = __all_sync(0xffffffffu, v >= 0);
  int uni = __uni_sync(0xffffffffu, v & 1);
  unsigned res = ballot ^ active ^ (any << 1) ^ (all << 2) ^ (uni << 3);
  if (v & 1) {
    unsigned odd = __activemask();
    __syncwarp(odd);
    res += __popc(__ballot_sync(odd, v > 100));
  } else {
    __syncwarp(~ballot);
  }
  res ^= lanemask_lt() + lanemask_le() + lanemask_eq() + lanemask_gt() + lanemask_ge();
  __syncwarp();
  if (i < n) out[i] = res;
}

__global__ void matching(const int *keys, const long long *lkeys, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = i < n ? keys[i] : 0;
  long long lk = i < n ? lkeys[i] : 0;
  unsigned peers = __match_any_sync(0xffffffffu, k);
  unsigned lpeers = __match_any_sync(0xffffffffu, lk);
  int pred = 0;
  unsigned allm = __match_all_sync(0xffffffffu, k, &pred);
  unsigned allml = __match_all_sync(0xffffffffu, (unsigned long long)lk, &pred);
  int leader = __ffs(peers) - 1;
  if (i < n) out[i] = peers + lpeers + allm + allml + pred + (unsigned)leader;
}

__global__ void warp_reductions(const unsigned *in, unsigned *out, int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 0u;
  unsigned r = 0;
#if __CUDA_ARCH__ >= 800
  r += __reduce_add_sync(0xffffffffu, v);
  r += __reduce_min_sync(0xffffffffu, v);
  r += __reduce_max_sync(0xffffffffu, v);
  r += (unsigned)__reduce_add_sync(0xffffffffu, (int)v);
  r += (unsigned)__reduce_min_sync(0xffffffffu, (int)v - 7);
  r += (unsigned)__reduce_max_sync(0x0000ffffu | __activemask(), (int)v);
  r ^= __reduce_and_sync(0xffffffffu, v) ^ __reduce_or_sync(0xffffffffu, v) ^ __reduce_xor_sync(0xffffffffu, v);
#else
  for (int off = 16; off; off >>= 1) r += __shfl_xor_sync(0xffffffffu, v, off);
#endif
  // Warp-aggregated atomic increment.
  unsigned mask = __ballot_sync(0xffffffffu, v & 1u);
  int base = 0;
  if (v & 1u) {
    int leader = __ffs(mask) - 1;
    if ((int)lane_id() == leader) base = atomicAdd(counter, __popc(mask));
    base = __shfl_sync(mask, base, leader) + __popc(mask & lanemask_lt());
  }
  if (i < n) out[i] = r + (unsigned)base;
}
