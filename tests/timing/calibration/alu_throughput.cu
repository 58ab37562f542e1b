// alu_throughput: the issue throughput of independent instructions of each
// class, in warp instructions per cycle per SM, from one CTA (on one SM) of
// 1 warp, 4 warps (one per sub-partition) and 32 warps (eight per
// sub-partition).
//
// Each warp runs eight independent chains of the op (alu_ops.h; the same ops
// as alu_latency), interleaved so that consecutive instructions never depend
// on each other. After a barrier, every warp times its own segment of
// `iters` (4) x 256 ops, then, after another barrier, of 4 x 512 ops, with
// %clock64; each segment's CTA span is the latest end minus the earliest
// start over the warps; throughput = warps * 4 * 256 / (median long span -
// median short span) over 9 repetitions, free of barrier, loop and clock
// overhead. mma.sync runs four independent accumulator sets (4 x 64 and
// 4 x 128 mma per warp) and is also given in FLOP per cycle per SM (4096 FLOP
// per m16n8k16). Pairs count as one (see alu_latency). Every register's
// result is checked, and so is that the long span exceeds the short one.
//
// Output: throughput.CLASS.OP.wW VALUE warp_inst/cycle/SM, then ok or FAILED.
#include "alu_ops.h"

int main() {
  reportClock();
  int reps = quickMode() ? 3 : 9;
  // Iterations of the unrolled block per segment: the long segment minus the
  // short one is iters * 256 ops per warp (w32 FP32: 8192 cycles at iters 4).
  int iters = quickMode() ? 1 : 4;
  const int warpCounts[] = {1, 4, 32};
  for (const OpSpec& s : kOps) {
    for (int w : warpCounts) {
      double tN, t2N;
      runOp(s, w, reps, iters, &tN, &t2N);
      report(std::string("throughput.") + s.name + ".w" + std::to_string(w),
             double(w) * iters * SHORT_OPS / (t2N - tN), "warp_inst/cycle/SM");
    }
  }
  // Tensor: mma.sync m16n8k16, four independent accumulator sets per warp.
  for (int w : warpCounts) {
    double tN, t2N;
    runMma(w, reps, iters, &tN, &t2N);
    double ipc = double(w) * iters * 64.0 / (t2N - tN);
    std::string base = "throughput.tensor.mma_m16n8k16_f16_f32.w" + std::to_string(w);
    report(base, ipc, "warp_inst/cycle/SM");
    report(base + ".flop", ipc * 4096.0, "FLOP/cycle/SM");
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
