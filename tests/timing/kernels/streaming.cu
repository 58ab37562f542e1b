// Timing-accuracy suite, streaming kernels: few instructions per byte, so the
// time is the DRAM's and the L2's (large grids of thousands of blocks).

#include "suite.h"

constexpr int kStreamN = 1 << 19;  // 512 Ki floats: 2 MiB per array
constexpr int kVectorN = 1 << 21;  // 2 Mi floats for the vectorised add
constexpr int kMatRows = 2048, kMatCols = 1024;
constexpr int kConvN = 1 << 18, kConvTaps = 9;

// Memory-bound: one load and one store per thread, 2048 blocks.
__global__ void copyKernel(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Memory-bound: two loads, one FMA, one store per thread.
__global__ void saxpyKernel(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Memory-bound, vectorised: float4 loads and stores, a grid-stride loop.
__global__ void vectorAddFloat4Kernel(const float4* a, const float4* b, float4* c, int n4) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

// Memory-bound with reuse of x through L1/L2: one warp per row, a shuffle sum.
__global__ void matVecKernel(const float* matrix, const float* x, float* y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += matrix[size_t(warp) * cols + c] * x[c];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[warp] = sum;
}

__constant__ float convTaps[kConvTaps];

// L1-reuse and constant-cache broadcast: each input is read by 9 neighbours.
__global__ void conv1dConstantKernel(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
#pragma unroll
  for (int t = 0; t < kConvTaps; ++t) {
    int j = i + t - kConvTaps / 2;
    if (j >= 0 && j < n) sum += convTaps[t] * in[j];
  }
  out[i] = sum;
}

static int testCopy(Report& report) {
  std::vector<float> in = randomFloats(kStreamN, 1), out;
  DeviceBuffer<float> dIn, dOut;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(kStreamN));
  copyKernel<<<kStreamN / 256, 256>>>(dIn.ptr, dOut.ptr, kStreamN);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(out));
  report.line("copy", hashOf(out), allEqual(out, in));
  return 0;
}

static int testSaxpy(Report& report) {
  const int n = kStreamN;
  const float a = 1.75f;
  std::vector<float> x = randomFloats(n, 2), y = randomFloats(n, 3), want(n), got;
  for (int i = 0; i < n; ++i) want[i] = a * x[i] + y[i];
  DeviceBuffer<float> dX, dY;
  CHECK(dX.upload(x));
  CHECK(dY.upload(y));
  saxpyKernel<<<n / 256, 256>>>(a, dX.ptr, dY.ptr, n);
  CHECK(cudaGetLastError());
  CHECK(dY.download(got));
  report.line("saxpy", hashOf(got), allClose(got, want, 1e-6f));
  return 0;
}

static int testVectorAdd(Report& report) {
  const int n = kVectorN, n4 = n / 4;
  std::vector<float> a = randomFloats(n, 4), b = randomFloats(n, 5), want(n), got;
  for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
  DeviceBuffer<float> dA, dB, dC;
  CHECK(dA.upload(a));
  CHECK(dB.upload(b));
  CHECK(dC.alloc(n));
  vectorAddFloat4Kernel<<<132 * 8, 256>>>(reinterpret_cast<const float4*>(dA.ptr),
                                          reinterpret_cast<const float4*>(dB.ptr),
                                          reinterpret_cast<float4*>(dC.ptr), n4);
  CHECK(cudaGetLastError());
  CHECK(dC.download(got));
  report.line("vector_add_float4", hashOf(got), allEqual(got, want));
  return 0;
}

static int testMatVec(Report& report) {
  std::vector<float> matrix = randomFloats(size_t(kMatRows) * kMatCols, 6), x = randomFloats(kMatCols, 7);
  std::vector<float> want(kMatRows), got;
  for (int r = 0; r < kMatRows; ++r) {
    double sum = 0.0;
    for (int c = 0; c < kMatCols; ++c) sum += double(matrix[size_t(r) * kMatCols + c]) * x[c];
    want[r] = float(sum);
  }
  DeviceBuffer<float> dMatrix, dX, dY;
  CHECK(dMatrix.upload(matrix));
  CHECK(dX.upload(x));
  CHECK(dY.alloc(kMatRows));
  matVecKernel<<<kMatRows * 32 / 256, 256>>>(dMatrix.ptr, dX.ptr, dY.ptr, kMatRows, kMatCols);
  CHECK(cudaGetLastError());
  CHECK(dY.download(got));
  report.line("mat_vec", hashOf(got), allClose(got, want, 1e-4f, 1e-3f));
  return 0;
}

static int testConv1d(Report& report) {
  std::vector<float> in = randomFloats(kConvN, 8), taps = randomFloats(kConvTaps, 9), want(kConvN), got;
  for (int i = 0; i < kConvN; ++i) {
    float sum = 0.0f;
    for (int t = 0; t < kConvTaps; ++t) {
      int j = i + t - kConvTaps / 2;
      if (j >= 0 && j < kConvN) sum += taps[t] * in[j];
    }
    want[i] = sum;
  }
  CHECK(cudaMemcpyToSymbol(convTaps, taps.data(), sizeof(float) * kConvTaps));
  DeviceBuffer<float> dIn, dOut;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(kConvN));
  conv1dConstantKernel<<<kConvN / 256, 256>>>(dIn.ptr, dOut.ptr, kConvN);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  report.line("conv1d_constant", hashOf(got), allClose(got, want, 1e-5f, 1e-5f));
  return 0;
}

int main() {
  Report report;
  for (int (*test)(Report&) : {testCopy, testSaxpy, testVectorAdd, testMatVec, testConv1d}) {
    if (test(report) != 0) return 1;
  }
  return report.allMatch ? 0 : 1;
}
