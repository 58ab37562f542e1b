// texture_cp_async: the texture path's and cp.async's latencies, in SM
// cycles, from one thread (tex.latency and the cp.async timing of the
// timing model are held against them):
// - latency.tex.l1_chase: tex1Dfetch of a 32-bit int linear texture (a
//   `tex.1d.v4.s32.s32` chain: each fetched element is the index of the
//   next) over 128 elements 128 B apart (16 KiB) in a random cyclic order,
//   after a warm-up lap: texture (L1) hits; chains of 256 and 512 fetches,
//   latency = difference / 256, median of repetitions;
// - latency.tex.l2_chase: the same over 16384 elements 128 B apart (2 MiB,
//   beyond the L1), after a warm-up lap: L2 hits, near and far mixed;
// - latency.tex.ld_ca_reference: an ld.global.ca chase of 64-bit addresses
//   over 16 KiB (memory_latency's latency.l1.chase, run here for the same
//   clock), and latency.tex.over_l1 = l1_chase - ld_ca_reference: what the
//   texture pipeline adds to an L1 hit (the timing model's tex.latency);
// - latency.cp_async.inflight_1 / inflight_8: one cp.async.cg of 16 bytes
//   (1) or 8 of them to 8 different lines (8), then commit_group,
//   wait_group 0 and a volatile read of the shared copy, between two clock
//   reads; lines of a 2 MiB buffer warmed into the L2, each copied once;
//   median over the repetitions;
// - latency.cp_async.ld_cg_reference: the same timing of one ld.global.cg
//   whose value is stored to shared memory and read back.
// Every chase's end is checked against the host's walk, every copy's value
// against the line it came from.
//
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

#include <cstdint>

#define TEX_STEP "tex.1d.v4.s32.s32 {%0, %1, %2, %3}, [%4, {%0}];\n"
#define LD_CA "ld.global.ca.u64 %0, [%0];\n"

__global__ void chaseTex(cudaTextureObject_t tex, int start, int warm, int reps, long long* times, int* end) {
  __shared__ int sinkSlot[1];
  volatile int* sink = sinkSlot;
  int x = start, d1 = 0, d2 = 0, d3 = 0;
  for (int i = 0; i < warm; ++i) asm volatile(TEX_STEP : "+r"(x), "=r"(d1), "=r"(d2), "=r"(d3) : "l"(tex) : "memory");
  for (int r = 0; r < reps; ++r) {
    *sink = x;
    long long t0 = clk();
    asm volatile(R256(TEX_STEP) : "+r"(x), "=r"(d1), "=r"(d2), "=r"(d3) : "l"(tex) : "memory");
    long long t1 = clk();
    *sink = x;
    long long t2 = clk();
    asm volatile(R512(TEX_STEP) : "+r"(x), "=r"(d1), "=r"(d2), "=r"(d3) : "l"(tex) : "memory");
    long long t3 = clk();
    times[2 * r] = t1 - t0;
    times[2 * r + 1] = t3 - t2;
  }
  *end = x + (d1 & d2 & d3 & 0);
}

__global__ void chaseCa(uint64_t start, int warm, int reps, long long* times, uint64_t* end) {
  __shared__ unsigned sinkSlot[1];
  volatile unsigned* sink = sinkSlot;
  uint64_t x = start;
  for (int i = 0; i < warm; ++i) asm volatile(LD_CA : "+l"(x)::"memory");
  for (int r = 0; r < reps; ++r) {
    *sink = (unsigned)x;
    long long t0 = clk();
    asm volatile(R256(LD_CA) : "+l"(x)::"memory");
    long long t1 = clk();
    *sink = (unsigned)x;
    long long t2 = clk();
    asm volatile(R512(LD_CA) : "+l"(x)::"memory");
    long long t3 = clk();
    times[2 * r] = t1 - t0;
    times[2 * r + 1] = t3 - t2;
  }
  *end = x;
}

// Word 0 of each 128-byte line of `lines` holds the line's number.
__global__ void numberLines(int* p, int lines) {
  for (int l = blockIdx.x * blockDim.x + threadIdx.x; l < lines; l += gridDim.x * blockDim.x) p[l * 32] = l;
}

// Reads every line with .cg (into the L2, not the L1).
__global__ void warmL2(const int* p, int lines, int* sum) {
  int s = 0;
  for (int l = 0; l < lines; ++l) {
    int v;
    asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(p + l * 32) : "memory");
    s += v;
  }
  *sum = s;
}

// Repetition r copies lines r * N .. r * N + N - 1 (16 bytes each) and
// times issue to the first copy's use; sum: the copied line numbers.
template <int N>
__global__ void cpAsyncLatency(const int* src, int reps, long long* times, long long* sum) {
  __shared__ __align__(16) int buf[4 * N];
  volatile int* vbuf = buf;
  unsigned base = (unsigned)__cvta_generic_to_shared(buf);
  long long s = 0;
  for (int r = 0; r < reps; ++r) {
    const int* p = src + (size_t)r * N * 32;
    long long t0 = clk();
#pragma unroll
    for (int k = 0; k < N; ++k)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(base + 16 * k), "l"(p + 32 * k) : "memory");
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    int v = vbuf[0];
    long long t1 = clk();
    times[r] = t1 - t0;
    for (int k = 0; k < N; ++k) s += vbuf[4 * k];
    s += v - vbuf[0];
  }
  *sum = s;
}

// The same timing of one ld.global.cg stored to shared memory and read back.
__global__ void ldCgLatency(const int* src, int reps, long long* times, long long* sum) {
  __shared__ int buf[1];
  volatile int* vbuf = buf;
  long long s = 0;
  for (int r = 0; r < reps; ++r) {
    int v;
    long long t0 = clk();
    asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(src + (size_t)r * 32) : "memory");
    vbuf[0] = v;
    int w = vbuf[0];
    long long t1 = clk();
    times[r] = t1 - t0;
    s += w;
  }
  *sum = s;
}

static uint64_t g_lcg = 0x2545F4914F6CDD1DULL;
static unsigned nextRandom() {
  g_lcg = g_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return unsigned(g_lcg >> 33);
}

static std::vector<unsigned> randomCycle(int n) {
  std::vector<unsigned> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[nextRandom() % (i + 1)]);
  return order;
}

// Chain latency from the 256/512 pairs: median(T512) - median(T256) over 256.
static double chainLatency(const std::vector<long long>& times, int reps) {
  std::vector<long long> t256, t512;
  for (int r = 0; r < reps; ++r) {
    t256.push_back(times[2 * r]);
    t512.push_back(times[2 * r + 1]);
  }
  return (median(t512) - median(t256)) / 256.0;
}

// A tex1Dfetch chase over n elements 128 B (32 ints) apart.
static double texChase(int n, int reps, const char* name) {
  const int strideInts = 32;
  std::vector<unsigned> order = randomCycle(n);
  std::vector<int> host((size_t)n * strideInts, 0);
  for (int i = 0; i < n; ++i) host[(size_t)order[i] * strideInts] = (int)(order[(i + 1) % n] * strideInts);
  int* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, host.size() * 4));
  CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = host.size() * 4;
  cudaTextureDesc desc = {};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
  long long* dTimes = nullptr;
  int* dEnd = nullptr;
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&dEnd, sizeof(int)));
  int start = (int)(order[0] * strideInts);
  chaseTex<<<1, 1>>>(tex, start, n, reps, dTimes, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> times(2 * reps);
  int end = 0;
  CUDA_CHECK(cudaMemcpy(times.data(), dTimes, times.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, dEnd, sizeof(int), cudaMemcpyDeviceToHost));
  // n warm-up steps, then reps x 768 steps: the walk's position.
  long long steps = (long long)n + (long long)reps * 768;
  int expected = (int)(order[steps % n] * strideInts);
  if (end != expected) fail("%s: the chase ended at %d, expected %d", name, end, expected);
  CUDA_CHECK(cudaDestroyTextureObject(tex));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dEnd));
  double latency = chainLatency(times, reps);
  report(name, latency, "cycles");
  return latency;
}

// An ld.global.ca chase of 64-bit addresses over n lines (16 KiB for 128).
static double ldCaChase(int n, int reps, const char* name) {
  std::vector<unsigned> order = randomCycle(n);
  char* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, (size_t)n * 128));
  std::vector<uint64_t> host((size_t)n * 16, 0);
  for (int i = 0; i < n; ++i) host[(size_t)order[i] * 16] = (uint64_t)(d + (size_t)order[(i + 1) % n] * 128);
  CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * 8, cudaMemcpyHostToDevice));
  long long* dTimes = nullptr;
  uint64_t* dEnd = nullptr;
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&dEnd, sizeof(uint64_t)));
  chaseCa<<<1, 1>>>((uint64_t)(d + (size_t)order[0] * 128), n, reps, dTimes, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> times(2 * reps);
  uint64_t end = 0;
  CUDA_CHECK(cudaMemcpy(times.data(), dTimes, times.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, dEnd, sizeof(uint64_t), cudaMemcpyDeviceToHost));
  long long steps = (long long)n + (long long)reps * 768;
  uint64_t expected = (uint64_t)(d + (size_t)order[steps % n] * 128);
  if (end != expected) fail("%s: the chase ended at the wrong address", name);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dEnd));
  double latency = chainLatency(times, reps);
  report(name, latency, "cycles");
  return latency;
}

template <int N>
static void cpAsync(const int* lines, int reps, const char* name) {
  long long* dTimes = nullptr;
  long long* dSum = nullptr;
  CUDA_CHECK(cudaMalloc(&dTimes, reps * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&dSum, sizeof(long long)));
  cpAsyncLatency<N><<<1, 1>>>(lines, reps, dTimes, dSum);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> times(reps);
  long long sum = 0;
  CUDA_CHECK(cudaMemcpy(times.data(), dTimes, reps * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, dSum, sizeof(long long), cudaMemcpyDeviceToHost));
  long long expected = (long long)reps * N * (reps * N - 1) / 2;  // lines 0 .. reps * N - 1
  if (sum != expected) fail("%s: the copies summed to %lld, expected %lld", name, sum, expected);
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dSum));
  report(name, median(times), "cycles");
}

static void ldCgReference(const int* lines, int reps, const char* name) {
  long long* dTimes = nullptr;
  long long* dSum = nullptr;
  CUDA_CHECK(cudaMalloc(&dTimes, reps * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&dSum, sizeof(long long)));
  ldCgLatency<<<1, 1>>>(lines, reps, dTimes, dSum);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> times(reps);
  long long sum = 0;
  CUDA_CHECK(cudaMemcpy(times.data(), dTimes, reps * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sum, dSum, sizeof(long long), cudaMemcpyDeviceToHost));
  long long expected = (long long)reps * (reps - 1) / 2;
  if (sum != expected) fail("%s: the loads summed to %lld, expected %lld", name, sum, expected);
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dSum));
  report(name, median(times), "cycles");
}

int main() {
  reportClock();
  const bool quick = quickMode();
  const int reps = quick ? 3 : 9;
  double texL1 = texChase(128, reps, "latency.tex.l1_chase");
  texChase(quick ? 4096 : 16384, reps, "latency.tex.l2_chase");
  double ldL1 = ldCaChase(128, reps, "latency.tex.ld_ca_reference");
  report("latency.tex.over_l1", texL1 - ldL1, "cycles");

  // 2 MiB of lines (the L1 holds at most 256 KiB), warmed into the L2.
  const int lines = 16384;
  int* d = nullptr;
  int* dWarm = nullptr;
  CUDA_CHECK(cudaMalloc(&d, (size_t)lines * 128));
  CUDA_CHECK(cudaMalloc(&dWarm, sizeof(int)));
  numberLines<<<64, 256>>>(d, lines);
  CUDA_CHECK(cudaGetLastError());
  warmL2<<<1, 1>>>(d, lines, dWarm);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const int copyReps = quick ? 32 : 512;  // 8 x 512 lines: each line copied once
  cpAsync<1>(d, copyReps, "latency.cp_async.inflight_1");
  cpAsync<8>(d, copyReps, "latency.cp_async.inflight_8");
  ldCgReference(d, copyReps, "latency.cp_async.ld_cg_reference");
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dWarm));
  reportClock("clock.sm_mhz_end");
  return finish();
}
