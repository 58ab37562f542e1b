// Timing-accuracy suite, dense kernels with reuse: stencils, matrix
// multiplication (naive and tiled in shared memory), transposes (naive and
// tiled with padding), and an n-body step.

#include "suite.h"

constexpr int kStencilW = 512, kStencilH = 512;
constexpr int kCubeX = 128, kCubeY = 128, kCubeZ = 64;
constexpr int kGemmM = 128, kGemmN = 256, kGemmK = 256;
constexpr int kNaiveK = 128;
constexpr int kTransposeRows = 512, kTransposeCols = 1024;
constexpr int kBodies = 1024;
constexpr int kTile = 16;

// Memory-bound with L1 reuse: 2D 5-point Jacobi step, one thread per point.
__global__ void stencil2d5ptKernel(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= width - 1 || y >= height - 1) return;
  int i = y * width + x;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}

// Memory-bound, plane-marching: 3D 7-point stencil, each thread walks along z.
__global__ void stencil3d7ptKernel(const float* in, float* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;
  size_t plane = size_t(nx) * ny;
  for (int z = 1; z < nz - 1; ++z) {
    size_t i = z * plane + size_t(y) * nx + x;
    out[i] = 0.4f * in[i] +
             0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
  }
}

// Compute-bound with shared-memory reuse: 16x16-tiled SGEMM, C = A * B.
__global__ void sgemmTiledKernel(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float tileA[kTile][kTile], tileB[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    tileA[threadIdx.y][threadIdx.x] = a[row * k + t + threadIdx.x];
    tileB[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kTile; ++i) sum += tileA[threadIdx.y][i] * tileB[i][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

// L1-bound: naive GEMM, every operand from global memory (cached in L1).
__global__ void gemmNaiveKernel(const float* a, const float* b, float* c, int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

// Memory-bound, uncoalesced stores: naive transpose (stride = rows).
__global__ void transposeNaiveKernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[size_t(x) * rows + y] = in[size_t(y) * cols + x];
}

// Memory-bound, coalesced both ways: transpose through a padded 32x33 shared
// tile (no bank conflicts), 32x8 threads each moving 4 elements.
__global__ void transposeTiledKernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[size_t(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Compute-bound (FMA and rsqrt), small grid of 8 blocks: all-pairs n-body
// accelerations, the positions staged through shared memory.
__global__ void nbodyKernel(const float4* bodies, float4* accel, int n) {
  __shared__ float4 staged[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 self = bodies[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += blockDim.x) {
    staged[threadIdx.x] = bodies[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < blockDim.x; ++j) {
      float4 other = staged[j];
      float dx = other.x - self.x, dy = other.y - self.y, dz = other.z - self.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
      float s = other.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  accel[i] = make_float4(ax, ay, az, 0.0f);
}

static int testStencil2d(Report& report) {
  const int w = kStencilW, h = kStencilH;
  std::vector<float> in = randomFloats(size_t(w) * h, 11), want(size_t(w) * h, 0.0f), got;
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x) {
      int i = y * w + x;
      want[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }
  DeviceBuffer<float> dIn, dOut;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(in.size()));
  CHECK(cudaMemset(dOut.ptr, 0, in.size() * sizeof(float)));
  stencil2d5ptKernel<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(dIn.ptr, dOut.ptr, w, h);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  report.line("stencil2d_5pt", hashOf(got), allClose(got, want, 1e-6f, 1e-6f));
  return 0;
}

static int testStencil3d(Report& report) {
  const int nx = kCubeX, ny = kCubeY, nz = kCubeZ;
  const size_t plane = size_t(nx) * ny, total = plane * nz;
  std::vector<float> in = randomFloats(total, 12), want(total, 0.0f), got;
  for (int z = 1; z < nz - 1; ++z)
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 1; x < nx - 1; ++x) {
        size_t i = z * plane + size_t(y) * nx + x;
        want[i] = 0.4f * in[i] +
                  0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
      }
  DeviceBuffer<float> dIn, dOut;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(total));
  CHECK(cudaMemset(dOut.ptr, 0, total * sizeof(float)));
  stencil3d7ptKernel<<<dim3(nx / 32, ny / 4), dim3(32, 4)>>>(dIn.ptr, dOut.ptr, nx, ny, nz);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  report.line("stencil3d_7pt", hashOf(got), allClose(got, want, 1e-6f, 1e-6f));
  return 0;
}

static std::vector<float> hostGemm(const std::vector<float>& a, const std::vector<float>& b, int m, int n,
                                   int k) {
  std::vector<float> c(size_t(m) * n);
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < n; ++col) {
      double sum = 0.0;
      for (int i = 0; i < k; ++i) sum += double(a[size_t(r) * k + i]) * b[size_t(i) * n + col];
      c[size_t(r) * n + col] = float(sum);
    }
  return c;
}

static int testSgemmTiled(Report& report) {
  std::vector<float> a = randomFloats(size_t(kGemmM) * kGemmK, 13),
                     b = randomFloats(size_t(kGemmK) * kGemmN, 14);
  std::vector<float> want = hostGemm(a, b, kGemmM, kGemmN, kGemmK), got;
  DeviceBuffer<float> dA, dB, dC;
  CHECK(dA.upload(a));
  CHECK(dB.upload(b));
  CHECK(dC.alloc(want.size()));
  sgemmTiledKernel<<<dim3(kGemmN / kTile, kGemmM / kTile), dim3(kTile, kTile)>>>(dA.ptr, dB.ptr, dC.ptr,
                                                                                 kGemmM, kGemmN, kGemmK);
  CHECK(cudaGetLastError());
  CHECK(dC.download(got));
  report.line("sgemm_tiled", hashOf(got), allClose(got, want, 1e-4f, 1e-3f));
  return 0;
}

static int testGemmNaive(Report& report) {
  std::vector<float> a = randomFloats(size_t(kGemmM) * kNaiveK, 15),
                     b = randomFloats(size_t(kNaiveK) * kGemmN, 16);
  std::vector<float> want = hostGemm(a, b, kGemmM, kGemmN, kNaiveK), got;
  DeviceBuffer<float> dA, dB, dC;
  CHECK(dA.upload(a));
  CHECK(dB.upload(b));
  CHECK(dC.alloc(want.size()));
  gemmNaiveKernel<<<dim3(kGemmN / 16, kGemmM / 16), dim3(16, 16)>>>(dA.ptr, dB.ptr, dC.ptr, kGemmM, kGemmN,
                                                                    kNaiveK);
  CHECK(cudaGetLastError());
  CHECK(dC.download(got));
  report.line("gemm_naive", hashOf(got), allClose(got, want, 1e-4f, 1e-3f));
  return 0;
}

static int testTransposes(Report& report) {
  const int rows = kTransposeRows, cols = kTransposeCols;
  std::vector<float> in = randomFloats(size_t(rows) * cols, 17), want(in.size()), naive, tiled;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) want[size_t(x) * rows + y] = in[size_t(y) * cols + x];
  DeviceBuffer<float> dIn, dNaive, dTiled;
  CHECK(dIn.upload(in));
  CHECK(dNaive.alloc(in.size()));
  CHECK(dTiled.alloc(in.size()));
  transposeNaiveKernel<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(dIn.ptr, dNaive.ptr, rows, cols);
  CHECK(cudaGetLastError());
  transposeTiledKernel<<<dim3(cols / 32, rows / 32), dim3(32, 8)>>>(dIn.ptr, dTiled.ptr, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(dNaive.download(naive));
  CHECK(dTiled.download(tiled));
  report.line("transpose_naive", hashOf(naive), allEqual(naive, want));
  report.line("transpose_tiled", hashOf(tiled), allEqual(tiled, want));
  return 0;
}

static int testNbody(Report& report) {
  Lcg lcg(18);
  std::vector<float4> bodies(kBodies);
  for (float4& b : bodies)
    b = make_float4(lcg.signedUnit(), lcg.signedUnit(), lcg.signedUnit(), 0.5f + lcg.unit());
  std::vector<float> want(size_t(kBodies) * 4, 0.0f), got(want.size());
  for (int i = 0; i < kBodies; ++i) {
    double a[3] = {0, 0, 0};
    for (int j = 0; j < kBodies; ++j) {
      double d[3] = {bodies[j].x - bodies[i].x, bodies[j].y - bodies[i].y, bodies[j].z - bodies[i].z};
      double inv = 1.0 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01);
      for (int c = 0; c < 3; ++c) a[c] += d[c] * bodies[j].w * inv * inv * inv;
    }
    for (int c = 0; c < 3; ++c) want[size_t(i) * 4 + c] = float(a[c]);
  }
  DeviceBuffer<float4> dBodies, dAccel;
  CHECK(dBodies.upload(bodies));
  CHECK(dAccel.alloc(kBodies));
  nbodyKernel<<<kBodies / 128, 128>>>(dBodies.ptr, dAccel.ptr, kBodies);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), dAccel.ptr, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  report.line("nbody", hashOf(got), allClose(got, want, 2e-3f, 2e-2f));
  return 0;
}

int main() {
  Report report;
  for (int (*test)(Report&) :
       {testStencil2d, testStencil3d, testSgemmTiled, testGemmNaive, testTransposes, testNbody}) {
    if (test(report) != 0) return 1;
  }
  return report.allMatch ? 0 : 1;
}
