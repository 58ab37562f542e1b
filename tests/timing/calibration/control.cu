// control: the cost of control flow and of launching work, in SM cycles or
// microseconds.
// - divergence.paths_P: one warp whose lanes split into P paths (lane % P;
//   a switch of 32 distinct cases, each a chain of 64 dependent FADDs), P =
//   1 .. 32, clock64 around the switch and the reconvergence (__syncwarp),
//   median of 9; divergence.slowdown_P = cycles(P) / cycles(1);
// - branch.ifelse_{uniform,divergent}.k8 / .k16 / .empty: cycles per if/else
//   block (BSSY, @P BRA, body, BRA, body, BSYNC) with bodies of K = 8 and 16
//   dependent FADDs, every lane on one side (uniform) or odd and even lanes
//   on different sides (2-way divergent: both bodies run); .empty = 2 k8 -
//   k16, the block with empty bodies (ptxas if-converts real bodies of 4 or
//   fewer instructions, so those cannot be timed directly);
//   branch.divergence_cost.empty = divergent.empty - uniform.empty;
// - barrier.warps_W: bar.sync cost with W = 1 .. 32 warps in the CTA, chains
//   of 64 and 128 barriers timed by thread 0, cycles per barrier;
// - launch.grid_G: cudaEvent time of one launch of G CTAs of 32 threads that
//   each store one word (G = 1 and 1 .. 64 CTAs per SM), median of 15;
//   launch.grid_G.span: first CTA start to last CTA end, from %globaltimer;
//   cta.launch.ns_per_cta: the slope of the span between 16 and 64 CTAs per
//   SM, and cta.launch.sm_cycles_per_cta = that slope * SMs * clock;
// - cta.turnaround: with one CTA per SM (200 KB of dynamic shared memory),
//   8 CTAs per SM: cycles from a CTA's last clock64 to the next CTA's first on
//   the same SM (median);
// - launch.empty.*: an empty kernel: cudaEvent time of one launch, host time
//   of launch + synchronize, and the time per launch of 200 back to back.
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

#include <chrono>

#define FADD64 R64("add.f32 %0, %0, %2;\n")
#define CASE(k)                                                                \
  case k:                                                                      \
    asm volatile(FADD64 "add.u32 %1, %1, " #k ";\n" : "+f"(x), "+r"(cnt) : "f"(q)); \
    break;

__global__ void divergence(int paths, const float* in, float* out, unsigned* counts,
                           long long* times, int reps) {
  unsigned lane = threadIdx.x & 31;
  float x = in[0], q = in[1];
  unsigned cnt = 0;
  for (int r = 0; r < reps; ++r) {
    __syncwarp();
    long long t0 = clk();
    switch (lane % paths) {
      CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
      CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
      CASE(16) CASE(17) CASE(18) CASE(19) CASE(20) CASE(21) CASE(22) CASE(23)
      CASE(24) CASE(25) CASE(26) CASE(27) CASE(28) CASE(29) CASE(30) CASE(31)
    }
    __syncwarp();
    long long t1 = clk();
    if (lane == 0) times[r] = t1 - t0;
  }
  out[lane] = x;
  counts[lane] = cnt;
}

// If/else issue cost: chains of if/else blocks, the condition alternating
// between two words per lane (a, b: so that no two neighbouring blocks share
// a condition and the compiler cannot merge them), each side an inline-PTX
// chain of K dependent FADDs (x += r on the taken side, x += q on the other).
// ptxas makes each block BSSY + @P BRA + body + BRA + body + BSYNC for K >= 8;
// bodies of 4 or fewer instructions it if-converts (predicated, no branch),
// so "empty" bodies are extrapolated: per-block cost at K = 8 and K = 16,
// cost(0) = 2 cost(8) - cost(16). Timed as 8 vs 16 blocks.
#define FADD_X "add.f32 %0, %0, %1;\n"
#define IFELSE_BLOCK(c, RK)                                                    \
  if (c) asm volatile(RK(FADD_X) : "+f"(x) : "f"(r));                          \
  else asm volatile(RK(FADD_X) : "+f"(x) : "f"(q));
#define IFELSE_KERNEL(NAME, RK)                                                \
  __global__ void NAME(const float* in, const unsigned* conds, float* out,     \
                       long long* times, int reps) {                           \
    __shared__ float sinkSlot[32];                                             \
    unsigned lane = threadIdx.x & 31;                                          \
    volatile float* sink = sinkSlot + lane;                                    \
    float x = in[0], q = in[1], r = in[2];                                     \
    unsigned a = conds[lane], b = conds[32 + lane];                            \
    for (int rep = 0; rep < reps; ++rep) {                                     \
      *sink = x;                                                               \
      long long t0 = clk();                                                    \
      _Pragma("unroll") for (int i = 0; i < 4; ++i) {                          \
        IFELSE_BLOCK(a, RK) IFELSE_BLOCK(b, RK)                                \
      }                                                                        \
      *sink = x;                                                               \
      long long t1 = clk();                                                    \
      *sink = x;                                                               \
      long long t2 = clk();                                                    \
      _Pragma("unroll") for (int i = 0; i < 8; ++i) {                          \
        IFELSE_BLOCK(a, RK) IFELSE_BLOCK(b, RK)                                \
      }                                                                        \
      *sink = x;                                                               \
      long long t3 = clk();                                                    \
      if (lane == 0) {                                                         \
        times[2 * rep] = t1 - t0;                                              \
        times[2 * rep + 1] = t3 - t2;                                          \
      }                                                                        \
    }                                                                          \
    out[lane] = x;                                                             \
  }
IFELSE_KERNEL(ifelse8, R8)
IFELSE_KERNEL(ifelse16, R16)

__global__ void barrier(long long* times, int reps) {
  for (int r = 0; r < reps; ++r) {
    __syncthreads();
    long long t0 = clk();
    asm volatile(R64("bar.sync 0;\n")::: "memory");
    long long t1 = clk();
    __syncthreads();
    long long t2 = clk();
    asm volatile(R128("bar.sync 0;\n")::: "memory");
    long long t3 = clk();
    if (threadIdx.x == 0) {
      times[2 * r] = t1 - t0;
      times[2 * r + 1] = t3 - t2;
    }
  }
}

__global__ void trivial(unsigned* out, unsigned long long* start, unsigned long long* end) {
  unsigned long long g0 = gtimer();
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    start[blockIdx.x] = g0;
    end[blockIdx.x] = gtimer();
  }
}

__global__ void oneCtaPerSm(unsigned* sm, long long* start, long long* end) {
  extern __shared__ unsigned dyn[];
  long long t0 = clk();
  if (threadIdx.x == 0) dyn[0] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    sm[blockIdx.x] = smid() + 0 * dyn[0];
    start[blockIdx.x] = t0;
    end[blockIdx.x] = clk();
  }
}

__global__ void empty() {}

int main() {
  double mhz = reportClock();
  bool quick = quickMode();
  int reps = quick ? 3 : 9;
  int sms = smCount();

  // Divergence.
  {
    float* dIn;
    float* dOut;
    unsigned* dCounts;
    long long* dTimes;
    float in[2] = {1.5f, 0.0f};
    CUDA_CHECK(cudaMalloc(&dIn, 8));
    CUDA_CHECK(cudaMalloc(&dOut, 32 * 4));
    CUDA_CHECK(cudaMalloc(&dCounts, 32 * 4));
    CUDA_CHECK(cudaMalloc(&dTimes, reps * 8));
    CUDA_CHECK(cudaMemcpy(dIn, in, 8, cudaMemcpyHostToDevice));
    double t1 = 0;
    for (int p = 1; p <= 32; p *= 2) {
      divergence<<<1, 32>>>(p, dIn, dOut, dCounts, dTimes, reps);
      CUDA_CHECK(cudaGetLastError());
      std::vector<long long> t(reps);
      std::vector<float> out(32);
      std::vector<unsigned> counts(32);
      CUDA_CHECK(cudaMemcpy(t.data(), dTimes, reps * 8, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(out.data(), dOut, 32 * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(counts.data(), dCounts, 32 * 4, cudaMemcpyDeviceToHost));
      for (int l = 0; l < 32; ++l)
        if (out[l] != 1.5f || counts[l] != unsigned((l % p) * reps)) {
          fail("divergence %d paths: lane %d has %g and count %u, expected 1.5 and %u", p, l,
               out[l], counts[l], unsigned((l % p) * reps));
          break;
        }
      double c = median(t);
      if (p == 1) t1 = c;
      report("divergence.paths_" + std::to_string(p), c, "cycles");
      report("divergence.slowdown_" + std::to_string(p), c / t1, "ratio");
    }
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dCounts));
    CUDA_CHECK(cudaFree(dTimes));
  }

  // If/else: per-block cost, uniform (every lane on one side) and 2-way
  // divergent (odd lanes on the other side), extrapolated to empty bodies.
  {
    typedef void (*IfElseKernel)(const float*, const unsigned*, float*, long long*, int);
    float in[3] = {0.0f, 1.0f, 2.0f};  // x0, q (not taken side), r (taken side)
    float* dIn;
    float* dOut;
    unsigned* dConds;
    long long* dTimes;
    CUDA_CHECK(cudaMalloc(&dIn, sizeof in));
    CUDA_CHECK(cudaMalloc(&dOut, 32 * 4));
    CUDA_CHECK(cudaMalloc(&dConds, 64 * 4));
    CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
    CUDA_CHECK(cudaMemcpy(dIn, in, sizeof in, cudaMemcpyHostToDevice));
    double perBlock[2][2];  // [divergent][K = 8, 16]
    const IfElseKernel kernels[2] = {ifelse8, ifelse16};
    for (int div = 0; div < 2; ++div) {
      std::vector<unsigned> conds(64);
      for (int l = 0; l < 32; ++l) conds[l] = conds[32 + l] = div ? (l & 1) : 0;
      CUDA_CHECK(cudaMemcpy(dConds, conds.data(), 64 * 4, cudaMemcpyHostToDevice));
      for (int k = 0; k < 2; ++k) {
        int K = k ? 16 : 8;
        kernels[k]<<<1, 32>>>(dIn, dConds, dOut, dTimes, reps);
        CUDA_CHECK(cudaGetLastError());
        std::vector<long long> t(2 * reps);
        std::vector<float> out(32);
        CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(out.data(), dOut, 32 * 4, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; ++l) {
          // 24 blocks per repetition, K adds each: r when the lane's condition holds.
          float expect = float(reps) * 24.0f * K * (conds[l] ? 2.0f : 1.0f);
          if (out[l] != expect) {
            fail("if/else K=%d %s: lane %d has %g, expected %g", K, div ? "divergent" : "uniform",
                 l, out[l], expect);
            break;
          }
        }
        std::vector<long long> a, b;
        for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
        perBlock[div][k] = (median(b) - median(a)) / 8.0;
      }
    }
    const char* kind[2] = {"uniform", "divergent"};
    for (int div = 0; div < 2; ++div) {
      std::string base = std::string("branch.ifelse_") + kind[div];
      report(base + ".k8", perBlock[div][0], "cycles");
      report(base + ".k16", perBlock[div][1], "cycles");
      report(base + ".empty", 2 * perBlock[div][0] - perBlock[div][1], "cycles");
    }
    report("branch.divergence_cost.empty",
           (2 * perBlock[1][0] - perBlock[1][1]) - (2 * perBlock[0][0] - perBlock[0][1]), "cycles");
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dConds));
    CUDA_CHECK(cudaFree(dTimes));
  }

  // Barriers.
  {
    long long* dTimes;
    CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
    for (int w = 1; w <= 32; w *= 2) {
      barrier<<<1, 32 * w>>>(dTimes, reps);
      CUDA_CHECK(cudaGetLastError());
      std::vector<long long> t(2 * reps);
      CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
      std::vector<long long> a, b;
      for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
      report("barrier.warps_" + std::to_string(w), (median(b) - median(a)) / 64.0, "cycles");
    }
    CUDA_CHECK(cudaFree(dTimes));
  }

  // CTA launch: grids of trivial CTAs.
  {
    std::vector<int> perSm = {1, 2, 4, 8, 16, 32, 64};
    int maxG = sms * 64;
    unsigned* dOut;
    unsigned long long *dStart, *dEnd;
    CUDA_CHECK(cudaMalloc(&dOut, maxG * 4));
    CUDA_CHECK(cudaMalloc(&dStart, maxG * 8));
    CUDA_CHECK(cudaMalloc(&dEnd, maxG * 8));
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    int launches = quick ? 3 : 15;
    std::vector<int> grids = {1};
    for (int k : perSm) grids.push_back(k * sms);
    double span16 = 0, span64 = 0;
    for (int g : grids) {
      std::vector<float> ms;
      std::vector<double> spans;
      for (int i = 0; i < launches; ++i) {
        CUDA_CHECK(cudaMemset(dOut, 0, g * 4));
        CUDA_CHECK(cudaEventRecord(e0));
        trivial<<<g, 32>>>(dOut, dStart, dEnd);
        CUDA_CHECK(cudaEventRecord(e1));
        CUDA_CHECK(cudaEventSynchronize(e1));
        CUDA_CHECK(cudaGetLastError());
        float m = 0;
        CUDA_CHECK(cudaEventElapsedTime(&m, e0, e1));
        ms.push_back(m);
        std::vector<unsigned> out(g);
        std::vector<unsigned long long> s(g), e(g);
        CUDA_CHECK(cudaMemcpy(out.data(), dOut, g * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(s.data(), dStart, g * 8, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(e.data(), dEnd, g * 8, cudaMemcpyDeviceToHost));
        for (int b = 0; b < g; ++b)
          if (out[b] != unsigned(b + 1)) {
            fail("trivial grid %d: CTA %d wrote %u", g, b, out[b]);
            break;
          }
        spans.push_back(double(*std::max_element(e.begin(), e.end()) -
                               *std::min_element(s.begin(), s.end())));
      }
      std::string name = "launch.grid_" + std::to_string(g);
      report(name, median(ms) * 1000.0, "us");
      double span = median(spans);
      report(name + ".span", span, "ns");
      if (g == 16 * sms) span16 = span;
      if (g == 64 * sms) span64 = span;
    }
    double slope = (span64 - span16) / double(48 * sms);
    report("cta.launch.ns_per_cta", slope, "ns");
    report("cta.launch.sm_cycles_per_cta", slope * sms * mhz / 1000.0, "cycles");
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dStart));
    CUDA_CHECK(cudaFree(dEnd));

    // CTA turnaround on one SM.
    int g = sms * 8;
    size_t shmem = 200 * 1024;
    unsigned* dSm;
    long long *dS, *dE;
    CUDA_CHECK(cudaMalloc(&dSm, g * 4));
    CUDA_CHECK(cudaMalloc(&dS, g * 8));
    CUDA_CHECK(cudaMalloc(&dE, g * 8));
    CUDA_CHECK(cudaFuncSetAttribute(oneCtaPerSm, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)shmem));
    oneCtaPerSm<<<g, 32, shmem>>>(dSm, dS, dE);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> sm(g);
    std::vector<long long> s(g), e(g);
    CUDA_CHECK(cudaMemcpy(sm.data(), dSm, g * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(s.data(), dS, g * 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(e.data(), dE, g * 8, cudaMemcpyDeviceToHost));
    std::vector<std::vector<std::pair<long long, long long>>> bySm(sms);
    for (int b = 0; b < g; ++b) {
      if (sm[b] >= unsigned(sms)) { fail("turnaround: CTA %d on SM %u", b, sm[b]); break; }
      bySm[sm[b]].push_back({s[b], e[b]});
    }
    std::vector<long long> gaps;
    for (auto& v : bySm) {
      std::sort(v.begin(), v.end());
      for (size_t i = 1; i < v.size(); ++i) {
        if (v[i].first < v[i - 1].second) { fail("turnaround: two CTAs overlap on one SM"); break; }
        gaps.push_back(v[i].first - v[i - 1].second);
      }
    }
    if (gaps.empty()) fail("turnaround: no SM ran two CTAs");
    report("cta.turnaround", median(gaps), "cycles");
    CUDA_CHECK(cudaFree(dSm));
    CUDA_CHECK(cudaFree(dS));
    CUDA_CHECK(cudaFree(dE));

    // Empty kernel.
    std::vector<float> ms;
    std::vector<double> host;
    int n = quick ? 5 : 50;
    for (int i = 0; i < n; ++i) {
      CUDA_CHECK(cudaEventRecord(e0));
      empty<<<1, 1>>>();
      CUDA_CHECK(cudaEventRecord(e1));
      CUDA_CHECK(cudaEventSynchronize(e1));
      float m = 0;
      CUDA_CHECK(cudaEventElapsedTime(&m, e0, e1));
      ms.push_back(m);
      auto h0 = std::chrono::steady_clock::now();
      empty<<<1, 1>>>();
      CUDA_CHECK(cudaDeviceSynchronize());
      auto h1 = std::chrono::steady_clock::now();
      host.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
    }
    CUDA_CHECK(cudaGetLastError());
    report("launch.empty.event", median(ms) * 1000.0, "us");
    report("launch.empty.sync_host", median(host), "us");
    int b2b = quick ? 10 : 200;
    CUDA_CHECK(cudaEventRecord(e0));
    for (int i = 0; i < b2b; ++i) empty<<<1, 1>>>();
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaEventSynchronize(e1));
    float m = 0;
    CUDA_CHECK(cudaEventElapsedTime(&m, e0, e1));
    report("launch.empty.back_to_back", m * 1000.0 / b2b, "us");
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
