// Timing-accuracy suite, irregular and odd-shaped kernels: divergence, sparse
// and random accesses, texture fetches, and grids of 1 to 4 blocks.

#include <utility>

#include "suite.h"

constexpr int kMandelW = 256, kMandelH = 256, kMandelMaxIter = 128;
constexpr int kSpmvRows = 1 << 16, kSpmvMaxRowLength = 32;
constexpr int kGatherN = 1 << 19, kTableN = 1 << 22;
constexpr int kImageW = 512, kImageH = 512;
constexpr int kSingleBlockN = 1 << 20;
constexpr int kChainIterations = 2048;

// Divergent: Mandelbrot escape counts, per-pixel loop trips from 1 to 128.
// Unfused multiplies and adds, so the host computes the same counts.
__global__ void mandelbrotKernel(int* counts, int width, int height, int maxIter) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float cr = -2.0f + 2.5f * x / width, ci = -1.25f + 2.5f * y / height;
  float zr = 0.0f, zi = 0.0f;
  int n = 0;
  while (n < maxIter && __fadd_rn(__fmul_rn(zr, zr), __fmul_rn(zi, zi)) <= 4.0f) {
    float nextZr = __fadd_rn(__fsub_rn(__fmul_rn(zr, zr), __fmul_rn(zi, zi)), cr);
    zi = __fadd_rn(__fmul_rn(2.0f, __fmul_rn(zr, zi)), ci);
    zr = nextZr;
    ++n;
  }
  counts[y * width + x] = n;
}

// Irregular and divergent: scalar CSR SpMV, one thread per row, row lengths
// 0..31 and random columns (gathers of x).
__global__ void spmvCsrKernel(const int* rowStart, const int* columns, const float* values, const float* x,
                              float* y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int k = rowStart[row]; k < rowStart[row + 1]; ++k) sum += values[k] * x[columns[k]];
  y[row] = sum;
}

// Random reads: out[i] = table[index[i]] over a 16 MiB table.
__global__ void gatherKernel(const float* table, const int* index, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[index[i]];
}

// Random writes: out[permutation[i]] = in[i].
__global__ void scatterKernel(const float* in, const int* permutation, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[permutation[i]] = in[i];
}

// Texture path, random: tex1Dfetch through a linear-memory texture object.
__global__ void tex1dFetchGatherKernel(cudaTextureObject_t table, const int* index, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(table, index[i]);
}

// Texture path, 2D locality: 3x3 box filter with tex2D on a cudaArray
// (point sampling, clamped borders).
__global__ void tex2dBoxFilterKernel(cudaTextureObject_t image, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += tex2D<float>(image, x + dx + 0.5f, y + dy + 0.5f);
  out[y * width + x] = sum;
}

// Small grid, one SM's bandwidth: a single block of 1024 threads sums 1 Mi ints.
__global__ void reduceSingleBlockKernel(const int* in, long long* total, int n) {
  __shared__ long long sums[1024];
  long long sum = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += in[i];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = sums[0];
}

// Small grid (4 blocks), FMA-latency bound: four dependent FMA chains per thread.
__global__ void fmaChainsFourBlocksKernel(const float* seeds, float* out, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = seeds[i], b = a + 0.25f, c = a + 0.5f, d = a + 0.75f;
  for (int k = 0; k < iterations; ++k) {
    a = fmaf(a, 0.9999f, 0.0001f);
    b = fmaf(b, 0.9998f, 0.0002f);
    c = fmaf(c, 0.9997f, 0.0003f);
    d = fmaf(d, 0.9996f, 0.0004f);
  }
  out[i] = a + b + c + d;
}

static int testMandelbrot(Report& report) {
  std::vector<int> want(kMandelW * kMandelH), got;
  for (int y = 0; y < kMandelH; ++y)
    for (int x = 0; x < kMandelW; ++x) {
      // The same float operations in the same order as the kernel, no FMA.
      volatile float cr = -2.0f + 2.5f * x / kMandelW, ci = -1.25f + 2.5f * y / kMandelH;
      float zr = 0.0f, zi = 0.0f;
      int n = 0;
      while (n < kMandelMaxIter) {
        volatile float zr2 = zr * zr, zi2 = zi * zi, zrzi = zr * zi;
        if (!(zr2 + zi2 <= 4.0f)) break;
        volatile float difference = zr2 - zi2, twice = 2.0f * zrzi;
        float nextZr = difference + cr;
        zi = twice + ci;
        zr = nextZr;
        ++n;
      }
      want[y * kMandelW + x] = n;
    }
  DeviceBuffer<int> dCounts;
  CHECK(dCounts.alloc(want.size()));
  mandelbrotKernel<<<dim3(kMandelW / 16, kMandelH / 16), dim3(16, 16)>>>(dCounts.ptr, kMandelW, kMandelH,
                                                                         kMandelMaxIter);
  CHECK(cudaGetLastError());
  CHECK(dCounts.download(got));
  report.line("mandelbrot", hashOf(got), allEqual(got, want));
  return 0;
}

static int testSpmv(Report& report) {
  Lcg lcg(31);
  std::vector<int> rowStart(kSpmvRows + 1, 0), columns;
  std::vector<float> values, x = randomFloats(kSpmvRows, 32);
  for (int r = 0; r < kSpmvRows; ++r) {
    int length = int(lcg.below(kSpmvMaxRowLength));
    for (int k = 0; k < length; ++k) {
      columns.push_back(int(lcg.below(kSpmvRows)));
      values.push_back(lcg.signedUnit());
    }
    rowStart[r + 1] = int(columns.size());
  }
  std::vector<float> want(kSpmvRows), got;
  for (int r = 0; r < kSpmvRows; ++r) {
    double sum = 0.0;
    for (int k = rowStart[r]; k < rowStart[r + 1]; ++k) sum += double(values[k]) * x[columns[k]];
    want[r] = float(sum);
  }
  DeviceBuffer<int> dRowStart, dColumns;
  DeviceBuffer<float> dValues, dX, dY;
  CHECK(dRowStart.upload(rowStart));
  CHECK(dColumns.upload(columns));
  CHECK(dValues.upload(values));
  CHECK(dX.upload(x));
  CHECK(dY.alloc(kSpmvRows));
  spmvCsrKernel<<<kSpmvRows / 128, 128>>>(dRowStart.ptr, dColumns.ptr, dValues.ptr, dX.ptr, dY.ptr,
                                          kSpmvRows);
  CHECK(cudaGetLastError());
  CHECK(dY.download(got));
  report.line("spmv_csr", hashOf(got), allClose(got, want, 1e-4f, 1e-5f));
  return 0;
}

static int testGatherScatter(Report& report) {
  Lcg lcg(33);
  std::vector<float> table = randomFloats(kTableN, 34), in = randomFloats(kGatherN, 35);
  std::vector<int> index(kGatherN), permutation(kGatherN);
  for (int& i : index) i = int(lcg.below(kTableN));
  for (int i = 0; i < kGatherN; ++i) permutation[i] = i;
  for (int i = kGatherN - 1; i > 0; --i) std::swap(permutation[i], permutation[lcg.below(uint32_t(i) + 1)]);
  std::vector<float> wantGather(kGatherN), wantScatter(kGatherN), gathered, scattered, fetched;
  for (int i = 0; i < kGatherN; ++i) {
    wantGather[i] = table[index[i]];
    wantScatter[permutation[i]] = in[i];
  }
  DeviceBuffer<float> dTable, dIn, dGathered, dScattered, dFetched;
  DeviceBuffer<int> dIndex, dPermutation;
  CHECK(dTable.upload(table));
  CHECK(dIn.upload(in));
  CHECK(dIndex.upload(index));
  CHECK(dPermutation.upload(permutation));
  CHECK(dGathered.alloc(kGatherN));
  CHECK(dScattered.alloc(kGatherN));
  CHECK(dFetched.alloc(kGatherN));
  gatherKernel<<<kGatherN / 256, 256>>>(dTable.ptr, dIndex.ptr, dGathered.ptr, kGatherN);
  CHECK(cudaGetLastError());
  scatterKernel<<<kGatherN / 256, 256>>>(dIn.ptr, dPermutation.ptr, dScattered.ptr, kGatherN);
  CHECK(cudaGetLastError());

  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = dTable.ptr;
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = size_t(kTableN) * sizeof(float);
  cudaTextureDesc sampling = {};
  sampling.readMode = cudaReadModeElementType;
  cudaTextureObject_t texture = 0;
  CHECK(cudaCreateTextureObject(&texture, &resource, &sampling, nullptr));
  tex1dFetchGatherKernel<<<kGatherN / 256, 256>>>(texture, dIndex.ptr, dFetched.ptr, kGatherN);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDestroyTextureObject(texture));

  CHECK(dGathered.download(gathered));
  CHECK(dScattered.download(scattered));
  CHECK(dFetched.download(fetched));
  report.line("gather", hashOf(gathered), allEqual(gathered, wantGather));
  report.line("scatter", hashOf(scattered), allEqual(scattered, wantScatter));
  report.line("tex1dfetch_gather", hashOf(fetched), allEqual(fetched, wantGather));
  return 0;
}

static int testTex2d(Report& report) {
  const int w = kImageW, h = kImageH;
  std::vector<float> image = randomFloats(size_t(w) * h, 36), want(image.size()), got;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float sum = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int sx = std::min(std::max(x + dx, 0), w - 1), sy = std::min(std::max(y + dy, 0), h - 1);
          sum += image[size_t(sy) * w + sx];
        }
      want[size_t(y) * w + x] = sum;
    }
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &format, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, image.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc sampling = {};
  sampling.addressMode[0] = cudaAddressModeClamp;
  sampling.addressMode[1] = cudaAddressModeClamp;
  sampling.filterMode = cudaFilterModePoint;
  sampling.readMode = cudaReadModeElementType;
  sampling.normalizedCoords = 0;
  cudaTextureObject_t texture = 0;
  CHECK(cudaCreateTextureObject(&texture, &resource, &sampling, nullptr));
  DeviceBuffer<float> dOut;
  CHECK(dOut.alloc(image.size()));
  tex2dBoxFilterKernel<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(texture, dOut.ptr, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDestroyTextureObject(texture));
  CHECK(cudaFreeArray(array));
  CHECK(dOut.download(got));
  report.line("tex2d_box_filter", hashOf(got), allClose(got, want, 1e-5f, 1e-5f));
  return 0;
}

static int testSmallGrids(Report& report) {
  Lcg lcg(37);
  std::vector<int> in(kSingleBlockN);
  long long wantTotal = 0;
  for (int& v : in) wantTotal += v = int(lcg.below(100001)) - 50000;
  DeviceBuffer<int> dIn;
  DeviceBuffer<long long> dTotal;
  CHECK(dIn.upload(in));
  CHECK(dTotal.alloc(1));
  reduceSingleBlockKernel<<<1, 1024>>>(dIn.ptr, dTotal.ptr, kSingleBlockN);
  CHECK(cudaGetLastError());
  std::vector<long long> total;
  CHECK(dTotal.download(total));
  report.line("reduce_1block", uint64_t(total[0]), total[0] == wantTotal);

  const int threads = 4 * 256;
  std::vector<float> seeds = randomFloats(threads, 38), want(threads), got;
  for (int i = 0; i < threads; ++i) {
    float a = seeds[i], b = a + 0.25f, c = a + 0.5f, d = a + 0.75f;
    for (int k = 0; k < kChainIterations; ++k) {
      a = std::fma(a, 0.9999f, 0.0001f);
      b = std::fma(b, 0.9998f, 0.0002f);
      c = std::fma(c, 0.9997f, 0.0003f);
      d = std::fma(d, 0.9996f, 0.0004f);
    }
    want[i] = a + b + c + d;
  }
  DeviceBuffer<float> dSeeds, dOut;
  CHECK(dSeeds.upload(seeds));
  CHECK(dOut.alloc(threads));
  fmaChainsFourBlocksKernel<<<4, 256>>>(dSeeds.ptr, dOut.ptr, kChainIterations);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  report.line("fma_chains_4blocks", hashOf(got), allClose(got, want, 1e-6f, 1e-6f));
  return 0;
}

int main() {
  Report report;
  for (int (*test)(Report&) : {testMandelbrot, testSpmv, testGatherScatter, testTex2d, testSmallGrids}) {
    if (test(report) != 0) return 1;
  }
  return report.allMatch ? 0 : 1;
}
