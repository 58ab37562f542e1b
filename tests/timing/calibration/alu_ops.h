// The instruction classes timed by alu_latency.cu and alu_throughput.cu.
//
// Each op is one inline-PTX instruction (or a named pair, or for int.iadd two
// adds that ptxas fuses into one IADD3) applied to a register: OP(d, g) with
// d one of "0".."7" the eight chain registers %0..%7, %8 = p and %9 = q,
// both read from memory so that ptxas cannot fold them, g a guard. The
// inputs make most ops the identity (x + 0, x * 1, x & ~0, shfl from the own
// lane, ...): the result is known and checked; the others are emulated on
// the host (mul.hi, cvt) or checked loosely (MUFU).
//
// ALU_LATENCY defined: kernel_NAME runs one warp with one dependent chain in
// %0:
//   sink(x); t0; chain of 256; t1; sink(x); t2; chain of 512; t3
// where sink(x) is a volatile shared store that waits for x, so each chain
// starts with its input ready; (t3 - t2) - (t1 - t0) is 256 latencies, free of
// the clock reads' own cost.
// Otherwise kernel_NAME runs W warps, each with eight independent chains:
//   bar; t0; iters x 256 ops; t1; bar; t2; iters x 512 ops; t3
// every warp recording its own four clocks; the CTA span of a segment is the
// latest end minus the earliest start over the warps (one warp's own clock
// is no measure of the CTA's work when 8 warps share a sub-partition: the
// first H100 run, timed by thread 0 alone between barriers, gave negative
// 32-warp throughputs), and W * iters * 256 / (span_long - span_short) is
// the SM's warp instructions per cycle.
#pragma once

#include <climits>
#include <cstdint>
#include "calib_common.h"

#define IND8(M) M("0") M("1") M("2") M("3") M("4") M("5") M("6") M("7")
#define IND8G(M, g) \
  M("0", g) M("1", g) M("2", g) M("3", g) M("4", g) M("5", g) M("6", g) M("7", g)
#define NOTHING(d) ""
#define CHAIN_DECLS                                                            \
  ".reg .pred vp0, vp1, vp2, vp3, vp4, vp5, vp6, vp7, ga, gb;\n"               \
  "setp.ne.u32 ga, %10, 0;\nsetp.ne.u32 gb, %11, 0;\n"
// One latency chain of 2 * n ops in %0, guards alternating.
#define LAT_BODY(OP, R) R(OP("0", "@ga ") OP("0", "@gb "))
// Eight independent chains, 16 * n ops, guards alternating.
#define THR_BODY(OP, R) R(IND8G(OP, "@ga ") IND8G(OP, "@gb "))

// --- the ops -------------------------------------------------------------
// OP(d, g): g is a guard, "@ga " or "@gb ", two predicates set once from two
// separate words of memory (both true, unknown to ptxas). Integer ops and
// the pairs alternate the guards so that ptxas cannot merge neighbours
// (two adds into one IADD3, x & p & p into x & p, cvt round trips): the
// hardware issues each one; floating-point ops, which ptxas never
// reassociates, ignore the guard and run unpredicated.
// FP32 (f): FADD, FMUL, FFMA.
#define OP_FADD(d, g) "add.f32 %" d ", %" d ", %9;\n"
#define OP_FMUL(d, g) "mul.f32 %" d ", %" d ", %8;\n"
#define OP_FFMA(d, g) "fma.rn.f32 %" d ", %" d ", %8, %9;\n"
// MUFU (f): MUFU.EX2, MUFU.RSQ; sin.approx is FMUL.RZ (range reduction) + MUFU.SIN.
#define OP_EX2(d, g) "ex2.approx.ftz.f32 %" d ", %" d ";\n"
#define OP_RSQRT(d, g) "rsqrt.approx.ftz.f32 %" d ", %" d ";\n"
#define OP_SIN(d, g) "sin.approx.ftz.f32 %" d ", %" d ";\n"
// f32 -> f16 -> f32 (f): F2FP.F16.F32.PACK_AB + HADD2.F32, a pair.
// Unguarded: a guarded cvt into a 16-bit register became F2F.F16.F32 + FSEL
// + HADD2.F32 with spills to local memory (the first H100 run: 75 cycles);
// the rounding round trip is not an identity ptxas could drop.
// The f16x2 form (the value packed twice) keeps ptxas from packing two
// independent chains into one F2FP, which it does with cvt.rn.f16.f32.
#define OP_CVT_F16(d, g)                                                       \
  "{.reg .b32 r; .reg .b16 lo, hi; cvt.rn.f16x2.f32 r, %" d ", %" d ";"        \
  " mov.b32 {lo, hi}, r; cvt.f32.f16 %" d ", lo;}\n"
// INT (r): IADD3, LOP3, SHF, IMAD, IMAD.HI.
// iadd: two unguarded adds, x + p + q, which ptxas fuses into one IADD3
// (one op = one IADD3). Guarded single adds (iadd_imad_mix) come out half
// IADD3, half IMAD.IADD (ptxas balances the ALU and FMA pipes; it cannot be
// told not to): that chain measures the mix, as ptxas emits it in real code.
#define OP_IADD(d, g) "add.u32 %" d ", %" d ", %8;\nadd.u32 %" d ", %" d ", %9;\n"
#define OP_IADD_MIX(d, g) g "add.u32 %" d ", %" d ", %9;\n"
#define OP_AND(d, g) g "and.b32 %" d ", %" d ", %8;\n"
#define OP_SHL(d, g) g "shl.b32 %" d ", %" d ", %9;\n"
#define OP_SHR(d, g) g "shr.u32 %" d ", %" d ", %9;\n"
#define OP_IMUL(d, g) g "mul.lo.u32 %" d ", %" d ", %8;\n"
#define OP_IMULHI(d, g) g "mul.hi.u32 %" d ", %" d ", %8;\n"
// Half (r): HFMA2.
#define OP_HFMA2(d, g) "fma.rn.f16x2 %" d ", %" d ", %8, %9;\n"
// Conversions (r, the bits reinterpreted): I2F, F2I.
#define OP_I2F(d, g) "{.reg .f32 t; cvt.rn.f32.s32 t, %" d "; mov.b32 %" d ", t;}\n"
#define OP_F2I(d, g) "{.reg .f32 t; mov.b32 t, %" d "; cvt.rzi.s32.f32 %" d ", t;}\n"
// Shuffle (r): SHFL.IDX from the own lane (q = lane id).
#define OP_SHFL(d, g) "shfl.sync.idx.b32 %" d ", %" d ", %9, 0x1f, 0xffffffff;\n"
// Vote (r): a chain of VOTE.ANY on a predicate; set up and read out once.
#define PRE_VOTE(d) "setp.ne.u32 vp" d ", %" d ", 0;\n"
// Unguarded: with the guards, eight chain predicates, the guards and a loop
// exceed the seven predicate registers, and ptxas spilled them into
// LOP3/ISETP/BRA sequences.
#define OP_VOTE(d, g) "vote.sync.any.pred vp" d ", vp" d ", 0xffffffff;\n"
#define POST_VOTE(d) "selp.u32 %" d ", %" d ", 0, vp" d ";\n"
// Compare + select (r): ISETP + SEL, a pair (x = x != q ? p : q).
// Unguarded: guarded, ptxas made ISETP + ISETP + PLOP3 + SEL + 3 LOP3 of
// each pair (the first H100 run: 18.9 cycles).
#define OP_SETP_SELP(d, g) \
  "{.reg .pred sp; setp.ne.u32 sp, %" d ", %9; selp.u32 %" d ", %8, %9, sp;}\n"
// FP64 (d): DADD, DFMA.
#define OP_DADD(d, g) "add.f64 %" d ", %" d ", %9;\n"
#define OP_DFMA(d, g) "fma.rn.f64 %" d ", %" d ", %8, %9;\n"

// --- the kernels ---------------------------------------------------------
// in[0] = x0, in[1] = p, in[2 + lane] = q, in[33 + i] = x0 again for chain
// register i = 1..7 (separate words, so that ptxas cannot tell the eight
// chains are equal and merge them); out[thread * 8 + i] = register i.
#define CHAIN_OPERANDS(C)                                                      \
  "+" C(a0), "+" C(a1), "+" C(a2), "+" C(a3), "+" C(a4), "+" C(a5), "+" C(a6), \
      "+" C(a7)                                                                \
      : C(p), C(q), "r"(g0_), "r"(g1_)                                           \
      : "memory"

__device__ __forceinline__ void sinkValue(volatile float* s, float x) { *s = x; }
__device__ __forceinline__ void sinkValue(volatile float* s, unsigned x) {
  *(volatile unsigned*)s = x;
}
__device__ __forceinline__ void sinkValue(volatile float* s, double x) {
  *(volatile double*)s = x;
}

#define CHAIN_PROLOGUE(T)                                                      \
  T a0 = in[0], a1 = in[34], a2 = in[35], a3 = in[36], a4 = in[37],           \
    a5 = in[38], a6 = in[39], a7 = in[40];                                     \
  T p = in[1], q = in[2 + (threadIdx.x & 31)];                                 \
  unsigned g0_ = guards[0], g1_ = guards[1];

#define CHAIN_EPILOGUE(T)                                                      \
  T* o = out + threadIdx.x * 8;                                                \
  o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3;                                  \
  o[4] = a4; o[5] = a5; o[6] = a6; o[7] = a7;

// Every kernel records, per repetition r and warp w, four clock64 readings
// of the warp's lane 0 at times[(r * warps + w) * 4 + 0..3]: the start and
// end of its short segment and the start and end of its long one. The host
// takes each segment's CTA span (latest end minus earliest start over the
// warps), the median span over repetitions, and divides the work of the
// difference (long minus short) by the difference of the median spans.
#define RECORD_TIMES(t0, t1, t2, t3)                                           \
  if ((threadIdx.x & 31) == 0) {                                               \
    long long* w_ = times + ((long long)r * (blockDim.x >> 5) + (threadIdx.x >> 5)) * 4; \
    w_[0] = t0; w_[1] = t1; w_[2] = t2; w_[3] = t3;                            \
  }

#ifdef ALU_LATENCY
// One warp: sink(x); t0; chain of 256; t1; sink(x); t2; chain of 512; t3.
#define DEFINE_OP(NAME, T, C, PRE, OP, POST)                                   \
  __global__ void kernel_##NAME(const T* in, const unsigned* guards, T* out,  \
                                long long* times, int reps, int iters) {       \
    __shared__ double sinkSlot_[1];                                            \
    volatile float* sink_ = (volatile float*)sinkSlot_;                        \
    CHAIN_PROLOGUE(T)                                                          \
    (void)iters;                                                               \
    for (int r = 0; r < reps; ++r) {                                           \
      sinkValue(sink_, a0);                                                    \
      long long t0 = clk();                                                    \
      asm volatile("{\n" CHAIN_DECLS PRE("0") LAT_BODY(OP, R128) POST("0") "}"      \
                   : CHAIN_OPERANDS(C));                                       \
      long long t1 = clk();                                                    \
      sinkValue(sink_, a0);                                                    \
      long long t2 = clk();                                                    \
      asm volatile("{\n" CHAIN_DECLS PRE("0") LAT_BODY(OP, R256) POST("0") "}"      \
                   : CHAIN_OPERANDS(C));                                       \
      long long t3 = clk();                                                    \
      RECORD_TIMES(t0, t1, t2, t3)                                             \
    }                                                                          \
    CHAIN_EPILOGUE(T)                                                          \
  }
// Ops per chain register per repetition (and per iteration).
#define OPS_PER_REP 768
#define SHORT_OPS 256
#else
// W warps, eight independent chains each:
//   bar; t0; iters x (256 ops); t1; bar; t2; iters x (512 ops); t3
// (a loop of `iters` over an unrolled block, not unrolled itself: its
// overhead, a few instructions per iteration, is the same in both segments
// and cancels in the difference). __launch_bounds__(1024): at most 64
// registers, so that 32 warps can launch.
#define DEFINE_OP(NAME, T, C, PRE, OP, POST)                                   \
  __global__ void __launch_bounds__(1024)                                      \
  kernel_##NAME(const T* in, const unsigned* guards, T* out,                   \
                long long* times, int reps, int iters) {                       \
    CHAIN_PROLOGUE(T)                                                          \
    for (int r = 0; r < reps; ++r) {                                           \
      __syncthreads();                                                         \
      long long t0 = clk();                                                    \
      _Pragma("unroll 1") for (int k = 0; k < iters; ++k)                      \
      asm volatile("{\n" CHAIN_DECLS IND8(PRE) THR_BODY(OP, R16) IND8(POST) "}"    \
                   : CHAIN_OPERANDS(C));                                       \
      long long t1 = clk();                                                    \
      __syncthreads();                                                         \
      long long t2 = clk();                                                    \
      _Pragma("unroll 1") for (int k = 0; k < iters; ++k)                      \
      asm volatile("{\n" CHAIN_DECLS IND8(PRE) THR_BODY(OP, R32) IND8(POST) "}"    \
                   : CHAIN_OPERANDS(C));                                       \
      long long t3 = clk();                                                    \
      RECORD_TIMES(t0, t1, t2, t3)                                             \
    }                                                                          \
    CHAIN_EPILOGUE(T)                                                          \
  }
#define OPS_PER_REP 96
#define SHORT_OPS 256
#endif

DEFINE_OP(fadd, float, "f", NOTHING, OP_FADD, NOTHING)
DEFINE_OP(fmul, float, "f", NOTHING, OP_FMUL, NOTHING)
DEFINE_OP(ffma, float, "f", NOTHING, OP_FFMA, NOTHING)
DEFINE_OP(ex2, float, "f", NOTHING, OP_EX2, NOTHING)
DEFINE_OP(rsqrt, float, "f", NOTHING, OP_RSQRT, NOTHING)
DEFINE_OP(sin, float, "f", NOTHING, OP_SIN, NOTHING)
DEFINE_OP(cvt_f16, float, "f", NOTHING, OP_CVT_F16, NOTHING)
DEFINE_OP(iadd, unsigned, "r", NOTHING, OP_IADD, NOTHING)
DEFINE_OP(iadd_mix, unsigned, "r", NOTHING, OP_IADD_MIX, NOTHING)
DEFINE_OP(and, unsigned, "r", NOTHING, OP_AND, NOTHING)
DEFINE_OP(shl, unsigned, "r", NOTHING, OP_SHL, NOTHING)
DEFINE_OP(shr, unsigned, "r", NOTHING, OP_SHR, NOTHING)
DEFINE_OP(imul, unsigned, "r", NOTHING, OP_IMUL, NOTHING)
DEFINE_OP(imulhi, unsigned, "r", NOTHING, OP_IMULHI, NOTHING)
DEFINE_OP(hfma2, unsigned, "r", NOTHING, OP_HFMA2, NOTHING)
DEFINE_OP(i2f, unsigned, "r", NOTHING, OP_I2F, NOTHING)
DEFINE_OP(f2i, unsigned, "r", NOTHING, OP_F2I, NOTHING)
DEFINE_OP(shfl, unsigned, "r", NOTHING, OP_SHFL, NOTHING)
DEFINE_OP(vote, unsigned, "r", PRE_VOTE, OP_VOTE, POST_VOTE)
DEFINE_OP(setp_selp, unsigned, "r", NOTHING, OP_SETP_SELP, NOTHING)
DEFINE_OP(dadd, double, "d", NOTHING, OP_DADD, NOTHING)
DEFINE_OP(dfma, double, "d", NOTHING, OP_DFMA, NOTHING)

// --- tensor: mma.sync.m16n8k16 f16 x f16 + f32 (HMMA.16816.F32) -----------
// A and B all ones: each mma adds 16 to every accumulator (exact in f32).
#define MMA_OP(d0, d1, d2, d3)                                                  \
  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%" d0 ", %" d1 ", %" d2 \
  ", %" d3 "}, {%16, %17, %18, %19}, {%20, %21}, {%" d0 ", %" d1 ", %" d2     \
  ", %" d3 "};\n"
#define MMA_C0 MMA_OP("0", "1", "2", "3")
#define MMA_IND4                                                               \
  MMA_OP("0", "1", "2", "3") MMA_OP("4", "5", "6", "7")                        \
  MMA_OP("8", "9", "10", "11") MMA_OP("12", "13", "14", "15")
#define MMA_OPERANDS                                                           \
  "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]),      \
      "+f"(c[6]), "+f"(c[7]), "+f"(c[8]), "+f"(c[9]), "+f"(c[10]),             \
      "+f"(c[11]), "+f"(c[12]), "+f"(c[13]), "+f"(c[14]), "+f"(c[15])          \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])       \
      : "memory"

// in: 6 words of A and B fragments, 16 zero words; out[thread * 16 + i] =
// accumulator i; times as RECORD_TIMES. Latency: one chain (accumulators
// 0..3) of 64 and 128 mma; throughput: four independent accumulator sets,
// `iters` x 16 and `iters` x 32 rounds of four mma per warp.
#ifdef ALU_LATENCY
#define MMA_BOUNDS
#else
#define MMA_BOUNDS __launch_bounds__(1024)
#endif
__global__ void MMA_BOUNDS
kernel_mma(const unsigned* in, float* out, long long* times, int reps, int iters) {
  unsigned a[4] = {in[0], in[1], in[2], in[3]};
  unsigned b[2] = {in[4], in[5]};
  float c[16];  // zeros, from separate words so that ptxas cannot merge the sets
  for (int i = 0; i < 16; ++i) c[i] = __uint_as_float(in[6 + i]);
  for (int r = 0; r < reps; ++r) {
#ifdef ALU_LATENCY
    (void)iters;
    __shared__ float sinkSlot_[1];
    volatile float* sink_ = sinkSlot_;
    *sink_ = c[0] + c[1] + c[2] + c[3];
    long long t0 = clk();
    asm volatile(R64(MMA_C0) : MMA_OPERANDS);
    long long t1 = clk();
    *sink_ = c[0] + c[1] + c[2] + c[3];
    long long t2 = clk();
    asm volatile(R128(MMA_C0) : MMA_OPERANDS);
    long long t3 = clk();
#else
    __syncthreads();
    long long t0 = clk();
#pragma unroll 1
    for (int k = 0; k < iters; ++k) asm volatile(R16(MMA_IND4) : MMA_OPERANDS);
    long long t1 = clk();
    __syncthreads();
    long long t2 = clk();
#pragma unroll 1
    for (int k = 0; k < iters; ++k) asm volatile(R32(MMA_IND4) : MMA_OPERANDS);
    long long t3 = clk();
#endif
    RECORD_TIMES(t0, t1, t2, t3)
  }
  for (int i = 0; i < 16; ++i) out[threadIdx.x * 16 + i] = c[i];
}

// The median over repetitions of the CTA span (latest end minus earliest
// start over the warps) of the short and of the long segment, from the
// clock readings of RECORD_TIMES; fails (and returns false) when a span is
// not positive or the long one is not longer.
static inline bool ctaSpans(const std::vector<long long>& times, int reps, int warps,
                            const char* what, double* shortSpan, double* longSpan) {
  std::vector<long long> sa, sb;
  for (int r = 0; r < reps; ++r) {
    long long s0 = LLONG_MAX, e0 = LLONG_MIN, s1 = LLONG_MAX, e1 = LLONG_MIN;
    for (int w = 0; w < warps; ++w) {
      const long long* t = &times[(size_t(r) * warps + w) * 4];
      s0 = std::min(s0, t[0]); e0 = std::max(e0, t[1]);
      s1 = std::min(s1, t[2]); e1 = std::max(e1, t[3]);
    }
    sa.push_back(e0 - s0);
    sb.push_back(e1 - s1);
  }
  *shortSpan = median(sa);
  *longSpan = median(sb);
  if (!(*shortSpan > 0 && *longSpan > *shortSpan)) {
    fail("%s: spans %g (short) and %g (long) cycles: not increasing", what, *shortSpan, *longSpan);
    return false;
  }
  return true;
}

// Runs kernel_mma with `warps` warps; returns the median spans; checks the
// accumulators (each mma adds 16: A and B all ones).
static inline void runMma(int warps, int reps, int iters, double* tN, double* t2N) {
  unsigned one2 = 0x3c003c00u;  // two f16 ones
  std::vector<unsigned> in(22, 0);
  for (int i = 0; i < 6; ++i) in[i] = one2;
  unsigned* dIn;
  float* dOut;
  long long* dTimes;
  int threads = 32 * warps;
  size_t ntimes = size_t(reps) * warps * 4;
  CUDA_CHECK(cudaMalloc(&dIn, 22 * 4));
  CUDA_CHECK(cudaMalloc(&dOut, threads * 16 * 4));
  CUDA_CHECK(cudaMalloc(&dTimes, ntimes * 8));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), 22 * 4, cudaMemcpyHostToDevice));
  kernel_mma<<<1, threads>>>(dIn, dOut, dTimes, reps, iters);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> out(threads * 16);
  std::vector<long long> t(ntimes);
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(t.data(), dTimes, ntimes * 8, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
  CUDA_CHECK(cudaFree(dTimes));
  ctaSpans(t, reps, warps, "mma", tN, t2N);
#ifdef ALU_LATENCY
  const int sets = 1, perSet = 192;   // accumulators 0..3 only
#else
  const int sets = 4, perSet = 48;    // 16 + 32 rounds per iteration
#endif
  for (int th = 0; th < threads; ++th)
    for (int i = 0; i < 16; ++i) {
      float e = i < 4 * sets ? 16.0f * perSet * reps * (sets == 1 ? 1 : iters) : 0.0f;
      if (out[th * 16 + i] != e) {
        fail("mma w%d: thread %d accumulator %d is %g, expected %g", warps, th, i,
             out[th * 16 + i], e);
        return;
      }
    }
}

// --- host side: the op table, inputs, emulation and checks ----------------
struct OpSpec {
  const char* name;      // metric suffix: "fp32.fadd"
  char type;             // 'f' float, 'u' unsigned, 'd' double
  const void* kernel;
  double x0, p, q;       // inputs (unsigned ops: the bits); q = -1: lane id
  int check;             // 0 exact (host emulation), 1 relative 1e-4, 2 loose
  const char* sass;      // the SASS instruction(s) ptxas makes of it
};

static inline float bitsToFloat(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static inline unsigned floatToBits(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }

// The host's emulation of one op on one register.
static inline double emulate(const char* name, double x, double p, double q) {
  std::string n(name);
  if (n == "int.imulhi") {
    return double(unsigned((uint64_t(unsigned(x)) * uint64_t(unsigned(p))) >> 32));
  }
  if (n == "cvt.s32_to_f32") {
    return double(floatToBits(float(int(unsigned(x)))));
  }
  if (n == "cvt.f32_to_s32") {
    float f = bitsToFloat(unsigned(x));
    int r;
    if (std::isnan(f)) r = 0;
    else if (f >= 2147483648.0f) r = 2147483647;
    else if (f < -2147483648.0f) r = -2147483647 - 1;
    else r = int(std::trunc(f));
    return double(unsigned(r));
  }
  if (n == "mufu.ex2") return double(std::exp2(float(x)));
  if (n == "mufu.rsqrt") return double(1.0f / std::sqrt(float(x)));
  if (n == "mufu.sin") return double(std::sin(float(x)));
  (void)p; (void)q;
  return x;  // every other op is the identity on its inputs
}

static const OpSpec kOps[] = {
    {"fp32.fadd", 'f', (const void*)kernel_fadd, 1.5, 1.0, 0.0, 0, "FADD"},
    {"fp32.fmul", 'f', (const void*)kernel_fmul, 1.5, 1.0, 0.0, 0, "FMUL"},
    {"fp32.ffma", 'f', (const void*)kernel_ffma, 1.5, 1.0, 0.0, 0, "FFMA"},
    {"int.iadd", 'u', (const void*)kernel_iadd, 12345, 0, 0, 0, "IADD3"},
    {"int.iadd_imad_mix", 'u', (const void*)kernel_iadd_mix, 12345, 1, 0, 0, "IADD3/IMAD.IADD alternating"},
    {"int.and", 'u', (const void*)kernel_and, 12345, 0xffffffffu, 0, 0, "LOP3.LUT"},
    {"int.shl", 'u', (const void*)kernel_shl, 12345, 1, 0, 0, "SHF.L.U32"},
    {"int.shr", 'u', (const void*)kernel_shr, 12345, 1, 0, 0, "SHF.R.U32.HI"},
    {"int.imul", 'u', (const void*)kernel_imul, 12345, 1, 0, 0, "IMAD"},
    {"int.imulhi", 'u', (const void*)kernel_imulhi, 0x7fffffff, 0xffffffffu, 0, 0, "IMAD.HI.U32"},
    {"fp64.dadd", 'd', (const void*)kernel_dadd, 1.5, 1.0, 0.0, 0, "DADD"},
    {"fp64.dfma", 'd', (const void*)kernel_dfma, 1.5, 1.0, 0.0, 0, "DFMA"},
    {"mufu.ex2", 'f', (const void*)kernel_ex2, 1.0, 0.0, 0.0, 1, "MUFU.EX2"},
    {"mufu.rsqrt", 'f', (const void*)kernel_rsqrt, 4.0, 0.0, 0.0, 1, "MUFU.RSQ"},
    {"mufu.sin", 'f', (const void*)kernel_sin, 1.0, 0.0, 0.0, 2, "FMUL.RZ+MUFU.SIN"},
    {"cvt.s32_to_f32", 'u', (const void*)kernel_i2f, 12345, 0, 0, 0, "I2F"},
    {"cvt.f32_to_s32", 'u', (const void*)kernel_f2i, 0x4b3c614e, 0, 0, 0, "F2I.TRUNC"},
    {"cvt.f32_f16_f32_pair", 'f', (const void*)kernel_cvt_f16, 1.5, 0.0, 0.0, 0, "F2FP.F16.F32.PACK_AB+HADD2.F32"},
    {"half.hfma2", 'u', (const void*)kernel_hfma2, 0x40004000, 0x3c003c00, 0, 0, "HFMA2/HFMA2.MMA alternating"},
    {"shfl.idx", 'u', (const void*)kernel_shfl, 12345, 0, -1, 0, "SHFL.IDX"},
    {"vote.any", 'u', (const void*)kernel_vote, 12345, 0, 0, 0, "VOTE.ANY"},
    {"setp_selp_pair", 'u', (const void*)kernel_setp_selp, 12345, 12345, 0, 0, "ISETP+SEL"},
};

// Runs op `s` with `warps` warps per CTA (one CTA); returns the median of
// the two chain times per repetition in `tN` and `t2N`; checks the results.
static inline void runOp(const OpSpec& s, int warps, int reps, int iters, double* tN, double* t2N) {
  int threads = warps * 32;
  size_t esize = s.type == 'd' ? 8 : 4;
  std::vector<unsigned char> in(41 * 8), out(size_t(threads) * 8 * esize);
  auto put = [&](int i, double v) {
    if (s.type == 'f') { float f = float(v); std::memcpy(&in[i * 4], &f, 4); }
    else if (s.type == 'u') { unsigned u = unsigned((long long)v); std::memcpy(&in[i * 4], &u, 4); }
    else std::memcpy(&in[i * 8], &v, 8);
  };
  put(0, s.x0);
  for (int i = 34; i <= 40; ++i) put(i, s.x0);
  put(1, s.p);
  for (int l = 0; l < 32; ++l) put(2 + l, s.q < 0 ? double(l) : s.q);
  void *dIn, *dOut;
  unsigned* dGuards;
  unsigned guards[2] = {1, 1};
  long long* dTimes;
  CUDA_CHECK(cudaMalloc(&dGuards, sizeof guards));
  CUDA_CHECK(cudaMemcpy(dGuards, guards, sizeof guards, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&dIn, in.size()));
  CUDA_CHECK(cudaMalloc(&dOut, out.size()));
  size_t ntimes = size_t(reps) * warps * 4;
  CUDA_CHECK(cudaMalloc(&dTimes, sizeof(long long) * ntimes));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size(), cudaMemcpyHostToDevice));
  void* args[] = {&dIn, &dGuards, &dOut, &dTimes, &reps, &iters};
  CUDA_CHECK(cudaLaunchKernel(s.kernel, dim3(1), dim3(threads), args, 0, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<long long> times(ntimes);
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(times.data(), dTimes, sizeof(long long) * ntimes,
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dGuards));
  CUDA_CHECK(cudaFree(dOut));
  CUDA_CHECK(cudaFree(dTimes));
  ctaSpans(times, reps, warps, s.name, tN, t2N);
  // The expected value of every chain register.
#ifdef ALU_LATENCY
  long long count = (long long)reps * OPS_PER_REP;
#else
  long long count = (long long)reps * iters * OPS_PER_REP;
#endif
  int bad = 0;
  for (int t = 0; t < threads && bad == 0; ++t) {
    double qv = s.q < 0 ? double(t % 32) : s.q;
    double expect = s.x0;
    if (s.type == 'u') expect = double(unsigned((long long)s.x0));
    for (long long k = 0; k < count; ++k) {
      double next = emulate(s.name, expect, s.type == 'u' ? double(unsigned((long long)s.p)) : s.p, qv);
      if (next == expect) break;  // a fixed point: the rest changes nothing
      expect = next;
    }
    for (int i = 0; i < 8; ++i) {
      double got;
      if (s.type == 'f') { float f; std::memcpy(&f, &out[(t * 8 + i) * 4], 4); got = f; }
      else if (s.type == 'u') { unsigned u; std::memcpy(&u, &out[(t * 8 + i) * 4], 4); got = u; }
      else std::memcpy(&got, &out[(t * 8 + i) * 8], 8);
#ifdef ALU_LATENCY
      if (i > 0) { expect = s.type == 'u' ? double(unsigned((long long)s.x0)) : s.x0; if (s.type == 'f') expect = float(expect); }
#endif
      bool good;
      if (s.check == 0 || std::isinf(expect)) good = got == expect;
      else if (s.check == 1) good = std::fabs(got - expect) <= 1e-4 * std::fabs(expect) + 1e-6;
      else good = std::isfinite(got) && std::fabs(got - expect) <= 0.25 * std::fabs(expect) + 1e-3;
      if (!good) {
        fail("%s: thread %d register %d is %.9g, expected %.9g", s.name, t, i, got, expect);
        bad = 1;
        break;
      }
    }
  }
}
