// alu_throughput: the issue throughput of independent instructions of each
// class, in warp instructions per cycle per SM, from one CTA (on one SM) of
// 1 warp, 4 warps (one per sub-partition) and 32 warps (eight per
// sub-partition).
//
// Each warp runs eight independent chains of the op (alu_ops.h; the same ops
// as alu_latency), interleaved so that consecutive instructions never depend
// on each other. Between barriers, thread 0 times 256 and then 512 ops per
// warp with %clock64, 9 repetitions; throughput = warps * 256 /
// (median T512 - median T256), free of barrier and clock overhead. mma.sync
// runs four independent accumulator sets (64 and 128 mma per warp) and is
// also given in FLOP per cycle per SM (4096 FLOP per m16n8k16). Pairs count
// as one (see alu_latency). Every register's result is checked.
//
// Output: throughput.CLASS.OP.wW VALUE warp_inst/cycle/SM, then ok or FAILED.
#include "alu_ops.h"

int main() {
  reportClock();
  int reps = quickMode() ? 3 : 9;
  const int warpCounts[] = {1, 4, 32};
  for (const OpSpec& s : kOps) {
    for (int w : warpCounts) {
      double tN, t2N;
      runOp(s, w, reps, &tN, &t2N);
      report(std::string("throughput.") + s.name + ".w" + std::to_string(w),
             w * 256.0 / (t2N - tN), "warp_inst/cycle/SM");
    }
  }
  // Tensor: mma.sync m16n8k16, four independent accumulator sets per warp.
  for (int w : warpCounts) {
    unsigned one2 = 0x3c003c00u;  // two f16 ones
    std::vector<unsigned> in(22, 0);
    for (int i = 0; i < 6; ++i) in[i] = one2;
    unsigned* dIn;
    float* dOut;
    long long* dTimes;
    int threads = 32 * w;
    CUDA_CHECK(cudaMalloc(&dIn, 22 * 4));
    CUDA_CHECK(cudaMalloc(&dOut, threads * 16 * 4));
    CUDA_CHECK(cudaMalloc(&dTimes, 2 * reps * 8));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), 22 * 4, cudaMemcpyHostToDevice));
    kernel_mma<<<1, threads>>>(dIn, dOut, dTimes, reps);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> out(threads * 16);
    std::vector<long long> t(2 * reps);
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(t.data(), dTimes, t.size() * 8, cudaMemcpyDeviceToHost));
    std::vector<long long> a, b;
    for (int r = 0; r < reps; ++r) { a.push_back(t[2 * r]); b.push_back(t[2 * r + 1]); }
    double ipc = w * 64.0 / (median(b) - median(a));
    std::string base = "throughput.tensor.mma_m16n8k16_f16_f32.w" + std::to_string(w);
    report(base, ipc, "warp_inst/cycle/SM");
    report(base + ".flop", ipc * 4096.0, "FLOP/cycle/SM");
    float expect = 16.0f * 48 * reps;
    for (int th = 0; th < threads; ++th)
      for (int i = 0; i < 16; ++i)
        if (out[th * 16 + i] != expect) {
          fail("mma w%d: thread %d accumulator %d is %g, expected %g", w, th, i,
               out[th * 16 + i], expect);
          th = threads;
          break;
        }
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dTimes));
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
