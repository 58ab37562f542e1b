// memory_latency: load-to-use latency of the global-memory hierarchy, in SM
// cycles, from one thread: pointer chases of 64-bit addresses (each loaded
// word is the address of the next, in a random cyclic order built on the
// device), timed with %clock64 as chains of 256 and 512 loads (medians of
// repetitions; latency = difference / 256):
// - latency.l1.chase: ld.global.ca over 128 lines of 128 B (16 KiB), after a
//   warm-up lap: L1 hits;
// - latency.l1.offset_chase.{lane1,warp_1line,warp_32lines}: L1 hits of a
//   chase of 32-bit offsets (address = base + offset: IADD3 + IADD3.X + LDG
//   per step) by one lane, by 32 lanes reading one 128-byte line (word l of
//   the line for lane l: one coalesced request) and by 32 lanes reading 32
//   different lines, over 64 lines (8 KiB) after two warm-up laps;
//   latency.l1.address_arith = lane1 - latency.l1.chase (the address
//   arithmetic), latency.l1.warp_1line / warp_32lines the offset chases less
//   it (the load's own latency), latency.l1.extra_per_line = (32 lines - 1
//   line) / 31;
// - latency.const.chase_1k / chase_32k: ld.const.u32 with a register address
//   (LDC c[0x3][R]) chasing constant-space addresses over 16 / 512 elements
//   64 B apart (1 KiB / 32 KiB of a __constant__ array), after two warm-up
//   laps: constant-cache hits (the 32 KiB set exceeds the small per-SM
//   constant cache);
// - latency.l2.chase: ld.global.cg (bypasses L1) over 16384 lines of 128 B
//   (2 MiB), after a warm-up lap: L2 hits, near and far partitions mixed;
// - latency.l2.near / latency.l2.far: the same lines timed one load at a time
//   (clock64, load, a shared store that waits for the value, clock64; 3
//   laps, per-line median), split into two clusters by 1-D 2-means; the
//   fixed cost of that timing (its L1-hit reading minus latency.l1.chase) is
//   subtracted; l2.near_fraction and l2.cluster_gap_sigma (gap between the
//   cluster medians over the pooled standard deviation) tell whether the two
//   clusters are real;
// - latency.dram.page_local: ld.global.cg over 8192 lines 256 B apart in one
//   2 MiB region, after L2 was flushed (a 256 MiB buffer written and read;
//   64 MiB in quick mode),
//   no line visited twice: DRAM with TLB hits;
// - latency.dram.page_stride: the same with every load in a different 2 MiB
//   page (4096 lines 2 MiB + 128 B apart): DRAM with TLB misses.
// Every chase's end address is checked against the host's walk of the cycle.
//
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

#include <cstdint>

#define LD_CA "ld.global.ca.u64 %0, [%0];\n"
#define LD_CG "ld.global.cg.u64 %0, [%0];\n"

// Element order[i] (at base + order[i] * stride) holds the address of
// element order[i + 1 mod n].
__global__ void buildChase(char* base, const unsigned* order, int n, size_t stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    *(uint64_t*)(base + order[i] * stride) = (uint64_t)(base + order[(i + 1) % n] * stride);
}

#define CHASE_KERNEL(NAME, OP)                                                 \
  __global__ void NAME(uint64_t start, int warm, int reps, long long* times,   \
                       uint64_t* end) {                                        \
    __shared__ unsigned sinkSlot[1];                                           \
    volatile unsigned* sink = sinkSlot;                                        \
    uint64_t x = start;                                                        \
    for (int i = 0; i < warm; ++i) asm volatile(OP : "+l"(x)::"memory");       \
    for (int r = 0; r < reps; ++r) {                                           \
      *sink = (unsigned)x;                                                     \
      long long t0 = clk();                                                    \
      asm volatile(R256(OP) : "+l"(x)::"memory");                              \
      long long t1 = clk();                                                    \
      *sink = (unsigned)x;                                                     \
      long long t2 = clk();                                                    \
      asm volatile(R512(OP) : "+l"(x)::"memory");                              \
      long long t3 = clk();                                                    \
      times[2 * r] = t1 - t0;                                                  \
      times[2 * r + 1] = t3 - t2;                                              \
    }                                                                          \
    *end = x;                                                                  \
  }
CHASE_KERNEL(chaseCa, LD_CA)
CHASE_KERNEL(chaseCg, LD_CG)

// One load at a time: lat[lap * n + i] is the time of the i-th load of lap
// `lap` (lap 0 is a warm-up and is recorded too).
#define PER_ACCESS_KERNEL(NAME, OP)                                            \
  __global__ void NAME(uint64_t start, int n, int laps, unsigned* lat,         \
                       uint64_t* end) {                                        \
    __shared__ unsigned sinkSlot[1];                                           \
    volatile unsigned* sink = sinkSlot;                                        \
    uint64_t x = start;                                                        \
    for (int lap = 0; lap < laps; ++lap)                                       \
      for (int i = 0; i < n; ++i) {                                            \
        long long t0 = clk();                                                  \
        asm volatile(OP : "+l"(x)::"memory");                                  \
        *sink = (unsigned)x;                                                   \
        long long t1 = clk();                                                  \
        lat[lap * n + i] = (unsigned)(t1 - t0);                                \
      }                                                                        \
    *end = x;                                                                  \
  }
PER_ACCESS_KERNEL(perAccessCa, LD_CA)
PER_ACCESS_KERNEL(perAccessCg, LD_CG)

__global__ void flushWrite(uint4* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = make_uint4(i, 1, 2, 3);
}
__global__ void flushRead(const uint4* p, size_t n, unsigned* sum) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += p[i].x + p[i].w;
  if (s == 0x12345678u) *sum = s;  // practically never: keeps the reads
}

// A chase of n elements `stride` bytes apart in a fresh allocation.
struct Chase {
  char* base = nullptr;
  std::vector<unsigned> order;
  size_t stride = 0;
  uint64_t addr(unsigned element) const { return (uint64_t)(base + element * stride); }
};

static uint64_t g_lcg = 0x2545F4914F6CDD1DULL;
static unsigned nextRandom() {
  g_lcg = g_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return unsigned(g_lcg >> 33);
}

static Chase makeChase(int n, size_t stride) {
  Chase c;
  c.stride = stride;
  c.order.resize(n);
  for (int i = 0; i < n; ++i) c.order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(c.order[i], c.order[nextRandom() % (i + 1)]);
  CUDA_CHECK(cudaMalloc(&c.base, n * stride));
  unsigned* dOrder;
  CUDA_CHECK(cudaMalloc(&dOrder, n * 4));
  CUDA_CHECK(cudaMemcpy(dOrder, c.order.data(), n * 4, cudaMemcpyHostToDevice));
  buildChase<<<64, 256>>>(c.base, dOrder, n, stride);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(dOrder));
  return c;
}

static void flushL2(size_t bytes) {
  uint4* p;
  unsigned* s;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  CUDA_CHECK(cudaMalloc(&s, 4));
  flushWrite<<<1024, 256>>>(p, bytes / 16);
  flushRead<<<1024, 256>>>(p, bytes / 16, s);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(p));
  CUDA_CHECK(cudaFree(s));
}

typedef void (*ChaseKernel)(uint64_t, int, int, long long*, uint64_t*);

// --- L1 hits of a whole warp: one line vs 32 lines --------------------------
// A chase of 32-bit byte offsets from `base` (address = base + offset: an
// IADD3 and an IADD3.X before each LDG, measured with one thread and
// subtracted). Lane l reads word l of its line: in the one-line layout all
// lanes read the same 128-byte line (one coalesced request); in the 32-line
// layout lane l reads line (order[k] + l) % n at step k: 32 lines per load.
#define LD_CA_OFF \
  "{.reg .u64 a; cvt.u64.u32 a, %0; add.u64 a, a, %1; ld.global.ca.u32 %0, [a];}\n"
__global__ void chaseOffsets(const char* base, const unsigned* start, int warm, int reps,
                             long long* times, unsigned* end) {
  __shared__ unsigned sinkSlot[32];
  volatile unsigned* sink = sinkSlot + (threadIdx.x & 31);
  unsigned x = start[threadIdx.x];
  for (int i = 0; i < warm; ++i) asm volatile(LD_CA_OFF : "+r"(x) : "l"(base) : "memory");
  for (int r = 0; r < reps; ++r) {
    *sink = x;
    long long t0 = clk();
    asm volatile(R256(LD_CA_OFF) : "+r"(x) : "l"(base) : "memory");
    long long t1 = clk();
    *sink = x;
    long long t2 = clk();
    asm volatile(R512(LD_CA_OFF) : "+r"(x) : "l"(base) : "memory");
    long long t3 = clk();
    if (threadIdx.x == 0) {
      times[2 * r] = t1 - t0;
      times[2 * r + 1] = t3 - t2;
    }
  }
  end[threadIdx.x] = x;
}

// Latency per load of an offset chase over n lines of 128 B with `lanes`
// lanes (1 or 32); spread: the 32-line layout.
static double offsetChase(const char* what, int n, int lanes, bool spread, int reps) {
  std::vector<unsigned> order(n), pos(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[nextRandom() % (i + 1)]);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  auto off = [](unsigned line, unsigned lane) { return (line * 32 + lane) * 4; };
  std::vector<unsigned> table(size_t(n) * 32), start(32);
  for (unsigned m = 0; m < unsigned(n); ++m)
    for (unsigned l = 0; l < 32; ++l) {
      unsigned k = pos[spread ? (m + n - l % n) % n : m];  // the step at which lane l reads line m
      unsigned nextLine = order[(k + 1) % n];
      table[m * 32 + l] = off(spread ? (nextLine + l) % n : nextLine, l);
    }
  for (unsigned l = 0; l < 32; ++l) start[l] = off(spread ? (order[0] + l) % n : order[0], l);
  char* dBase;
  unsigned *dStart, *dEnd;
  long long* dTimes;
  CUDA_CHECK(cudaMalloc(&dBase, table.size() * 4));
  CUDA_CHECK(cudaMalloc(&dStart, 32 * 4));
  CUDA_CHECK(cudaMalloc(&dEnd, 32 * 4));
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
  CUDA_CHECK(cudaMemcpy(dBase, table.data(), table.size() * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dStart, start.data(), 32 * 4, cudaMemcpyHostToDevice));
  chaseOffsets<<<1, lanes>>>(dBase, dStart, 2 * n, reps, dTimes, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> t(2 * reps);
  std::vector<unsigned> end(32);
  CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(end.data(), dEnd, 32 * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dBase));
  CUDA_CHECK(cudaFree(dStart));
  CUDA_CHECK(cudaFree(dEnd));
  CUDA_CHECK(cudaFree(dTimes));
  unsigned line = order[(2 * size_t(n) + size_t(reps) * 768) % n];
  for (int l = 0; l < lanes; ++l) {
    unsigned expect = off(spread ? (line + l) % n : line, l);
    if (end[l] != expect) {
      fail("%s: lane %d ended at offset %u, expected %u", what, l, end[l], expect);
      break;
    }
  }
  std::vector<long long> a, b;
  for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
  return (median(b) - median(a)) / 256.0;
}

// --- constant cache: a chase of ld.const (LDC with a register address) ------
// cchase[] holds, for element i (at byte i * stride of the array), the
// constant-space address of the next element in a random cycle.
__constant__ unsigned cchase[12288];  // 48 KiB
#define LD_CONST "ld.const.u32 %0, [%0];\n"
__global__ void constBase(unsigned long long* out) {
  unsigned long long a;
  asm("cvta.to.const.u64 %0, %1;" : "=l"(a) : "l"(cchase));
  out[0] = a;
}
__global__ void chaseConst(unsigned start, int warm, int reps, long long* times, unsigned* end) {
  __shared__ unsigned sinkSlot[1];
  volatile unsigned* sink = sinkSlot;
  unsigned x = start;
  for (int i = 0; i < warm; ++i) asm volatile(LD_CONST : "+r"(x)::"memory");
  for (int r = 0; r < reps; ++r) {
    *sink = x;
    long long t0 = clk();
    asm volatile(R256(LD_CONST) : "+r"(x)::"memory");
    long long t1 = clk();
    *sink = x;
    long long t2 = clk();
    asm volatile(R512(LD_CONST) : "+r"(x)::"memory");
    long long t3 = clk();
    times[2 * r] = t1 - t0;
    times[2 * r + 1] = t3 - t2;
  }
  *end = x;
}

// Latency per ld.const of a chase over n elements `stride` bytes apart.
static double constChase(const char* what, int n, int stride, int reps) {
  unsigned long long* dA;
  unsigned long long constAddr = 0;
  CUDA_CHECK(cudaMalloc(&dA, 8));
  constBase<<<1, 1>>>(dA);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&constAddr, dA, 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dA));
  std::vector<unsigned> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[nextRandom() % (i + 1)]);
  std::vector<unsigned> table(12288, 0);
  auto addr = [&](unsigned e) { return unsigned(constAddr) + e * unsigned(stride); };
  for (int i = 0; i < n; ++i) table[order[i] * (stride / 4)] = addr(order[(i + 1) % n]);
  CUDA_CHECK(cudaMemcpyToSymbol(cchase, table.data(), table.size() * 4));
  long long* dTimes;
  unsigned* dEnd;
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
  CUDA_CHECK(cudaMalloc(&dEnd, 4));
  chaseConst<<<1, 1>>>(addr(order[0]), 2 * n, reps, dTimes, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> t(2 * reps);
  unsigned end = 0;
  CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, dEnd, 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dEnd));
  unsigned expect = addr(order[(2 * size_t(n) + size_t(reps) * 768) % n]);
  if (end != expect) fail("%s: the chase ended at %x, expected %x", what, end, expect);
  std::vector<long long> a, b;
  for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
  return (median(b) - median(a)) / 256.0;
}

// Latency per load of `c` with `warm` untimed loads first.
static double chaseLatency(const char* what, ChaseKernel k, const Chase& c, int warm, int reps) {
  long long* dTimes;
  uint64_t* dEnd;
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
  CUDA_CHECK(cudaMalloc(&dEnd, 8));
  k<<<1, 1>>>(c.addr(c.order[0]), warm, reps, dTimes, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> t(2 * reps);
  uint64_t end = 0;
  CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, dEnd, 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dTimes));
  CUDA_CHECK(cudaFree(dEnd));
  size_t n = c.order.size();
  uint64_t expect = c.addr(c.order[(warm + (size_t)reps * 768) % n]);
  if (end != expect) fail("%s: the chase ended at %llx, expected %llx", what,
                          (unsigned long long)end, (unsigned long long)expect);
  std::vector<long long> a, b;
  for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
  return (median(b) - median(a)) / 256.0;
}

typedef void (*PerAccessKernel)(uint64_t, int, int, unsigned*, uint64_t*);

// Per-line median time of laps 1.. of a one-load-at-a-time walk of `c`.
static std::vector<double> perAccess(const char* what, PerAccessKernel k, const Chase& c, int laps) {
  int n = (int)c.order.size();
  unsigned* dLat;
  uint64_t* dEnd;
  CUDA_CHECK(cudaMalloc(&dLat, (size_t)laps * n * 4));
  CUDA_CHECK(cudaMalloc(&dEnd, 8));
  k<<<1, 1>>>(c.addr(c.order[0]), n, laps, dLat, dEnd);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> lat((size_t)laps * n);
  uint64_t end = 0;
  CUDA_CHECK(cudaMemcpy(lat.data(), dLat, lat.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&end, dEnd, 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dLat));
  CUDA_CHECK(cudaFree(dEnd));
  if (end != c.addr(c.order[0])) fail("%s: the walk ended at %llx, expected %llx", what,
                                      (unsigned long long)end,
                                      (unsigned long long)c.addr(c.order[0]));
  std::vector<double> perLine(n);
  for (int i = 0; i < n; ++i) {
    std::vector<unsigned> v;
    for (int lap = 1; lap < laps; ++lap) v.push_back(lat[(size_t)lap * n + i]);
    perLine[i] = median(v);
  }
  return perLine;
}

int main() {
  reportClock();
  bool quick = quickMode();
  int reps = quick ? 3 : 7;

  // L1 hits.
  Chase l1 = makeChase(128, 128);
  double l1Lat = chaseLatency("l1", chaseCa, l1, 128, reps);
  report("latency.l1.chase", l1Lat, "cycles");
  std::vector<double> l1Each = perAccess("l1 per access", perAccessCa, l1, 4);
  double overhead = median(l1Each) - l1Lat;
  report("latency.per_access_overhead", overhead, "cycles");

  // L1 hits of a warp: 32 lanes in one line vs in 32 lines (64 lines, 8 KiB).
  {
    double lane1 = offsetChase("l1 offsets, one lane", 64, 1, false, reps);
    double line1 = offsetChase("l1 offsets, one line", 64, 32, false, reps);
    double lines32 = offsetChase("l1 offsets, 32 lines", 64, 32, true, reps);
    double addrCost = lane1 - l1Lat;  // the IADD3 + IADD3.X before each load
    report("latency.l1.offset_chase.lane1", lane1, "cycles");
    report("latency.l1.offset_chase.warp_1line", line1, "cycles");
    report("latency.l1.offset_chase.warp_32lines", lines32, "cycles");
    report("latency.l1.address_arith", addrCost, "cycles");
    report("latency.l1.warp_1line", line1 - addrCost, "cycles");
    report("latency.l1.warp_32lines", lines32 - addrCost, "cycles");
    report("latency.l1.extra_per_line", (lines32 - line1) / 31.0, "cycles");
  }

  // Constant cache hits: 16 elements 64 B apart (1 KiB) and 512 (32 KiB).
  report("latency.const.chase_1k", constChase("const 1k", 16, 64, reps), "cycles");
  report("latency.const.chase_32k", constChase("const 32k", 512, 64, reps), "cycles");

  // L2 hits.
  int l2n = quick ? 1024 : 16384;
  Chase l2 = makeChase(l2n, 128);
  report("latency.l2.chase", chaseLatency("l2", chaseCg, l2, l2n, reps), "cycles");
  std::vector<double> each = perAccess("l2 per access", perAccessCg, l2, 4);
  std::vector<double> v = each;
  std::sort(v.begin(), v.end());
  // 1-D 2-means: the split minimising the within-cluster sum of squares.
  size_t n = v.size(), best = 1;
  std::vector<double> pre(n + 1, 0), pre2(n + 1, 0);
  for (size_t i = 0; i < n; ++i) { pre[i + 1] = pre[i] + v[i]; pre2[i + 1] = pre2[i] + v[i] * v[i]; }
  auto sse = [&](size_t a, size_t b) {  // [a, b)
    double s = pre[b] - pre[a], s2 = pre2[b] - pre2[a];
    return s2 - s * s / double(b - a);
  };
  double bestCost = 1e300;
  for (size_t k = 1; k < n; ++k) {
    double cost = sse(0, k) + sse(k, n);
    if (cost < bestCost) { bestCost = cost; best = k; }
  }
  std::vector<double> lo(v.begin(), v.begin() + best), hi(v.begin() + best, v.end());
  double sigma = std::sqrt(bestCost / double(n));
  report("latency.l2.near", median(lo) - overhead, "cycles");
  report("latency.l2.far", median(hi) - overhead, "cycles");
  report("l2.near_fraction", double(lo.size()) / double(n), "fraction");
  report("l2.cluster_gap_sigma", sigma > 0 ? (median(hi) - median(lo)) / sigma : 0.0, "sigma");
  report("latency.l2.per_access_p10", v[n / 10] - overhead, "cycles");
  report("latency.l2.per_access_p90", v[n * 9 / 10] - overhead, "cycles");
  CUDA_CHECK(cudaFree(l1.base));
  CUDA_CHECK(cudaFree(l2.base));

  // DRAM, within one 2 MiB page: no line visited twice.
  int dreps = quick ? 2 : 5;
  // More than the L2 holds (50 MiB), quick or not.
  size_t flushBytes = quick ? (64u << 20) : (256u << 20);
  Chase local = makeChase(quick ? 2048 : 8192, 256);
  flushL2(flushBytes);
  report("latency.dram.page_local", chaseLatency("dram page_local", chaseCg, local, 0, dreps),
         "cycles");
  CUDA_CHECK(cudaFree(local.base));

  // DRAM, every load in another 2 MiB page.
  size_t freeB = 0, totalB = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeB, &totalB));
  int pn = quick ? 1600 : 4096;
  size_t pstride = quick ? 4096 + 128 : (2u << 20) + 128;
  if ((size_t)pn * pstride > freeB / 2) pn = int(freeB / 2 / pstride);
  int preps = std::min(dreps, (pn - 1) / 768);
  if (preps < 1) {
    fail("dram page_stride: only %d pages fit in memory", pn);
  } else {
    Chase paged = makeChase(pn, pstride);
    flushL2(flushBytes);
    report("latency.dram.page_stride", chaseLatency("dram page_stride", chaseCg, paged, 0, preps),
           "cycles");
    CUDA_CHECK(cudaFree(paged.base));
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
