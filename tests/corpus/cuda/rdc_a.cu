// rdc_a.cu - separate compilation (-rdc=true), using side: calls to
// functions defined in rdc_b.cu and accesses to its variables (.extern .func,
// .extern .global, .extern .const), an extern dynamic-shared declaration,
// device-side kernel launch (CUDA dynamic parallelism: cudaGetParameterBufferV2
// / cudaLaunchDeviceV2) and cudaDeviceSynchronize-free parent/child kernels.

extern __device__ int rdc_counter;
extern __device__ float rdc_table[8];
extern __constant__ float rdc_coeffs[4];
extern __device__ float rdc_scale(float x, int k);
extern __device__ long long rdc_mix(long long a, unsigned b);
extern __device__ int rdc_hook(int v);
template <typename T> extern __device__ T rdc_square(T v);

__global__ void rdc_child(float *data, int n, float add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += add;
}

__global__ void rdc_a_kernel(const float *in, float *out, long long *mix, int n) {
  extern __shared__ float scratch[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  if (i >= n) return;
  float v = rdc_scale(scratch[threadIdx.x], i) + rdc_table[i & 7] * rdc_coeffs[i & 3];
  v += rdc_square(v) + (float)rdc_square((double)v) + (float)rdc_hook(i);
  out[i] = v + (float)rdc_counter;
  mix[i] = rdc_mix((long long)i, (unsigned)rdc_counter);
}

__global__ void rdc_parent(float *data, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    rdc_child<<<(n + 127) / 128, 128>>>(data, n, 1.f);
    rdc_child<<<1, 32, 0, cudaStreamFireAndForget>>>(data, n < 32 ? n : 32, 2.f);
  }
}
