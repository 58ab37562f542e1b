// Shared helpers of the calibration microbenchmarks (tests/timing/calibration).
//
// - report(name, value, unit): one result line "name value unit";
// - fail(...): records a failed self-check; finish() prints "ok" or the failures
//   and returns the exit code;
// - smClockMhz(): the SM clock measured on the device, clock64 cycles over
//   globaltimer nanoseconds of one spinning thread;
// - quickMode(): CALIB_QUICK=1 in the environment shrinks sizes and repeats so
//   that a simulator runs every program in reasonable time (the latencies keep
//   their meaning; the bandwidths become rough);
// - R*(s): the string s repeated, for unrolled inline-PTX chains without any
//   loop overhead;
// - clk(): %clock64 as a volatile asm with a memory clobber so that neither
//   the front end nor ptxas moves other memory operations across it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define R2(s) s s
#define R4(s) R2(R2(s))
#define R8(s) R2(R4(s))
#define R16(s) R2(R8(s))
#define R32(s) R2(R16(s))
#define R64(s) R2(R32(s))
#define R128(s) R2(R64(s))
#define R256(s) R2(R128(s))
#define R512(s) R2(R256(s))

// Eight independent FFMA chains: %0..%7 = %k * %8 + %9.
#define FFMA8_CHAINS                                                           \
  "fma.rn.f32 %0, %0, %8, %9;\n"                                               \
  "fma.rn.f32 %1, %1, %8, %9;\n"                                               \
  "fma.rn.f32 %2, %2, %8, %9;\n"                                               \
  "fma.rn.f32 %3, %3, %8, %9;\n"                                               \
  "fma.rn.f32 %4, %4, %8, %9;\n"                                               \
  "fma.rn.f32 %5, %5, %8, %9;\n"                                               \
  "fma.rn.f32 %6, %6, %8, %9;\n"                                               \
  "fma.rn.f32 %7, %7, %8, %9;\n"

static int g_failures = 0;

#define CUDA_CHECK(call)                                                         \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::printf("FAILED %s:%d %s: %s\n", __FILE__, __LINE__, #call,            \
                  cudaGetErrorString(err_));                                     \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

static inline void report(const char* name, double value, const char* unit) {
  std::printf("%s %.4g %s\n", name, value, unit);
  std::fflush(stdout);
}

static inline void report(const std::string& name, double value, const char* unit) {
  report(name.c_str(), value, unit);
}

template <typename... Args>
static inline void fail(const char* format, Args... args) {
  std::printf("FAILED ");
  std::printf(format, args...);
  std::printf("\n");
  ++g_failures;
}

static inline int finish() {
  if (g_failures == 0) {
    std::printf("ok\n");
    return 0;
  }
  std::printf("FAILED %d check(s)\n", g_failures);
  return 1;
}

static inline bool quickMode() {
  const char* q = std::getenv("CALIB_QUICK");
  return q != nullptr && q[0] != '\0' && q[0] != '0';
}

template <typename T>
static inline double median(std::vector<T> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? double(v[n / 2]) : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
}

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Spins `cycles` SM cycles; records clock64 and globaltimer at both ends.
__global__ void calibClockKernel(long long cycles, long long* out) {
  unsigned long long g0 = gtimer();
  long long c0 = clk();
  long long c = c0;
  while (c - c0 < cycles) c = clk();
  unsigned long long g1 = gtimer();
  long long c1 = clk();
  out[0] = c1 - c0;
  out[1] = (long long)(g1 - g0);
}

// The SM clock in MHz (clock64 cycles per globaltimer microsecond), from a
// spin of about 20 ms at 2 GHz (100k cycles in quick mode). 0 when
// globaltimer does not advance.
static inline double smClockMhz() {
  long long* d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 2 * sizeof(long long)));
  long long h[2] = {0, 0};
  long long cycles = quickMode() ? 100000LL : 40000000LL;
  calibClockKernel<<<1, 1>>>(cycles, d);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  if (h[0] < cycles) fail("clock: spun %lld cycles, asked %lld", h[0], cycles);
  return h[1] > 0 ? double(h[0]) * 1000.0 / double(h[1]) : 0.0;
}

// Prints the device context: SM count and the measured SM clock.
static inline double reportClock(const char* name = "clock.sm_mhz") {
  double mhz = smClockMhz();
  report(name, mhz, "MHz");
  return mhz;
}

static inline int smCount() {
  int n = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0));
  return n;
}

// Best time in ms of `runs` launches, after one warm-up unless told not to.
template <typename F>
static inline float bestMs(int runs, F launch, bool warmUp = true) {
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  if (warmUp) launch();
  float best = 1e30f;
  for (int i = 0; i < runs; ++i) {
    CUDA_CHECK(cudaEventRecord(e0));
    launch();
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaEventSynchronize(e1));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    best = std::min(best, ms);
  }
  CUDA_CHECK(cudaEventDestroy(e0));
  CUDA_CHECK(cudaEventDestroy(e1));
  return best;
}
