// control_flow.cu - covers: switch statements (dense, sparse, fall-through),
// nested loops with #pragma unroll / unroll N / unroll 1, while, do-while,
// goto, break/continue, early return, short-circuit logic, selp-style
// ternaries, __builtin_expect/__builtin_assume/__builtin_unreachable, block
// votes (__syncthreads_count/and/or), and kernel attributes: __launch_bounds__
// (maxntid/minnctapersm, and maxclusterrank on sm_90+), __maxnreg__,
// __grid_constant__ parameters, large by-value struct parameters,
// __block_size__ (reqntid, sm_90+) and __cluster_dims__ (sm_90+).

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CLUSTER_ATTR
#define BLOCK_SIZE_ATTR
#define LB_CLUSTER __launch_bounds__(128, 2)
#else
#define CLUSTER_ATTR __cluster_dims__(2, 1, 1)
#define BLOCK_SIZE_ATTR __block_size__((64, 2, 1))
#define LB_CLUSTER __launch_bounds__(128, 2, 4)
#endif

struct Config { int mode; float gain; int taps[8]; double offset; };

__device__ __noinline__ float dispatch(int op, float v, float w) {
  switch (op) {
    case 0: return v + w;
    case 1: return v - w;
    case 2: return v * w;
    case 3: return w != 0.f ? v / w : 0.f;
    case 4: return fmaxf(v, w);
    case 5: return fminf(v, w);
    case 6: v = -v;  // fall through
    case 7: return v * v;
    case 100: return 1.f;
    case 2000: return 2.f;
    case -5: return -5.f;
    default: return 0.f;
  }
}

__global__ void __launch_bounds__(256, 2) loops(const float *in, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__builtin_expect(i >= n, 0)) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += in[(i + k) % n] * (float)(k + 1);
#pragma unroll 4
  for (int k = 0; k < m; ++k) acc = acc * 0.99f + in[(i * 3 + k) % n];
#pragma unroll 1
  for (int k = 0; k < m; k += 3) {
    if (in[k % n] < 0.f) continue;
    if (acc > 1e6f) break;
    acc += dispatch(k % 9, acc, in[k % n]);
  }
  int j = 0;
  while (j < m && in[(i + j) % n] > -1.f) ++j;
  do {
    acc -= 0.5f;
  } while (acc > 100.f);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < a; ++b) {
      if ((a ^ b) == 3) goto done;
      acc += (float)(a * b);
    }
done:
  out[i] = acc + (float)j;
}

__global__ void __maxnreg__(32) limited_regs(const int *ops, const float *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float r = v[i];
  for (int k = 0; k < 4; ++k) r = dispatch(ops[(i + k) % n], r, v[(i + k + 1) % n]);
  out[i] = (i & 1) && r > 0.f ? r : ((i & 2) || r < -1.f ? -r : 0.f);
}

__global__ void by_value_params(const __grid_constant__ Config cfg, Config plain, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Config *pc = &cfg;  // address of a grid-constant parameter
  float acc = 0.f;
  for (int k = 0; k < 8; ++k) acc += (float)(pc->taps[k] * plain.taps[(k + i) & 7]);
  __builtin_assume(cfg.mode >= 0);
  switch (cfg.mode & 3) {
    case 0: out[i] = acc * cfg.gain; break;
    case 1: out[i] = acc + (float)cfg.offset; break;
    case 2: out[i] = acc - plain.gain; break;
    case 3: out[i] = (float)plain.offset; break;
    default: __builtin_unreachable();
  }
}

__global__ void block_votes(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int cnt = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v != 0);
  int any = __syncthreads_or(v < 0);
  if (i < n) out[i] = cnt * 4 + all * 2 + any;
}

__global__ void LB_CLUSTER cluster_bounds(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)blockIdx.x;
}

__global__ void CLUSTER_ATTR clustered(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)threadIdx.x;
}

__global__ void BLOCK_SIZE_ATTR fixed_block(float *out, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.f;
}
