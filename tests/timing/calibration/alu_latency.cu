// alu_latency: the dependent-issue latency of each instruction class, in SM
// cycles, from one warp (32 threads) of one CTA.
//
// Each op (alu_ops.h: FP32 add/mul/fma, INT add/and/shl/shr/mul.lo/mul.hi,
// FP64 add/fma, MUFU ex2/rsqrt/sin, cvt s32<->f32 and f32->f16->f32, f16x2
// fma, shfl.idx, vote.any, setp+selp, and mma.sync m16n8k16) is a chain of
// inline PTX, each instruction reading the previous one's result. A chain of
// 256 and one of 512 are timed with %clock64 in each of 9 repetitions; the
// latency is (median T512 - median T256) / 256, free of loop and clock-read
// overhead (mma: chains of 64 and 128). Pairs (sin = FMUL.RZ + MUFU.SIN,
// f32->f16->f32, setp+selp) report the pair's latency. Each chain's result is
// checked against the host's emulation.
//
// Output: latency.CLASS.OP CYCLES cycles, then ok or FAILED.
#define ALU_LATENCY
#include "alu_ops.h"

int main() {
  reportClock();
  int reps = quickMode() ? 3 : 9;
  for (const OpSpec& s : kOps) {
    double tN, t2N;
    runOp(s, 1, reps, &tN, &t2N);
    report(std::string("latency.") + s.name, (t2N - tN) / 256.0, "cycles");
  }
  // Tensor: one mma.sync chain (4 accumulators of thread-held C/D).
  {
    unsigned one2 = 0x3c003c00u;  // two f16 ones
    std::vector<unsigned> in(22, 0);
    for (int i = 0; i < 6; ++i) in[i] = one2;
    unsigned* dIn;
    float* dOut;
    long long* dTimes;
    CUDA_CHECK(cudaMalloc(&dIn, 22 * 4));
    CUDA_CHECK(cudaMalloc(&dOut, 32 * 16 * 4));
    CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), 22 * 4, cudaMemcpyHostToDevice));
    kernel_mma<<<1, 32>>>(dIn, dOut, dTimes, reps);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> out(32 * 16);
    std::vector<long long> t(2 * reps);
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
    std::vector<long long> a, b;
    for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
    report("latency.tensor.mma_m16n8k16_f16_f32", (median(b) - median(a)) / 64.0, "cycles");
    float expect = 16.0f * 192 * reps;
    for (int th = 0; th < 32; ++th)
      for (int i = 0; i < 16; ++i) {
        float e = i < 4 ? expect : 0.0f;
        if (out[th * 16 + i] != e) {
          fail("mma: thread %d accumulator %d is %g, expected %g", th, i, out[th * 16 + i], e);
          th = 32;
          break;
        }
      }
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dTimes));
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
