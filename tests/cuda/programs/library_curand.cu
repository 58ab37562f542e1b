// cuRAND's host API as programs call it: each pseudo-random generator and
// a quasi-random one, seeded, filling device memory with uniform, normal,
// log-normal and Poisson numbers. The numbers are printed exactly (%a),
// so they must be the GPU's own; their means are checked against the
// distributions'.
// nvcc flags: -lcurand
// ptxsim flags: --config h100_forward
#include <curand.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

#define RAND_CHECK(call) STATUS_CHECK(call, CURAND_STATUS_SUCCESS, statusNumber)

namespace {

const size_t count = 1 << 14;

struct Kind {
  curandRngType_t type;
  const char* name;
};

void show(const char* what, const std::vector<float>& v, double expectedMean, double tolerance) {
  double mean = 0;
  for (float x : v) mean += x;
  mean /= static_cast<double>(v.size());
  std::printf("  %s: %a %a %a %a ... %a; mean within %g of %g: %s\n", what, v[0], v[1], v[2], v[3], v.back(), tolerance,
              expectedMean, std::fabs(mean - expectedMean) < tolerance ? "yes" : "no");
}

}  // namespace

int main() {
  float* d = nullptr;
  unsigned* dInt = nullptr;
  CHECK(cudaMalloc(&d, count * sizeof(float)));
  CHECK(cudaMalloc(&dInt, count * sizeof(unsigned)));
  std::vector<float> h(count);
  std::vector<unsigned> hInt(count);
  for (Kind kind : {Kind{CURAND_RNG_PSEUDO_XORWOW, "XORWOW"}, Kind{CURAND_RNG_PSEUDO_MRG32K3A, "MRG32k3a"},
                    Kind{CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox4x32-10"}, Kind{CURAND_RNG_PSEUDO_MTGP32, "MTGP32"},
                    Kind{CURAND_RNG_QUASI_SOBOL32, "Sobol32"}}) {
    curandGenerator_t g;
    RAND_CHECK(curandCreateGenerator(&g, kind.type));
    if (kind.type == CURAND_RNG_QUASI_SOBOL32) {
      RAND_CHECK(curandSetQuasiRandomGeneratorDimensions(g, 2));
    } else {
      RAND_CHECK(curandSetPseudoRandomGeneratorSeed(g, 20261207));
    }
    std::printf("%s:\n", kind.name);
    RAND_CHECK(curandGenerate(g, dInt, count));
    CHECK(cudaMemcpy(hInt.data(), dInt, count * 4, cudaMemcpyDeviceToHost));
    std::printf("  32-bit: %08x %08x %08x %08x ... %08x\n", hInt[0], hInt[1], hInt[2], hInt[3], hInt.back());
    RAND_CHECK(curandGenerateUniform(g, d, count));
    CHECK(cudaMemcpy(h.data(), d, count * 4, cudaMemcpyDeviceToHost));
    show("uniform", h, 0.5, 0.01);
    RAND_CHECK(curandGenerateNormal(g, d, count, 1.0f, 2.0f));
    CHECK(cudaMemcpy(h.data(), d, count * 4, cudaMemcpyDeviceToHost));
    show("normal(1, 2)", h, 1.0, 0.05);
    RAND_CHECK(curandGenerateLogNormal(g, d, count, 0.0f, 0.5f));
    CHECK(cudaMemcpy(h.data(), d, count * 4, cudaMemcpyDeviceToHost));
    show("log-normal(0, 0.5)", h, std::exp(0.125), 0.02);
    RAND_CHECK(curandGeneratePoisson(g, dInt, count, 4.0));
    CHECK(cudaMemcpy(hInt.data(), dInt, count * 4, cudaMemcpyDeviceToHost));
    double mean = 0;
    for (unsigned x : hInt) mean += x;
    mean /= count;
    std::printf("  Poisson(4): %u %u %u %u ... %u; mean within 0.1 of 4: %s\n", hInt[0], hInt[1], hInt[2], hInt[3],
                hInt.back(), std::fabs(mean - 4) < 0.1 ? "yes" : "no");
    RAND_CHECK(curandDestroyGenerator(g));
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
