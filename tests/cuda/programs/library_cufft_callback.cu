// cuFFT with LTO callbacks (cufftXtSetJITCallback), compiled at run time
// by NVRTC to LTO IR: cuFFT links its kernels with them through nvJitLink.
// A load callback that weights the input by a table passed as caller info,
// on a 256-point complex transform; a store callback that keeps only the
// real part, on a 128-point real-to-complex one. Each output is checked
// against a host DFT and printed as a hash of its bits, the GPU's.
// nvcc flags: -lcufft -lnvrtc
#include <cufftXt.h>
#include <nvrtc.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "bits_hash.h"
#include "check.h"

#define FFT_CHECK(call) STATUS_CHECK(call, CUFFT_SUCCESS, statusNumber)
#define NVRTC_CHECK(call) STATUS_CHECK(call, NVRTC_SUCCESS, nvrtcGetErrorString)

namespace {

// cuFFT's callback signatures, with float2 for cufftComplex (NVRTC has no
// cuFFT headers).
const char* kCallbacks = R"(
__device__ float2 weightInput(void* dataIn, unsigned long long offset, void* callerInfo, void*) {
  float2 v = static_cast<const float2*>(dataIn)[offset];
  float w = static_cast<const float*>(callerInfo)[offset];
  return make_float2(v.x * w, v.y * w);
}
__device__ void keepRealPart(void* dataOut, unsigned long long offset, float2 element, void*, void*) {
  static_cast<float2*>(dataOut)[offset] = make_float2(element.x, 0.0f);
}
)";

using Complex = std::complex<double>;

std::vector<Complex> dft(const std::vector<Complex>& in) {
  const double pi = std::acos(-1.0);
  size_t n = in.size();
  std::vector<Complex> out(n);
  for (size_t k = 0; k < n; ++k) {
    for (size_t j = 0; j < n; ++j) out[k] += in[j] * std::polar(1.0, -2 * pi * double(k * j % n) / double(n));
  }
  return out;
}

double relativeError(const std::vector<cufftComplex>& got, const std::vector<Complex>& want) {
  double worst = 0, scale = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, std::abs(Complex(got[i].x, got[i].y) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return worst / scale;
}

}  // namespace

int main() {
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, kCallbacks, "callbacks.cu", 0, nullptr, nullptr));
  const char* options[] = {"-dlto", "--relocatable-device-code=true", "--gpu-architecture=compute_90"};
  NVRTC_CHECK(nvrtcCompileProgram(program, 3, options));
  size_t irSize = 0;
  NVRTC_CHECK(nvrtcGetLTOIRSize(program, &irSize));
  std::vector<char> ir(irSize);
  NVRTC_CHECK(nvrtcGetLTOIR(program, ir.data()));
  NVRTC_CHECK(nvrtcDestroyProgram(&program));

  // A load callback with a table of weights as its caller info.
  const int n = 256;
  std::vector<cufftComplex> h(n);
  std::vector<float> weights(n);
  std::vector<Complex> weighted(n);
  for (int i = 0; i < n; ++i) {
    h[i] = {float(std::sin(0.3 * i)), float(std::cos(0.7 * i))};
    weights[i] = 1.0f + 0.125f * float(i % 9);
    weighted[i] = Complex(h[i].x, h[i].y) * double(weights[i]);
  }
  cufftComplex* d = nullptr;
  float* dWeights = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(cufftComplex)));
  CHECK(cudaMalloc(&dWeights, n * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dWeights, weights.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cufftHandle plan;
  FFT_CHECK(cufftCreate(&plan));
  void* callerInfo = dWeights;
  FFT_CHECK(
      cufftXtSetJITCallback(plan, "weightInput", ir.data(), ir.size(), CUFFT_CB_LD_COMPLEX, &callerInfo));
  size_t workspace = 0;
  FFT_CHECK(cufftMakePlan1d(plan, n, CUFFT_C2C, 1, &workspace));
  FFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
  std::printf("C2C 256 with a load callback: error below 1e-5: %s, bits %016llx\n",
              relativeError(h, dft(weighted)) < 1e-5 ? "yes" : "no", bitsHash(h.data(), h.size()));
  FFT_CHECK(cufftDestroy(plan));

  // A store callback on a real-to-complex transform.
  const int m = 128;
  std::vector<float> real(m);
  std::vector<Complex> asComplex(m);
  for (int i = 0; i < m; ++i) {
    real[i] = float(std::sin(0.11 * i * i) + 0.5);
    asComplex[i] = real[i];
  }
  float* dReal = nullptr;
  CHECK(cudaMalloc(&dReal, m * sizeof(float)));
  CHECK(cudaMemcpy(dReal, real.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  FFT_CHECK(cufftCreate(&plan));
  FFT_CHECK(cufftXtSetJITCallback(plan, "keepRealPart", ir.data(), ir.size(), CUFFT_CB_ST_COMPLEX, nullptr));
  FFT_CHECK(cufftMakePlan1d(plan, m, CUFFT_R2C, 1, &workspace));
  FFT_CHECK(cufftExecR2C(plan, dReal, d));
  std::vector<cufftComplex> half(m / 2 + 1);
  CHECK(cudaMemcpy(half.data(), d, half.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
  std::vector<Complex> want = dft(asComplex);
  want.resize(half.size());
  for (Complex& c : want) c = c.real();
  std::printf("R2C 128 with a store callback: error below 1e-5: %s, bits %016llx\n",
              relativeError(half, want) < 1e-5 ? "yes" : "no", bitsHash(half.data(), half.size()));
  FFT_CHECK(cufftDestroy(plan));
  CHECK(cudaFree(d));
  CHECK(cudaFree(dWeights));
  CHECK(cudaFree(dReal));
  return 0;
}
