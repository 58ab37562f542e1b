// cuFFT as programs call it: 1D and 2D complex transforms forward and
// back, and a real-to-complex transform with its inverse, in single
// precision, checked against a host DFT in double precision.
// nvcc flags: -lcufft
// ptxsim flags: --config h100_forward
#include <cufft.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "check.h"

#define FFT_CHECK(call) STATUS_CHECK(call, CUFFT_SUCCESS, statusNumber)

namespace {

using Complex = std::complex<double>;

// The unnormalised DFT of rows x cols (row-major), sign -1 forward.
std::vector<Complex> dft(const std::vector<Complex>& in, int rows, int cols, int sign) {
  std::vector<Complex> out(in.size());
  const double pi = std::acos(-1.0);
  for (int u = 0; u < rows; ++u) {
    for (int v = 0; v < cols; ++v) {
      Complex sum = 0;
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
          double angle = sign * 2 * pi * (double(u) * r / rows + double(v) * c / cols);
          sum += in[r * cols + c] * Complex(std::cos(angle), std::sin(angle));
        }
      }
      out[u * cols + v] = sum;
    }
  }
  return out;
}

// The largest error over the largest magnitude.
double relativeError(const std::vector<cufftComplex>& got, const std::vector<Complex>& want) {
  double worst = 0, scale = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(worst, std::abs(Complex(got[i].x, got[i].y) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return worst / scale;
}

std::vector<Complex> signal(int count) {
  std::vector<Complex> v(count);
  for (int i = 0; i < count; ++i) v[i] = Complex(std::sin(0.3 * i) + 0.25 * (i % 3), std::cos(0.7 * i));
  return v;
}

}  // namespace

int main() {
  int version = 0;
  FFT_CHECK(cufftGetVersion(&version));
  std::printf("cuFFT version at least 12000: %s\n", version >= 12000 ? "yes" : "no");
  cufftComplex* d = nullptr;
  CHECK(cudaMalloc(&d, 4096 * sizeof(cufftComplex)));

  // 1D complex: 256 points, and 2D complex: 24 x 40.
  struct Shape {
    int rows, cols;
  };
  for (Shape s : {Shape{1, 256}, Shape{24, 40}}) {
    int count = s.rows * s.cols;
    std::vector<Complex> in = signal(count);
    std::vector<cufftComplex> h(count);
    for (int i = 0; i < count; ++i) h[i] = {float(in[i].real()), float(in[i].imag())};
    CHECK(cudaMemcpy(d, h.data(), count * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan;
    if (s.rows == 1) {
      FFT_CHECK(cufftPlan1d(&plan, s.cols, CUFFT_C2C, 1));
    } else {
      FFT_CHECK(cufftPlan2d(&plan, s.rows, s.cols, CUFFT_C2C));
    }
    FFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    CHECK(cudaMemcpy(h.data(), d, count * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::printf("%dx%d C2C forward: error below 1e-5: %s\n", s.rows, s.cols,
                relativeError(h, dft(in, s.rows, s.cols, -1)) < 1e-5 ? "yes" : "no");
    FFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
    CHECK(cudaMemcpy(h.data(), d, count * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    std::vector<Complex> scaled(in);
    for (Complex& x : scaled) x *= count;
    std::printf("%dx%d C2C inverse of it: the input times %d, error below 1e-5: %s\n", s.rows, s.cols, count,
                relativeError(h, scaled) < 1e-5 ? "yes" : "no");
    FFT_CHECK(cufftDestroy(plan));
  }

  // Real to complex, 1D of 128 points: 65 coefficients; then back.
  const int n = 128;
  std::vector<float> real(n);
  std::vector<Complex> asComplex(n);
  for (int i = 0; i < n; ++i) {
    real[i] = float(std::sin(0.11 * i * i) + 0.5);
    asComplex[i] = real[i];
  }
  float* dReal = nullptr;
  CHECK(cudaMalloc(&dReal, n * sizeof(float)));
  CHECK(cudaMemcpy(dReal, real.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cufftHandle r2c, c2r;
  FFT_CHECK(cufftPlan1d(&r2c, n, CUFFT_R2C, 1));
  FFT_CHECK(cufftPlan1d(&c2r, n, CUFFT_C2R, 1));
  FFT_CHECK(cufftExecR2C(r2c, dReal, d));
  std::vector<cufftComplex> half(n / 2 + 1);
  CHECK(cudaMemcpy(half.data(), d, half.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
  std::vector<Complex> full = dft(asComplex, 1, n, -1);
  full.resize(n / 2 + 1);
  std::printf("R2C %d: %zu coefficients, error below 1e-5: %s\n", n, half.size(),
              relativeError(half, full) < 1e-5 ? "yes" : "no");
  FFT_CHECK(cufftExecC2R(c2r, d, dReal));
  std::vector<float> back(n);
  CHECK(cudaMemcpy(back.data(), dReal, n * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(double(back[i]) / n - real[i]));
  std::printf("C2R of it: the input times %d, error below 1e-5: %s\n", n, worst < 1e-5 ? "yes" : "no");
  FFT_CHECK(cufftDestroy(r2c));
  FFT_CHECK(cufftDestroy(c2r));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
