// Timing-accuracy suite, block-wide collectives: reductions, scans,
// histograms with atomics, a bitonic sort and a row softmax -- shared
// memory, barriers, shuffles and atomics.

#include <algorithm>

#include "suite.h"

constexpr int kReduceN = 1 << 19;
constexpr int kScanBlock = 1024;
constexpr int kScanN = 1 << 18;  // 256 blocks of 1024
constexpr int kHistBins = 256;
constexpr int kHistN = 1 << 20;
constexpr int kSortSegment = 512;
constexpr int kSortSegments = 128;
constexpr int kSoftmaxRows = 1024, kSoftmaxCols = 1024;

// Barrier-heavy: shared-memory tree reduction, each thread first adding 4 inputs.
__global__ void reduceTreeKernel(const int* in, int* partial, int n) {
  __shared__ int sums[256];
  int base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  int sum = 0;
  for (int k = 0; k < 4; ++k)
    if (base + k * blockDim.x < n) sum += in[base + k * blockDim.x];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Memory-bound loop then shuffles: grid-stride reduction, warp shuffles, one
// global atomic per block (integer, so the order does not matter).
__global__ void reduceShuffleKernel(const int* in, unsigned long long* total, int n) {
  __shared__ int warpSums[32];
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  sum = warpSum(sum);
  if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warpSum(threadIdx.x < blockDim.x / 32 ? warpSums[threadIdx.x] : 0);
    if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)(long long)sum);
  }
}

// Shuffle scan of one block of 1024: inclusive prefix sums within the block,
// the block's total written aside.
__device__ int blockInclusiveScan(int v) {
  __shared__ int warpTotals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += up;
  }
  if (lane == 31) warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    for (int offset = 1; offset < 32; offset *= 2) {
      int up = __shfl_up_sync(0xffffffffu, t, offset);
      if (lane >= offset) t += up;
    }
    warpTotals[lane] = t;
  }
  __syncthreads();
  return warp > 0 ? v + warpTotals[warp - 1] : v;
}

// Shuffle-and-barrier bound: per-block inclusive scan, 256 blocks.
__global__ void scanBlocksKernel(const int* in, int* out, int* blockTotals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = blockInclusiveScan(in[i]);
  out[i] = v;
  if (threadIdx.x == blockDim.x - 1) blockTotals[blockIdx.x] = v;
}

// Latency-bound, a single block: exclusive scan of the 256 block totals.
__global__ void scanTotalsSingleBlockKernel(int* totals) {
  int v = totals[threadIdx.x];
  int inclusive = blockInclusiveScan(v);
  totals[threadIdx.x] = inclusive - v;
}

// Memory-bound: adds each block's offset to its 1024 elements.
__global__ void scanAddOffsetsKernel(int* out, const int* offsets) {
  out[blockIdx.x * blockDim.x + threadIdx.x] += offsets[blockIdx.x];
}

// Atomic-bound: one global atomicAdd per input on 256 bins (skewed values).
__global__ void histogramGlobalKernel(const unsigned char* values, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[values[i]], 1u);
}

// Shared-atomic bound: per-block bins in shared memory, merged at the end.
__global__ void histogramSharedKernel(const unsigned char* values, unsigned* bins, int n) {
  __shared__ unsigned local[kHistBins];
  for (int b = threadIdx.x; b < kHistBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[values[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kHistBins; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

// Barrier- and shared-memory bound, data-dependent swaps: bitonic sort of
// 512-key segments, 256 threads per segment.
__global__ void bitonicSortKernel(unsigned* keys) {
  __shared__ unsigned s[kSortSegment];
  unsigned* segment = keys + blockIdx.x * kSortSegment;
  s[threadIdx.x] = segment[threadIdx.x];
  s[threadIdx.x + blockDim.x] = segment[threadIdx.x + blockDim.x];
  __syncthreads();
  for (int size = 2; size <= kSortSegment; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      int low = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      int high = low + stride;
      bool ascending = (low & size) == 0;
      unsigned a = s[low], b = s[high];
      if ((a > b) == ascending) {
        s[low] = b;
        s[high] = a;
      }
      __syncthreads();
    }
  }
  segment[threadIdx.x] = s[threadIdx.x];
  segment[threadIdx.x + blockDim.x] = s[threadIdx.x + blockDim.x];
}

// Shuffle- and SFU-bound: numerically stable softmax of each row, one warp per row.
__global__ void softmaxRowKernel(const float* in, float* out, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* x = in + size_t(row) * cols;
  float maximum = -INFINITY;
  for (int c = lane; c < cols; c += 32) maximum = fmaxf(maximum, x[c]);
  for (int offset = 16; offset > 0; offset /= 2)
    maximum = fmaxf(maximum, __shfl_xor_sync(0xffffffffu, maximum, offset));
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += __expf(x[c] - maximum);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  float scale = 1.0f / sum;
  for (int c = lane; c < cols; c += 32) out[size_t(row) * cols + c] = __expf(x[c] - maximum) * scale;
}

static std::vector<int> randomInts(size_t n, uint32_t seed, uint32_t range) {
  Lcg lcg(seed);
  std::vector<int> v(n);
  for (int& x : v) x = int(lcg.below(range)) - int(range / 2);
  return v;
}

static int testReductions(Report& report) {
  std::vector<int> in = randomInts(kReduceN, 21, 2001);
  long long want = 0;
  for (int x : in) want += x;
  const int treeBlocks = kReduceN / (256 * 4);
  DeviceBuffer<int> dIn, dPartial;
  DeviceBuffer<unsigned long long> dTotal;
  CHECK(dIn.upload(in));
  CHECK(dPartial.alloc(treeBlocks));
  CHECK(dTotal.alloc(1));
  CHECK(cudaMemset(dTotal.ptr, 0, sizeof(unsigned long long)));
  reduceTreeKernel<<<treeBlocks, 256>>>(dIn.ptr, dPartial.ptr, kReduceN);
  CHECK(cudaGetLastError());
  reduceShuffleKernel<<<132 * 4, 256>>>(dIn.ptr, dTotal.ptr, kReduceN);
  CHECK(cudaGetLastError());
  std::vector<int> partial;
  std::vector<unsigned long long> total;
  CHECK(dPartial.download(partial));
  CHECK(dTotal.download(total));
  long long treeSum = 0;
  for (int p : partial) treeSum += p;
  report.line("reduce_tree", hashOf(partial), treeSum == want);
  report.line("reduce_shuffle", uint64_t(total[0]), (long long)total[0] == want);
  return 0;
}

static int testScan(Report& report) {
  std::vector<int> in = randomInts(kScanN, 22, 201), want(kScanN), got, offsets;
  int running = 0;
  for (int i = 0; i < kScanN; ++i) want[i] = running += in[i];
  const int blocks = kScanN / kScanBlock;
  DeviceBuffer<int> dIn, dOut, dTotals;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(kScanN));
  CHECK(dTotals.alloc(blocks));
  scanBlocksKernel<<<blocks, kScanBlock>>>(dIn.ptr, dOut.ptr, dTotals.ptr);
  CHECK(cudaGetLastError());
  std::vector<int> blockScans, totals;
  CHECK(dOut.download(blockScans));
  CHECK(dTotals.download(totals));
  scanTotalsSingleBlockKernel<<<1, blocks>>>(dTotals.ptr);
  CHECK(cudaGetLastError());
  CHECK(dTotals.download(offsets));
  scanAddOffsetsKernel<<<blocks, kScanBlock>>>(dOut.ptr, dTotals.ptr);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  std::vector<int> wantBlockScans(kScanN), wantTotals(blocks), wantOffsets(blocks);
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int i = b * kScanBlock; i < (b + 1) * kScanBlock; ++i) wantBlockScans[i] = sum += in[i];
    wantTotals[b] = sum;
    wantOffsets[b] = b == 0 ? 0 : want[b * kScanBlock - 1];
  }
  report.line("scan_blocks", hashOf(blockScans),
              allEqual(blockScans, wantBlockScans) && allEqual(totals, wantTotals));
  report.line("scan_totals_1block", hashOf(offsets), allEqual(offsets, wantOffsets));
  report.line("scan_add_offsets", hashOf(got), allEqual(got, want));
  return 0;
}

static int testHistograms(Report& report) {
  Lcg lcg(23);
  std::vector<unsigned char> values(kHistN);
  // Skewed: the sum of two uniform bytes halved peaks in the middle bins.
  for (unsigned char& v : values) v = static_cast<unsigned char>((lcg.below(256) + lcg.below(256)) / 2);
  std::vector<unsigned> want(kHistBins, 0), global, shared;
  for (unsigned char v : values) ++want[v];
  DeviceBuffer<unsigned char> dValues;
  DeviceBuffer<unsigned> dGlobal, dShared;
  CHECK(dValues.upload(values));
  CHECK(dGlobal.alloc(kHistBins));
  CHECK(dShared.alloc(kHistBins));
  CHECK(cudaMemset(dGlobal.ptr, 0, kHistBins * sizeof(unsigned)));
  CHECK(cudaMemset(dShared.ptr, 0, kHistBins * sizeof(unsigned)));
  histogramGlobalKernel<<<kHistN / 256, 256>>>(dValues.ptr, dGlobal.ptr, kHistN);
  CHECK(cudaGetLastError());
  histogramSharedKernel<<<132 * 2, 256>>>(dValues.ptr, dShared.ptr, kHistN);
  CHECK(cudaGetLastError());
  CHECK(dGlobal.download(global));
  CHECK(dShared.download(shared));
  report.line("histogram_global", hashOf(global), allEqual(global, want));
  report.line("histogram_shared", hashOf(shared), allEqual(shared, want));
  return 0;
}

static int testBitonicSort(Report& report) {
  Lcg lcg(24);
  std::vector<unsigned> keys(size_t(kSortSegment) * kSortSegments), got;
  for (unsigned& k : keys) k = lcg.next();
  std::vector<unsigned> want = keys;
  for (int s = 0; s < kSortSegments; ++s)
    std::sort(want.begin() + s * kSortSegment, want.begin() + (s + 1) * kSortSegment);
  DeviceBuffer<unsigned> dKeys;
  CHECK(dKeys.upload(keys));
  bitonicSortKernel<<<kSortSegments, kSortSegment / 2>>>(dKeys.ptr);
  CHECK(cudaGetLastError());
  CHECK(dKeys.download(got));
  report.line("bitonic_sort", hashOf(got), allEqual(got, want));
  return 0;
}

static int testSoftmax(Report& report) {
  const int rows = kSoftmaxRows, cols = kSoftmaxCols;
  std::vector<float> in = randomFloats(size_t(rows) * cols, 25), want(in.size()), got;
  for (float& x : in) x *= 8.0f;
  for (int r = 0; r < rows; ++r) {
    const float* x = &in[size_t(r) * cols];
    float maximum = -INFINITY;
    for (int c = 0; c < cols; ++c) maximum = std::max(maximum, x[c]);
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += std::exp(double(x[c]) - maximum);
    for (int c = 0; c < cols; ++c) want[size_t(r) * cols + c] = float(std::exp(double(x[c]) - maximum) / sum);
  }
  DeviceBuffer<float> dIn, dOut;
  CHECK(dIn.upload(in));
  CHECK(dOut.alloc(in.size()));
  softmaxRowKernel<<<rows * 32 / 256, 256>>>(dIn.ptr, dOut.ptr, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(dOut.download(got));
  report.line("softmax_row", hashOf(got), allClose(got, want, 1e-4f, 1e-9f));
  return 0;
}

int main() {
  Report report;
  for (int (*test)(Report&) : {testReductions, testScan, testHistograms, testBitonicSort, testSoftmax}) {
    if (test(report) != 0) return 1;
  }
  return report.allMatch ? 0 : 1;
}
