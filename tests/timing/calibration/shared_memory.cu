// shared_memory: shared-memory load latency and the cost of bank conflicts,
// from one warp (32 threads, one CTA), in SM cycles.
//
// Every access is inline PTX whose loaded word is the next address, so
// loads form chains (pointer chases) that ptxas cannot shorten or fold:
// - latency.smem.chase: ld.shared.u32 chase over 1024 words, lane l visiting
//   words l, l + 32, ... (every lane its own bank: no conflict);
// - latency.smem.conflict_N: a dependent load with an N-way bank conflict
//   (lane l reads word (l % N) * 32 + l / N, which holds its own address:
//   32 / N banks, N distinct words in each), N = 1 .. 32;
// - latency.smem.broadcast: all lanes read one word;
// - latency.smem.ld64 / ld128: ld.shared.v2 / v4 of consecutive 8 / 16-byte
//   elements (the other words are 0, summed into an accumulator);
// - throughput.smem.*: the same accesses, eight independent chains per lane,
//   in cycles per warp access; stores (st.shared.u32 of the own address)
//   likewise; and the cost per extra way, (cost(32) - cost(1)) / 31.
// Chains of 256 and 512 are timed with %clock64 (9 repetitions, medians);
// per access = difference / 256. Each lane's final address and the
// accumulators are checked.
//
// Output: METRIC CYCLES cycles, then ok or FAILED.
#include "calib_common.h"

#define W1(d, c) "ld.shared.u32 %" d ", [%" d "];\n"
#define W2(d, c) "{.reg .b32 t; ld.shared.v2.u32 {%" d ", t}, [%" d "]; add.u32 %" c ", %" c ", t;}\n"
#define W4(d, c)                                                               \
  "{.reg .b32 t<3>; ld.shared.v4.u32 {%" d ", t0, t1, t2}, [%" d "]; "         \
  "add.u32 %" c ", %" c ", t0; add.u32 %" c ", %" c ", t1; add.u32 %" c       \
  ", %" c ", t2;}\n"
#define ST(d, c) "st.shared.u32 [%" d "], %" d ";\n"
#define IND8P(M) \
  M("0", "8") M("1", "9") M("2", "10") M("3", "11") M("4", "12") M("5", "13") M("6", "14") M("7", "15")
#define SMEM_OPERANDS                                                          \
  "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]),      \
      "+r"(x[6]), "+r"(x[7]), "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]),  \
      "+r"(c[4]), "+r"(c[5]), "+r"(c[6]), "+r"(c[7])::"memory"

enum Mode { kChase = 0, kConflict = 1, kBroadcast = 2, kWide64 = 3, kWide128 = 4 };

// Fills shared memory for `mode` and returns this lane's first word.
__device__ unsigned setupShared(unsigned* s, int mode, int n) {
  unsigned lane = threadIdx.x & 31;
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  for (int i = lane; i < 2048; i += 32)
    s[i] = mode == kChase ? base + 4u * ((i + 32) % 1024) : 0u;
  __syncwarp();
  unsigned w = lane;
  if (mode == kConflict) w = (lane % n) * 32 + lane / n;
  if (mode == kBroadcast) w = 0;
  if (mode == kWide64) w = 2 * lane;
  if (mode == kWide128) w = 4 * lane;
  if (mode != kChase) s[w] = base + 4u * w;
  __syncwarp();
  return base + 4u * w;
}

#define SMEM_KERNEL(NAME, OP, SHORT, LONG, SINK)                               \
  __global__ void NAME(int mode, int n, const unsigned* zeros, unsigned* out,  \
                       long long* times, int reps) {                           \
    __shared__ __align__(16) unsigned s[2048];                                 \
    __shared__ unsigned sinkSlot[1];                                           \
    volatile unsigned* sink = sinkSlot;                                        \
    unsigned first = setupShared(s, mode, n);                                  \
    unsigned x[8], c[8];                                                       \
    for (int i = 0; i < 8; ++i) {                                              \
      x[i] = first + zeros[i];                                                 \
      c[i] = zeros[8 + i];                                                     \
    }                                                                          \
    for (int r = 0; r < reps; ++r) {                                           \
      SINK;                                                                    \
      long long t0 = clk();                                                    \
      asm volatile(SHORT(OP) : SMEM_OPERANDS);                                 \
      long long t1 = clk();                                                    \
      SINK;                                                                    \
      long long t2 = clk();                                                    \
      asm volatile(LONG(OP) : SMEM_OPERANDS);                                  \
      long long t3 = clk();                                                    \
      if (threadIdx.x == 0) {                                                  \
        times[2 * r] = t1 - t0;                                                \
        times[2 * r + 1] = t3 - t2;                                            \
      }                                                                        \
    }                                                                          \
    for (int i = 0; i < 8; ++i) {                                              \
      out[threadIdx.x * 16 + i] = x[i] - (unsigned)__cvta_generic_to_shared(s); \
      out[threadIdx.x * 16 + 8 + i] = c[i];                                    \
    }                                                                          \
  }

// Latency: one chain in x[0] (256 then 512 accesses).
#define LAT_SHORT(OP) R256(OP("0", "8"))
#define LAT_LONG(OP) R512(OP("0", "8"))
#define LAT_SINK *sink = x[0] + c[0]
// Throughput: eight chains, 256 then 512 accesses in all.
#define THR_SHORT(OP) R32(IND8P(OP))
#define THR_LONG(OP) R64(IND8P(OP))
#define THR_SINK                                                               \
  *sink = x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7] + c[0] + c[1] + \
          c[2] + c[3] + c[4] + c[5] + c[6] + c[7]

SMEM_KERNEL(lat32, W1, LAT_SHORT, LAT_LONG, LAT_SINK)
SMEM_KERNEL(lat64, W2, LAT_SHORT, LAT_LONG, LAT_SINK)
SMEM_KERNEL(lat128, W4, LAT_SHORT, LAT_LONG, LAT_SINK)
SMEM_KERNEL(thr32, W1, THR_SHORT, THR_LONG, THR_SINK)
SMEM_KERNEL(thr64, W2, THR_SHORT, THR_LONG, THR_SINK)
SMEM_KERNEL(thr128, W4, THR_SHORT, THR_LONG, THR_SINK)
SMEM_KERNEL(thrst, ST, THR_SHORT, THR_LONG, THR_SINK)

typedef void (*SmemKernel)(int, int, const unsigned*, unsigned*, long long*, int);

// Runs one configuration; returns cycles per access; checks the results.
static double runSmem(const char* what, SmemKernel k, bool latency, int mode, int n,
                      int reps) {
  unsigned *dZeros, *dOut;
  long long* dTimes;
  CUDA_CHECK(cudaMalloc(&dZeros, 16 * 4));
  CUDA_CHECK(cudaMemset(dZeros, 0, 16 * 4));
  CUDA_CHECK(cudaMalloc(&dOut, 32 * 16 * 4));
  CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
  k<<<1, 32>>>(mode, n, dZeros, dOut, dTimes, reps);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> out(32 * 16);
  std::vector<long long> t(2 * reps);
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dZeros));
  CUDA_CHECK(cudaFree(dOut));
  CUDA_CHECK(cudaFree(dTimes));
  long long count = (long long)reps * 768;  // accesses per chain (latency)
  for (int lane = 0; lane < 32; ++lane) {
    unsigned w = lane;
    if (mode == kChase) w = (lane + 32 * count) % 1024;
    if (mode == kConflict) w = (lane % n) * 32 + lane / n;
    if (mode == kBroadcast) w = 0;
    if (mode == kWide64) w = 2 * lane;
    if (mode == kWide128) w = 4 * lane;
    for (int i = 0; i < (latency ? 1 : 8); ++i) {
      unsigned got = out[lane * 16 + i], acc = out[lane * 16 + 8 + i];
      if (got != 4 * w || acc != 0) {
        fail("%s: lane %d chain %d ends at byte %u (accumulator %u), expected %u (0)", what,
             lane, i, got, acc, 4 * w);
        return 0;
      }
    }
  }
  std::vector<long long> a, b;
  for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
  return (median(b) - median(a)) / 256.0;
}

int main() {
  reportClock();
  int reps = quickMode() ? 3 : 9;
  report("latency.smem.chase", runSmem("chase", lat32, true, kChase, 1, reps), "cycles");
  const int ways[] = {1, 2, 4, 8, 16, 32};
  double lat1 = 0, lat32w = 0, thr1 = 0, thr32w = 0, st1 = 0, st32 = 0;
  for (int n : ways) {
    std::string name = "conflict_" + std::to_string(n);
    double l = runSmem(name.c_str(), lat32, true, kConflict, n, reps);
    report("latency.smem." + name, l, "cycles");
    double t = runSmem(name.c_str(), thr32, false, kConflict, n, reps);
    report("throughput.smem." + name, t, "cycles/access");
    double st = runSmem(name.c_str(), thrst, false, kConflict, n, reps);
    report("throughput.smem.st_" + name, st, "cycles/access");
    if (n == 1) { lat1 = l; thr1 = t; st1 = st; }
    if (n == 32) { lat32w = l; thr32w = t; st32 = st; }
  }
  report("latency.smem.conflict_extra_per_way", (lat32w - lat1) / 31.0, "cycles");
  report("throughput.smem.conflict_extra_per_way", (thr32w - thr1) / 31.0, "cycles");
  report("throughput.smem.st_conflict_extra_per_way", (st32 - st1) / 31.0, "cycles");
  report("latency.smem.broadcast", runSmem("broadcast", lat32, true, kBroadcast, 1, reps), "cycles");
  report("throughput.smem.broadcast", runSmem("broadcast", thr32, false, kBroadcast, 1, reps),
         "cycles/access");
  report("latency.smem.ld64", runSmem("ld64", lat64, true, kWide64, 1, reps), "cycles");
  report("throughput.smem.ld64", runSmem("ld64", thr64, false, kWide64, 1, reps), "cycles/access");
  report("latency.smem.ld128", runSmem("ld128", lat128, true, kWide128, 1, reps), "cycles");
  report("throughput.smem.ld128", runSmem("ld128", thr128, false, kWide128, 1, reps),
         "cycles/access");
  reportClock("clock.sm_mhz_end");
  return finish();
}
