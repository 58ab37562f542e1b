// alu_latency: the dependent-issue latency of each instruction class, in SM
// cycles, from one warp (32 threads) of one CTA.
//
// Each op (alu_ops.h: FP32 add/mul/fma, INT add (one IADD3) and the guarded
// add that ptxas makes half IADD3, half IMAD.IADD, and/shl/shr/mul.lo/mul.hi,
// FP64 add/fma, MUFU ex2/rsqrt/sin, cvt s32<->f32 and f32->f16->f32, f16x2
// fma, shfl.idx, vote.any, setp+selp, and mma.sync m16n8k16) is a chain of
// inline PTX, each op reading the previous one's result. A chain of 256 and
// one of 512 are timed with %clock64 in each of 9 repetitions; the latency
// is (median T512 - median T256) / 256, free of loop and clock-read overhead
// (mma: chains of 64 and 128). Pairs (sin = FMUL.RZ + MUFU.SIN,
// f32->f16->f32 = F2FP + HADD2.F32, setp+selp = ISETP + SEL) report the
// pair's latency. README.md lists the SASS of every op. Each chain's result
// is checked against the host's emulation.
//
// Output: latency.CLASS.OP CYCLES cycles, then ok or FAILED.
#define ALU_LATENCY
#include "alu_ops.h"

int main() {
  reportClock();
  int reps = quickMode() ? 3 : 9;
  for (const OpSpec& s : kOps) {
    double tN, t2N;
    runOp(s, 1, reps, 1, &tN, &t2N);
    report(std::string("latency.") + s.name, (t2N - tN) / 256.0, "cycles");
  }
  // Tensor: one mma.sync chain (4 accumulators of thread-held C/D).
  {
    double tN, t2N;
    runMma(1, reps, 1, &tN, &t2N);
    report("latency.tensor.mma_m16n8k16_f16_f32", (t2N - tN) / 64.0, "cycles");
  }
  reportClock("clock.sm_mhz_end");
  return finish();
}
