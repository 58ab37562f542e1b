// rdc_b.cu - separate compilation (-rdc=true), defining side: externally
// visible __device__ functions and variables (.visible .func / .visible
// .global / .visible .const) used from rdc_a.cu, a weak device function and
// a template instantiated here (.weak .func), and a kernel of its own.

__device__ int rdc_counter = 0;
__device__ float rdc_table[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
__device__ float *rdc_table_ptr = &rdc_table[3];
__constant__ float rdc_coeffs[4] = {1.f, -2.f, 3.f, -4.f};

__device__ float rdc_scale(float x, int k) {
  atomicAdd(&rdc_counter, 1);
  return x * rdc_table[k & 7] + rdc_coeffs[k & 3];
}

__device__ __noinline__ long long rdc_mix(long long a, unsigned b) { return (a << 3) ^ (long long)b * 2654435761ll; }

__device__ __attribute__((weak)) int rdc_hook(int v) { return v + 1; }

template <typename T> __device__ __noinline__ T rdc_square(T v) { return v * v; }
template __device__ float rdc_square<float>(float);
template __device__ double rdc_square<double>(double);

__global__ void rdc_b_kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = rdc_scale((float)i, i) + rdc_square(*rdc_table_ptr) + (float)rdc_hook(i);
}
