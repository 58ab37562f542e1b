// Warp reductions for the warp-sync checker's tests. warp_reduce.ptx: nvcc
// -arch=sm_90 -ptx -lineinfo warp_reduce.cu, its .file 1 cut to the name.
// reduceRacy is the legacy warp-synchronous reduction, which relies on
// lockstep execution; reduceSync and reduceShfl are its correct forms.

extern "C" __global__ void reduceRacy(const int* in, int* out) {
  __shared__ volatile int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 32 + tid];
  s[tid + 32] = 0;
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduceSync(const int* in, int* out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 32 + tid];
  s[tid + 32] = 0;
  __syncthreads();
  if (tid < 32) {
    int v = s[tid];
    v += s[tid + 16]; __syncwarp();
    s[tid] = v;       __syncwarp();
    v += s[tid + 8];  __syncwarp();
    s[tid] = v;       __syncwarp();
    v += s[tid + 4];  __syncwarp();
    s[tid] = v;       __syncwarp();
    v += s[tid + 2];  __syncwarp();
    s[tid] = v;       __syncwarp();
    v += s[tid + 1];  __syncwarp();
    s[tid] = v;
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduceShfl(const int* in, int* out) {
  int v = in[blockIdx.x * 32 + threadIdx.x];
  for (int k = 16; k > 0; k /= 2) v += __shfl_down_sync(0xffffffffu, v, k);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
