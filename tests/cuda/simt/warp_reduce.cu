// Warp-synchronous reductions of 64 values per block into out[blockIdx.x]:
//
// - legacy: the pre-Volta idiom, a volatile shared array and no
//   synchronisation between steps, which assumes the warp runs in lockstep
//   (racy under independent thread scheduling);
// - synced: the same steps with __syncwarp() between the reads and the
//   writes, correct under any schedule;
// - shuffled: __shfl_down_sync, no shared memory at all.

__device__ void legacyWarpReduce(volatile int* s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

extern "C" __global__ void legacy(const int* in, int* out) {
  __shared__ int s[64];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  s[tid + 32] = in[blockIdx.x * 64 + tid + 32];
  __syncthreads();
  if (tid < 32) legacyWarpReduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void synced(const int* in, int* out) {
  __shared__ int s[64];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 64 + tid];
  s[tid + 32] = in[blockIdx.x * 64 + tid + 32];
  __syncthreads();
  int v = s[tid];
  for (int offset = 32; offset > 0; offset /= 2) {
    v += s[tid + offset];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void shuffled(const int* in, int* out) {
  int tid = threadIdx.x;
  int v = in[blockIdx.x * 64 + tid] + in[blockIdx.x * 64 + tid + 32];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (tid == 0) out[blockIdx.x] = v;
}
