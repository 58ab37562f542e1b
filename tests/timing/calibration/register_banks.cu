// register_banks: whether the registers an FFMA reads cost issue time, in SM
// cycles per instruction over 2048 instructions of one warp (median of 9).
// - regbank.dependent.same: x = fma(x, p, q), the same p and q every time
//   (ptxas can keep them in the operand reuse cache);
// - regbank.dependent.rotating: x = fma(x, p_i, q_i), 8 different pairs in
//   turn (16 registers: no reuse across neighbours);
// - regbank.independent.same / .rotating: the same with 8 independent chains
//   (x_k = fma(x_k, p, q) or fma(x_k, p_k, q_k)), so issue, not latency,
//   limits them.
// p = 1 and q = 0 (read from memory: ptxas cannot fold them), so every value
// stays what it was, which the program checks.
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

#define DEP_SAME8 R8("fma.rn.f32 %0, %0, %1, %2;\n")
#define DEP_ROT8                                                               \
  "fma.rn.f32 %0, %0, %1, %2;\n"                                               \
  "fma.rn.f32 %0, %0, %3, %4;\n"                                               \
  "fma.rn.f32 %0, %0, %5, %6;\n"                                               \
  "fma.rn.f32 %0, %0, %7, %8;\n"                                               \
  "fma.rn.f32 %0, %0, %9, %10;\n"                                              \
  "fma.rn.f32 %0, %0, %11, %12;\n"                                             \
  "fma.rn.f32 %0, %0, %13, %14;\n"                                             \
  "fma.rn.f32 %0, %0, %15, %16;\n"
// Eight chains %0..%7; sources from %8.
#define IND_SAME8 FFMA8_CHAINS
#define IND_ROT8                                                               \
  "fma.rn.f32 %0, %0, %8, %9;\n"                                               \
  "fma.rn.f32 %1, %1, %10, %11;\n"                                             \
  "fma.rn.f32 %2, %2, %12, %13;\n"                                             \
  "fma.rn.f32 %3, %3, %14, %15;\n"                                             \
  "fma.rn.f32 %4, %4, %16, %17;\n"                                             \
  "fma.rn.f32 %5, %5, %18, %19;\n"                                             \
  "fma.rn.f32 %6, %6, %20, %21;\n"                                             \
  "fma.rn.f32 %7, %7, %22, %23;\n"

#define SOURCES                                                                \
  "f"(s[0]), "f"(s[1]), "f"(s[2]), "f"(s[3]), "f"(s[4]), "f"(s[5]), "f"(s[6]), \
      "f"(s[7]), "f"(s[8]), "f"(s[9]), "f"(s[10]), "f"(s[11]), "f"(s[12]),     \
      "f"(s[13]), "f"(s[14]), "f"(s[15])

// in[0..7]: the chains' start values; in[8 + 2k] = 1, in[9 + 2k] = 0.
#define DEPENDENT_KERNEL(NAME, BLOCK)                                          \
  __global__ void NAME(const float* in, float* out, long long* times, int reps) { \
    float x = in[0], s[16];                                                    \
    for (int i = 0; i < 16; ++i) s[i] = in[8 + i];                             \
    for (int r = 0; r < reps; ++r) {                                           \
      long long t0 = clk();                                                    \
      asm volatile(R256(BLOCK) : "+f"(x) : SOURCES);                           \
      long long t1 = clk();                                                    \
      times[r] = t1 - t0;                                                      \
    }                                                                          \
    out[threadIdx.x] = x;                                                      \
  }

DEPENDENT_KERNEL(dependentSame, DEP_SAME8)
DEPENDENT_KERNEL(dependentRotating, DEP_ROT8)

#define CHAINS "+f"(x[0]), "+f"(x[1]), "+f"(x[2]), "+f"(x[3]), "+f"(x[4]), "+f"(x[5]), "+f"(x[6]), "+f"(x[7])

#define INDEPENDENT_KERNEL(NAME, BLOCK)                                        \
  __global__ void NAME(const float* in, float* out, long long* times, int reps) { \
    float x[8], s[16];                                                         \
    for (int i = 0; i < 8; ++i) x[i] = in[i];                                  \
    for (int i = 0; i < 16; ++i) s[i] = in[8 + i];                             \
    for (int r = 0; r < reps; ++r) {                                           \
      long long t0 = clk();                                                    \
      asm volatile(R256(BLOCK) : CHAINS : SOURCES);                            \
      long long t1 = clk();                                                    \
      times[r] = t1 - t0;                                                      \
    }                                                                          \
    float sum = 0;                                                             \
    for (int i = 0; i < 8; ++i) sum += x[i];                                   \
    out[threadIdx.x] = sum;                                                    \
  }

INDEPENDENT_KERNEL(independentSame, IND_SAME8)
INDEPENDENT_KERNEL(independentRotating, IND_ROT8)

typedef void (*BankKernel)(const float*, float*, long long*, int);

int main() {
  reportClock();
  const int reps = 9, instructions = 2048;
  float hostIn[24];
  for (int i = 0; i < 8; ++i) hostIn[i] = 1.5f + float(i);
  for (int k = 0; k < 8; ++k) {
    hostIn[8 + 2 * k] = 1.0f;
    hostIn[9 + 2 * k] = 0.0f;
  }
  float *in = nullptr, *out = nullptr;
  long long* times = nullptr;
  CUDA_CHECK(cudaMalloc(&in, sizeof hostIn));
  CUDA_CHECK(cudaMalloc(&out, 32 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&times, reps * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  struct Case {
    const char* name;
    BankKernel kernel;
    float expected;
  };
  float allChains = 0;
  for (int i = 0; i < 8; ++i) allChains += hostIn[i];
  const Case cases[] = {{"regbank.dependent.same", dependentSame, hostIn[0]},
                        {"regbank.dependent.rotating", dependentRotating, hostIn[0]},
                        {"regbank.independent.same", independentSame, allChains},
                        {"regbank.independent.rotating", independentRotating, allChains}};
  for (const Case& c : cases) {
    c.kernel<<<1, 32>>>(in, out, times, reps);
    CUDA_CHECK(cudaGetLastError());
    std::vector<long long> t(reps);
    CUDA_CHECK(cudaMemcpy(t.data(), times, t.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    float o[32];
    CUDA_CHECK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i) {
      if (o[i] != c.expected) fail("%s: thread %d gave %g, expected %g", c.name, i, o[i], c.expected);
    }
    // The first repetition includes the cold instruction fetch.
    t.erase(t.begin());
    report(c.name, median(t) / instructions, "cycles/inst");
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(times));
  reportClock("clock.sm_mhz_end");
  return finish();
}
