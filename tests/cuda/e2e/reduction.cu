// Block sums: a grid-stride accumulation per thread, a warp reduction with
// __shfl_down_sync, the warp sums through shared memory, and a second warp
// reduction by warp 0. out[blockIdx.x] receives the block's sum. Two
// element types: u32 (exact whatever the order) and f32 (the order is fixed
// by the code, so a host replaying it gets the same bits).

template <typename T>
__device__ T warpReduceSum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T>
__device__ void blockReduce(const T* in, T* out, int n) {
  __shared__ T warpSums[32];
  T acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  acc = warpReduceSum(acc);
  if (lane == 0) warpSums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    T v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : T(0);
    v = warpReduceSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

extern "C" __global__ void reduce_u32(const unsigned* in, unsigned* out, int n) { blockReduce(in, out, n); }

extern "C" __global__ void reduce_f32(const float* in, float* out, int n) { blockReduce(in, out, n); }
