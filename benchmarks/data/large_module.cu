// Source of the large nvcc-generated PTX module that the front-end
// benchmark parses: 1400 instantiations of a templated kernel with math
// library calls, shuffles, printf and atomics. `nvcc -arch=sm_90 -ptx`
// turns it into about 10.8 MB of PTX (see make_large_module.sh).
#include <cstdio>
#include <utility>

template <int N>
__device__ float polynomial(float x) {
  float r = 0.f;
  for (int i = 0; i < N; i++) r = r * x + sinf(x * i) + expf(-x / (i + 1));
  return r;
}

template <int N>
__global__ void kernel(float* out, const float* in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  tile[threadIdx.x] = polynomial<N>(v);
  __syncthreads();
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (i < n) {
    out[i] = v + tile[(threadIdx.x + N) & 255];
    if (v > 1e30f) printf("large %d %f\n", i, v);
    atomicAdd(out, v);
  }
}

template <int... Ns>
void launchAll(float* out, const float* in, std::integer_sequence<int, Ns...>) {
  (kernel<Ns + 1><<<1, 1>>>(out, in, 1), ...);
}

void launchEverything(float* out, const float* in) {
  launchAll(out, in, std::make_integer_sequence<int, 1400>{});
}
