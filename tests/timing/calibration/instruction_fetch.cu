// instruction_fetch: what fetching instructions costs, in SM cycles per
// instruction, for straight-line code of N instructions (N x 16 bytes of
// SASS: N = 256 .. 32768, 4 KiB to 512 KiB).
// - fetch.nN.wW.launch0.pass0: the first pass of the first launch over the
//   code (nothing of it cached anywhere);
// - fetch.nN.wW.launch1.pass0: the first pass of a second launch (what a
//   launch leaves in the instruction caches, or in L2);
// - fetch.nN.wW.launch1.pass2: the third pass of the second launch (warm:
//   what the caches hold of N instructions);
// W = 1, 4, 16 warps of one CTA run the same code (one warp per
// sub-partition at W = 4). Each instruction is an FFMA of one of eight
// independent chains (x = x * 1 + 0: the values stay what they were, which
// the program checks), so one warp can issue one every cycle while fetch
// keeps up. Cycles per instruction = the latest warp's clock64 span of the
// pass / N.
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include "calib_common.h"

// The code blocks: N / 8 copies of FMA8.
#define N256(s) R32(s)
#define N512(s) R64(s)
#define N1024(s) R128(s)
#define N1536(s) R128(s) R64(s)
#define N2048(s) R256(s)
#define N3072(s) R256(s) R128(s)
#define N4096(s) R512(s)
#define N6144(s) R512(s) R256(s)
#define N8192(s) R2(R512(s))
#define N12288(s) R2(R512(s)) R512(s)
#define N16384(s) R4(R512(s))
#define N32768(s) R8(R512(s))

#define FETCH_KERNEL(NAME, RK)                                                 \
  __global__ void NAME(const float* in, float* out, long long* times,          \
                       int passes) {                                           \
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31;                 \
    float a0 = in[0] + threadIdx.x, a1 = in[1], a2 = in[2], a3 = in[3];        \
    float a4 = in[4], a5 = in[5], a6 = in[6], a7 = in[7];                      \
    float one = in[8], zero = in[9];                                           \
    _Pragma("unroll 1") for (int p = 0; p < passes; ++p) {                     \
      long long t0 = clk();                                                    \
      asm volatile(RK(FFMA8_CHAINS)                                                    \
                   : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4),         \
                     "+f"(a5), "+f"(a6), "+f"(a7)                              \
                   : "f"(one), "f"(zero));                                     \
      long long t1 = clk();                                                    \
      if (lane == 0) {                                                         \
        times[(warp * passes + p) * 2] = t0;                                   \
        times[(warp * passes + p) * 2 + 1] = t1;                               \
      }                                                                        \
    }                                                                          \
    out[threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                  \
  }

FETCH_KERNEL(fetch256, N256)
FETCH_KERNEL(fetch512, N512)
FETCH_KERNEL(fetch1024, N1024)
FETCH_KERNEL(fetch1536, N1536)
FETCH_KERNEL(fetch2048, N2048)
FETCH_KERNEL(fetch3072, N3072)
FETCH_KERNEL(fetch4096, N4096)
FETCH_KERNEL(fetch6144, N6144)
FETCH_KERNEL(fetch8192, N8192)
FETCH_KERNEL(fetch12288, N12288)
FETCH_KERNEL(fetch16384, N16384)
FETCH_KERNEL(fetch32768, N32768)

typedef void (*FetchKernel)(const float*, float*, long long*, int);

int main() {
  reportClock();
  const int passes = 3;
  const int maxWarps = 16;
  float hostIn[10] = {1.5f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 1.0f, 0.0f};
  float *in = nullptr, *out = nullptr;
  long long* times = nullptr;
  CUDA_CHECK(cudaMalloc(&in, sizeof hostIn));
  CUDA_CHECK(cudaMalloc(&out, maxWarps * 32 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&times, maxWarps * passes * 2 * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  struct Case {
    const char* name;
    FetchKernel kernel;
    int instructions;
  };
  const Case cases[] = {{"n256", fetch256, 256},       {"n512", fetch512, 512},
                        {"n1024", fetch1024, 1024},    {"n1536", fetch1536, 1536},
                        {"n2048", fetch2048, 2048},    {"n3072", fetch3072, 3072},
                        {"n4096", fetch4096, 4096},    {"n6144", fetch6144, 6144},
                        {"n8192", fetch8192, 8192},    {"n12288", fetch12288, 12288},
                        {"n16384", fetch16384, 16384}, {"n32768", fetch32768, 32768}};
  const int warpCounts[] = {1, 4, 16};
  for (const Case& c : cases) {
    for (int warps : warpCounts) {
      if (quickMode() && warps > 4) continue;
      for (int launch = 0; launch < 2; ++launch) {
        c.kernel<<<1, warps * 32>>>(in, out, times, passes);
        CUDA_CHECK(cudaGetLastError());
        std::vector<long long> t(warps * passes * 2);
        CUDA_CHECK(cudaMemcpy(t.data(), times, t.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        std::vector<float> o(warps * 32);
        CUDA_CHECK(cudaMemcpy(o.data(), out, o.size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < warps * 32; ++i) {
          float expected = (hostIn[0] + float(i)) + 2 + 3 + 4 + 5 + 6 + 7 + 8;
          if (o[i] != expected) fail("%s w%d: thread %d gave %g, expected %g", c.name, warps, i, o[i], expected);
        }
        for (int p = 0; p < passes; ++p) {
          if (!(launch == 0 && p == 0) && !(launch == 1 && (p == 0 || p == passes - 1))) continue;
          long long start = t[p * 2], end = t[p * 2 + 1];
          for (int w = 1; w < warps; ++w) {
            start = std::min(start, t[(w * passes + p) * 2]);
            end = std::max(end, t[(w * passes + p) * 2 + 1]);
          }
          std::string name = std::string("fetch.") + c.name + ".w" + std::to_string(warps) + ".launch" +
                             std::to_string(launch) + ".pass" + std::to_string(p);
          report(name, double(end - start) / c.instructions, "cycles/inst");
        }
      }
    }
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(times));
  reportClock("clock.sm_mhz_end");
  return finish();
}
