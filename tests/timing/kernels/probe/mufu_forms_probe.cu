// What the multi-function unit's PTX forms cost on the H100's SM, and
// what ptxas makes of them (cuobjdump -sass of this program):
//   rsqrt, sqrt, lg2.approx.f32   FSETP.GEU |x| >= 2^-126, @!P FMUL x by
//                                 2^24, MUFU, @!P FMUL (FADD -24 for lg2)
//                                 the result back; .ftz: the MUFU alone;
//   rcp.approx.f32                FSETP and FSEL for both ends of the
//                                 range, FMUL, MUFU.RCP, FMUL;
//   sin, cos.approx.f32           FMUL.RZ by 1/(2 pi), MUFU.SIN (.COS);
//   ex2.approx.f32                scaled like rsqrt where the input may
//                                 be below -126: in a chain only the
//                                 first (MUFU.EX2 is never negative);
//   tanh.approx.f32               the MUFU alone.
// One warp runs a chain of 64 dependent instructions of each form, timed
// with clock64 (the last of 3 rounds). Recorded on the device machine's
// H200, whose SMs are the H100's (h200/mufu_forms.stdout, 2026-11-28);
// mufu_forms_test.sh holds ptxsim to it (pipe.mufu.latency,
// pipe.mufu.scaled_latency, pipe.mufu.reduced_latency).
// Usage: mufu_forms_probe (prints one line per form)
#include <cstdio>

#include "../../../cuda/programs/check.h"

#define R8(x) x x x x x x x x
#define R64(x) R8(R8(x))
#define CHAIN(NAME, OP)                                             \
  __global__ void NAME(const float* in, float* out, long long* t) { \
    float x = in[threadIdx.x];                                      \
    long long t0 = 0, t1 = 0;                                       \
    for (int rep = 0; rep < 3; ++rep) {                             \
      __syncwarp();                                                 \
      t0 = clock64();                                               \
      asm volatile(R64(OP " %0, %0;\n") : "+f"(x));                 \
      __syncwarp();                                                 \
      t1 = clock64();                                               \
    }                                                               \
    out[threadIdx.x] = x;                                           \
    if (threadIdx.x == 0) *t = t1 - t0;                             \
  }
CHAIN(k_rsqrt, "rsqrt.approx.f32")
CHAIN(k_rsqrt_ftz, "rsqrt.approx.ftz.f32")
CHAIN(k_rcp, "rcp.approx.f32")
CHAIN(k_sqrt, "sqrt.approx.f32")
CHAIN(k_sqrt_ftz, "sqrt.approx.ftz.f32")
CHAIN(k_ex2, "ex2.approx.f32")
CHAIN(k_ex2_ftz, "ex2.approx.ftz.f32")
CHAIN(k_lg2, "lg2.approx.f32")
CHAIN(k_lg2_ftz, "lg2.approx.ftz.f32")
CHAIN(k_sin, "sin.approx.f32")
CHAIN(k_sin_ftz, "sin.approx.ftz.f32")
CHAIN(k_cos, "cos.approx.f32")
CHAIN(k_tanh, "tanh.approx.f32")

int main() {
  float *in, *out;
  long long* t;
  CHECK(cudaMallocManaged(&in, 128));
  CHECK(cudaMallocManaged(&out, 128));
  CHECK(cudaMallocManaged(&t, 8));
  for (int i = 0; i < 32; ++i) in[i] = 0.5f + 0.01f * i;
  const struct {
    const char* name;
    void (*kernel)(const float*, float*, long long*);
  } forms[] = {{"rsqrt.approx.f32", k_rsqrt}, {"rsqrt.approx.ftz.f32", k_rsqrt_ftz},
               {"rcp.approx.f32", k_rcp},     {"sqrt.approx.f32", k_sqrt},
               {"sqrt.approx.ftz.f32", k_sqrt_ftz}, {"ex2.approx.f32", k_ex2},
               {"ex2.approx.ftz.f32", k_ex2_ftz},   {"lg2.approx.f32", k_lg2},
               {"lg2.approx.ftz.f32", k_lg2_ftz},   {"sin.approx.f32", k_sin},
               {"sin.approx.ftz.f32", k_sin_ftz},   {"cos.approx.f32", k_cos},
               {"tanh.approx.f32", k_tanh}};
  for (const auto& form : forms) {
    form.kernel<<<1, 32>>>(in, out, t);
    CHECK(cudaDeviceSynchronize());
    printf("%s chain of 64: %lld cycles, %.2f a step\n", form.name, *t, *t / 64.0);
  }
  return 0;
}
