// 256-bin histogram of bytes: each block counts into shared bins with
// shared-memory atomics, then adds its bins to the global ones with global
// atomics. bins must be zeroed before the launch.

#define BINS 256

extern "C" __global__ void histogram256(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
