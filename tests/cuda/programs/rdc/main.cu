// Separate compilation (-rdc=true) across three files: kernels here call
// extern __device__ functions of ops.cu and tables.cu, read and atomically
// update a __device__ variable and a __constant__ array defined in
// tables.cu, and each file has its own static helper() and square<int>
// instantiation and printf string literals of the same internal names.

#include <cstdio>

extern __device__ int mix(int x);         // ops.cu
extern __device__ void ops_hello(void);   // ops.cu
extern __device__ float scaled(float x);  // tables.cu
extern __device__ void tables_hello(void);
extern __device__ int counter;            // tables.cu, initialised to 1000
extern __constant__ int coeffs[4];        // tables.cu

template <typename T>
__device__ __noinline__ T square(T v) {
  return v * v;
}

static __device__ __noinline__ int helper(int x) { return x + 7; }  // ops.cu's helper multiplies

__global__ void compute(int* out, float* fout) {
  int i = threadIdx.x;
  out[i] = mix(i) + helper(i) + square(i) + coeffs[i & 3];
  fout[i] = scaled(static_cast<float>(i)) + square(0.5f * static_cast<float>(i));
  atomicAdd(&counter, i);
}

__global__ void announce() {
  ops_hello();
  tables_hello();
  printf("main.cu: counter is %d\n", counter);
}

// The same computations on the host.
static int hostMix(int x, const int* c) { return 3 * x * 10 + (x + 1) * (x + 1) + c[(x + 1) & 3]; }
static float hostScaled(float x) {
  const float table[4] = {0.5f, 1.25f, 2.0f, -3.0f};
  return x * table[static_cast<int>(x) & 3] + table[1];
}

static int run(const int* c) {
  int *out;
  float* fout;
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMalloc(&fout, 32 * sizeof(float));
  compute<<<1, 32>>>(out, fout);
  int h[32];
  float f[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(f, fout, sizeof f, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) {
    int expect = hostMix(i, c) + i + 7 + i * i + c[i & 3];
    float fexpect = hostScaled(static_cast<float>(i)) + 0.25f * static_cast<float>(i * i);
    if (i % 5 == 0) printf("out[%d] = %d, fout[%d] = %.3f\n", i, h[i], i, f[i]);
    bad += h[i] != expect || f[i] != fexpect;
  }
  printf("check against the host: %s\n", bad == 0 ? "ok" : "MISMATCH");
  cudaFree(out);
  cudaFree(fout);
  return bad;
}

int main() {
  int bad = 0;
  const int initial[4] = {5, -6, 7, -8};
  bad += run(initial);
  const int updated[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeffs, updated, sizeof updated);  // a __constant__ of tables.cu, through its extern
  bad += run(updated);
  announce<<<1, 1>>>();
  cudaDeviceSynchronize();
  int c = 0;
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  printf("counter from the host: %d (expected %d)\n", c, 1000 + 2 * (31 * 32 / 2));
  cudaError_t e = cudaGetLastError();
  printf("last error: %s\n", cudaGetErrorName(e));
  return bad == 0 && c == 1000 + 2 * 496 && e == cudaSuccess ? 0 : 1;
}
