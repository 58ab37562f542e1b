// bandwidth: sustained bandwidth and atomic throughput of the whole GPU,
// timed with cudaEvents (each the best of 3 runs after a warm-up run; shared
// memory with clock64 inside the CTAs); per second and per SM cycle at the
// SM clock measured here:
// - bw.l2.read: 4 CTAs per SM of 512 threads read a 16 MiB array (resident in
//   L2) 50 times with ld.global.cg.v4 (L1 bypassed); the sum is checked;
// - bw.dram.copy: a 2 GiB array copied to another (16-byte loads and stores,
//   grid-stride); bytes read + written per second; the copy is checked;
//   bw.dram.read: the 2 GiB array summed;
// - bw.smem.read: one CTA of 1024 threads per SM reading shared memory with
//   conflict-free ld.shared.v4, bytes per cycle per SM (clock64 in each
//   CTA, median over SMs);
// - atomic.one_address: every thread of 4 CTAs per SM x 256 threads does 64
//   atomicAdd (result unused: RED) to one word (its address not provably
//   uniform, so not aggregated per warp by the compiler); atomic.many_addresses: the
//   same to 1 Mi distinct words (consecutive lanes, consecutive words);
//   operations per second and per SM cycle (whole GPU); the totals are
//   checked; atomic.one_address_one_lane: the one-address case with only
//   lane 0 of each warp (one operation per request); atomic.uniform_address:
//   to the kernel parameter's address, which ptxas can see is uniform.
// - *.steady (bw.l2.read, bw.dram.read, atomic.many_addresses): the same
//   kernel at two sizes, the rate of the difference (the larger size's
//   amount less the smaller's over its time less the smaller's): a launch's
//   fixed costs (its launch, the grid's start and end, the memset timed with
//   it) cancel, on the GPU and in a simulator alike. The L2 read with half
//   the passes, the DRAM read over the first half of the array (timed right
//   after the whole: its lines are not in the L2), the many-address atomics
//   with half the iterations.
// CALIB_QUICK=1 shrinks the sizes for a simulator, each still long enough
// to reach its steady state (the replay gates these figures): the L2 read
// an 8 MiB array 16 times; the DRAM copy
// and read 96 MiB, twice the L2, filled and checked from the host; shared
// memory in 4 CTAs for 32 iterations; the one-address atomics
// 132 x 256 x 4 (the atomic unit's drain dominates), the many-address ones
// at full size. The single-size rates of quick runs carry the launch's
// fixed costs over a shorter time than full-size ones: compare the steady
// figures.
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

#include <cstdint>

__global__ void fillWords(unsigned* p, size_t n, int pattern) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = pattern ? unsigned(i * 2654435761u) : 1u;
}

// Adds the CTA's values into *sum with one atomic (up to 1024 threads):
// one reduction per warp would leave the atomic unit a tail of thousands
// of reductions to one address, which a simulator's shorter runs cannot hide.
__device__ void blockSumTo(unsigned s, unsigned long long* sum) {
  __shared__ unsigned warpSums[32];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
  if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
    for (int w = 0; w < (blockDim.x + 31) / 32; ++w) total += warpSums[w];
    atomicAdd(sum, total);
  }
}

__global__ void l2Read(const uint4* p, size_t n, int passes, unsigned long long* sum) {
  unsigned s = 0;
  for (int k = 0; k < passes; ++k)
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
      uint4 v = __ldcg(p + i);
      s += v.x + v.y + v.z + v.w;
    }
  blockSumTo(s, sum);
}

__global__ void copy(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

__global__ void readSum(const uint4* __restrict__ src, size_t n, unsigned long long* sum) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = src[i];
    s += v.x ^ v.y ^ v.z ^ v.w;
  }
  blockSumTo(s, sum);
}

__global__ void checkCopy(const unsigned* p, size_t n, unsigned long long* bad) {
  unsigned b = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    b += p[i] != unsigned(i * 2654435761u);
  if (b) atomicAdd(bad, (unsigned long long)b);
}

// 48 KiB of ones; every thread reads 16 bytes `iters` x 8 times, lanes on
// consecutive 16-byte words (4 conflict-free wavefronts per warp access).
__global__ void smemRead(int iters, unsigned long long* sum, long long* cycles) {
  __shared__ __align__(16) uint4 s[3072];
  for (int i = threadIdx.x; i < 3072; i += blockDim.x) s[i] = make_uint4(1, 1, 1, 1);
  __syncthreads();
  unsigned a = 0, b = 0, c = 0, d = 0;
  unsigned idx = threadIdx.x;
  long long t0 = clk();
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      uint4 v = s[(idx + j * 1024 + k * 32) % 3072];
      a += v.x; b += v.y; c += v.z; d += v.w;
    }
  }
  __syncthreads();
  long long t1 = clk();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  atomicAdd(sum, (unsigned long long)(a + b + c + d));
}

// The offset is a zero read from memory: the compiler cannot see that the
// address is uniform, so it does not aggregate the warp's atomics into one.
__global__ void atomicOne(unsigned* p, const unsigned* zeros, int iters) {
  unsigned* q = p + zeros[threadIdx.x & 31];
  for (int k = 0; k < iters; ++k) atomicAdd(q, 1u);
}

// Only lane 0 of each warp: one operation per request, to the same word.
__global__ void atomicOneLane(unsigned* p, const unsigned* zeros, int iters) {
  unsigned* q = p + zeros[threadIdx.x & 31];
  if ((threadIdx.x & 31) != 0) return;
  for (int k = 0; k < iters; ++k) atomicAdd(q, 1u);
}

// The kernel parameter's address, provably uniform: what ptxas does with it
// (the SASS shows whether it sums the warp's lanes first).
__global__ void atomicUniform(unsigned* p, int iters) {
  for (int k = 0; k < iters; ++k) atomicAdd(p, 1u);
}

__global__ void atomicMany(unsigned* p, unsigned words, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) atomicAdd(p + (t + k * 7919u * 32u) % words, 1u);
}


static void reportRate(const std::string& name, double amount, float ms, double mhz,
                       const char* perSecond, double perSecondScale, const char* perCycle) {
  double seconds = ms / 1000.0;
  report(name, amount / seconds / perSecondScale, perSecond);
  if (mhz > 0) report(name + ".per_cycle", amount / (seconds * mhz * 1e6), perCycle);
}

// The rate of the difference of two sizes of one kernel: its fixed costs cancel.
static void reportSteadyRate(const std::string& name, double amount, float ms, double smallerAmount,
                             float smallerMs, double mhz, const char* perSecond, double perSecondScale,
                             const char* perCycle) {
  if (ms <= smallerMs || amount <= smallerAmount) {
    fail("%s: %.0f in %.4f ms is not more than %.0f in %.4f ms", name.c_str(), amount, ms, smallerAmount,
         smallerMs);
    return;
  }
  reportRate(name, amount - smallerAmount, ms - smallerMs, mhz, perSecond, perSecondScale, perCycle);
}

int main() {
  double mhz = reportClock();
  bool quick = quickMode();
  int sms = smCount();
  int runs = quick ? 1 : 3;
  unsigned long long* dSum;
  CUDA_CHECK(cudaMalloc(&dSum, 8));
  unsigned long long sum = 0;

  // L2 read bandwidth.
  {
    size_t bytes = quick ? (8u << 20) : (16u << 20);
    int passes = quick ? 16 : 50;
    size_t n = bytes / 16;
    uint4* p;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    fillWords<<<256, 256>>>((unsigned*)p, bytes / 4, 0);
    int grid = 4 * sms;
    auto timePasses = [&](int k, bool warmUp) {
      float best = bestMs(
          runs,
          [&] {
            CUDA_CHECK(cudaMemset(dSum, 0, 8));
            l2Read<<<grid, 512>>>(p, n, k, dSum);
          },
          warmUp);
      CUDA_CHECK(cudaMemcpy(&sum, dSum, 8, cudaMemcpyDeviceToHost));
      if (sum != 4ull * n * k) fail("l2 read: sum %llu, expected %llu", sum, 4ull * n * k);
      return best;
    };
    float ms = timePasses(passes, true);
    reportRate("bw.l2.read", double(bytes) * passes, ms, mhz, "GB/s", 1e9, "bytes/cycle");
    float halfMs = timePasses(passes / 2, false);  // the larger run warmed it up
    reportSteadyRate("bw.l2.read.steady", double(bytes) * passes, ms, double(bytes) * (passes / 2), halfMs, mhz,
                     "GB/s", 1e9, "bytes/cycle");
    CUDA_CHECK(cudaFree(p));
  }

  // DRAM copy and read.
  {
    size_t bytes = quick ? (96u << 20) : (size_t(2) << 30);
    size_t n = bytes / 16;
    uint4 *src, *dst;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    std::vector<unsigned> pattern;
    if (quick) {
      // From the host: a fill kernel would take the simulator longer than the copy.
      pattern.resize(bytes / 4);
      for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = unsigned(i * 2654435761u);
      CUDA_CHECK(cudaMemcpy(src, pattern.data(), bytes, cudaMemcpyHostToDevice));
    } else {
      fillWords<<<4 * sms, 512>>>((unsigned*)src, bytes / 4, 1);
    }
    CUDA_CHECK(cudaMemset(dst, 0, bytes));
    float ms = bestMs(runs, [&] { copy<<<4 * sms, 512>>>(src, dst, n); });
    if (quick) {
      std::vector<unsigned> copied(bytes / 4);
      CUDA_CHECK(cudaMemcpy(copied.data(), dst, bytes, cudaMemcpyDeviceToHost));
      sum = copied == pattern ? 0 : 1;
    } else {
      CUDA_CHECK(cudaMemset(dSum, 0, 8));
      checkCopy<<<4 * sms, 512>>>((const unsigned*)dst, bytes / 4, dSum);
      CUDA_CHECK(cudaMemcpy(&sum, dSum, 8, cudaMemcpyDeviceToHost));
    }
    if (sum != 0) fail("dram copy: %llu words differ", sum);
    reportRate("bw.dram.copy", 2.0 * double(bytes), ms, mhz, "GB/s", 1e9, "bytes/cycle");
    auto timeRead = [&](size_t words, bool warmUp) {
      float best = bestMs(
          runs,
          [&] {
            CUDA_CHECK(cudaMemset(dSum, 0, 8));
            readSum<<<4 * sms, 512>>>(src, words, dSum);
          },
          warmUp);
      return best;
    };
    ms = timeRead(n, true);
    reportRate("bw.dram.read", double(bytes), ms, mhz, "GB/s", 1e9, "bytes/cycle");
    // The first half, with no warm-up: the whole read left the array's end
    // in the L2, not its start (in quick mode the half would fit in it).
    float halfMs = timeRead(n / 2, false);
    reportSteadyRate("bw.dram.read.steady", double(bytes), ms, double(bytes / 2), halfMs, mhz, "GB/s", 1e9,
                     "bytes/cycle");
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
  }

  // Shared-memory bandwidth.
  {
    int iters = quick ? 32 : 2048;
    int ctas = quick ? 4 : sms;  // one per SM: the figure is per SM
    long long* dCycles;
    CUDA_CHECK(cudaMalloc(&dCycles, ctas * 8));
    CUDA_CHECK(cudaMemset(dSum, 0, 8));
    smemRead<<<ctas, 1024>>>(iters, dSum, dCycles);  // warm-up
    CUDA_CHECK(cudaMemset(dSum, 0, 8));
    smemRead<<<ctas, 1024>>>(iters, dSum, dCycles);
    CUDA_CHECK(cudaGetLastError());
    std::vector<long long> cycles(ctas);
    CUDA_CHECK(cudaMemcpy(cycles.data(), dCycles, ctas * 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&sum, dSum, 8, cudaMemcpyDeviceToHost));
    unsigned long long expect = 4ull * 8 * iters * 1024ull * ctas;
    if (sum != expect) fail("smem read: sum %llu, expected %llu", sum, expect);
    double bytesPerCta = 1024.0 * 16 * 8 * iters;
    report("bw.smem.read", bytesPerCta / median(cycles), "bytes/cycle/SM");
    CUDA_CHECK(cudaFree(dCycles));
  }

  // Atomics.
  {
    int block = 256;
    int oneGrid = quick ? sms : 4 * sms, oneIters = quick ? 4 : 64;
    int manyGrid = 4 * sms, manyIters = 64;
    double ops = double(oneGrid) * block * oneIters;
    unsigned* p;
    unsigned words = 1u << 20;
    CUDA_CHECK(cudaMalloc(&p, words * 4));
    unsigned* zeros;
    CUDA_CHECK(cudaMalloc(&zeros, 32 * 4));
    CUDA_CHECK(cudaMemset(zeros, 0, 32 * 4));
    float ms = bestMs(runs, [&] {
      CUDA_CHECK(cudaMemset(p, 0, 4));
      atomicOne<<<oneGrid, block>>>(p, zeros, oneIters);
    });
    unsigned one = 0;
    CUDA_CHECK(cudaMemcpy(&one, p, 4, cudaMemcpyDeviceToHost));
    if (one != unsigned(ops)) fail("atomic one address: %u, expected %.0f", one, ops);
    reportRate("atomic.one_address", ops, ms, mhz, "Gop/s", 1e9, "op/cycle");
    // Full size in quick mode too: one lane a warp costs a simulator little.
    int laneGrid = 4 * sms, laneIters = 64;
    double laneOps = double(laneGrid) * (block / 32) * laneIters;
    ms = bestMs(runs, [&] {
      CUDA_CHECK(cudaMemset(p, 0, 4));
      atomicOneLane<<<laneGrid, block>>>(p, zeros, laneIters);
    });
    CUDA_CHECK(cudaMemcpy(&one, p, 4, cudaMemcpyDeviceToHost));
    if (one != unsigned(laneOps)) fail("atomic one lane: %u, expected %.0f", one, laneOps);
    reportRate("atomic.one_address_one_lane", laneOps, ms, mhz, "Gop/s", 1e9, "op/cycle");
    ms = bestMs(runs, [&] {
      CUDA_CHECK(cudaMemset(p, 0, 4));
      atomicUniform<<<laneGrid, block>>>(p, laneIters);
    });
    double uniformOps = double(laneGrid) * block * laneIters;
    CUDA_CHECK(cudaMemcpy(&one, p, 4, cudaMemcpyDeviceToHost));
    if (one != unsigned(uniformOps)) fail("atomic uniform address: %u, expected %.0f", one, uniformOps);
    reportRate("atomic.uniform_address", uniformOps, ms, mhz, "Gop/s", 1e9, "op/cycle");
    auto timeMany = [&](int iters, bool warmUp) {
      float best = bestMs(
          runs,
          [&] {
            CUDA_CHECK(cudaMemset(p, 0, words * 4));
            atomicMany<<<manyGrid, block>>>(p, words, iters);
          },
          warmUp);
      std::vector<unsigned> h(words);
      CUDA_CHECK(cudaMemcpy(h.data(), p, words * 4, cudaMemcpyDeviceToHost));
      unsigned long long total = 0;
      for (unsigned v : h) total += v;
      double want = double(manyGrid) * block * iters;
      if (total != (unsigned long long)want) fail("atomic many addresses: total %llu, expected %.0f", total, want);
      return best;
    };
    ops = double(manyGrid) * block * manyIters;
    ms = timeMany(manyIters, true);
    reportRate("atomic.many_addresses", ops, ms, mhz, "Gop/s", 1e9, "op/cycle");
    float halfMs = timeMany(manyIters / 2, false);
    reportSteadyRate("atomic.many_addresses.steady", ops, ms, double(manyGrid) * block * (manyIters / 2), halfMs, mhz,
                     "Gop/s", 1e9, "op/cycle");
    CUDA_CHECK(cudaFree(p));
    CUDA_CHECK(cudaFree(zeros));
  }
  CUDA_CHECK(cudaFree(dSum));
  reportClock("clock.sm_mhz_end");
  return finish();
}
