// cuFFT as programs call it: 1D and 2D complex transforms forward and
// back, and a real-to-complex transform with its inverse, in single
// precision, checked against a host DFT in double precision; then more
// plans (double precision, sizes with odd and prime factors, 3D, batches
// with strides), each output also printed as a hash of its bits, which
// must be the GPU's.
// nvcc flags: -lcufft
// ptxsim flags: --config h100_forward
#include <cufft.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "bits_hash.h"
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

// The unnormalised forward DFT of each array of `dims` in `data`
// (row-major, one after another), one axis at a time.
std::vector<Complex> dftEachAxis(std::vector<Complex> data, const std::vector<int>& dims) {
  const double pi = std::acos(-1.0);
  size_t volume = 1;
  for (int d : dims) volume *= d;
  size_t inner = volume;
  for (int n : dims) {
    inner /= n;  // the distance between neighbours along this axis
    std::vector<Complex> line(n);
    for (size_t base = 0; base < data.size(); ++base) {
      if ((base / inner) % n != 0) continue;  // each line once, from its first element
      for (int k = 0; k < n; ++k) {
        Complex sum = 0;
        for (int j = 0; j < n; ++j)
          sum += data[base + j * inner] * std::polar(1.0, -2 * pi * double(k) * j / n);
        line[k] = sum;
      }
      for (int k = 0; k < n; ++k) data[base + k * inner] = line[k];
    }
  }
  return data;
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

  // More plans through cufftPlanMany, forward, with the output's bits.
  struct Plan {
    const char* name;
    cufftType type;
    std::vector<int> dims;
    int batch;
  };
  const Plan plans[] = {
      {"C2C 1000 (2^3 5^3)", CUFFT_C2C, {1000}, 1}, {"C2C 127 (prime) x3", CUFFT_C2C, {127}, 3},
      {"C2C 4096", CUFFT_C2C, {4096}, 1},           {"C2C 8x12x10", CUFFT_C2C, {8, 12, 10}, 1},
      {"Z2Z 360 x2", CUFFT_Z2Z, {360}, 2},          {"Z2Z 30x17", CUFFT_Z2Z, {30, 17}, 1},
      {"R2C 32x48", CUFFT_R2C, {32, 48}, 1},        {"D2Z 210", CUFFT_D2Z, {210}, 1},
  };
  void* in = nullptr;
  void* out = nullptr;
  CHECK(cudaMalloc(&in, 1 << 16));
  CHECK(cudaMalloc(&out, 1 << 16));
  for (const Plan& p : plans) {
    bool isDouble = p.type == CUFFT_Z2Z || p.type == CUFFT_D2Z;
    bool isReal = p.type == CUFFT_R2C || p.type == CUFFT_D2Z;
    int volume = 1;
    for (int d : p.dims) volume *= d;
    int count = volume * p.batch;
    std::vector<Complex> x = signal(count);
    if (isReal) {
      for (Complex& c : x) c = c.real();
    }
    // The input in the plan's type: float or double, real or complex.
    std::vector<double> flat;
    for (const Complex& c : x) {
      flat.push_back(c.real());
      if (!isReal) flat.push_back(c.imag());
    }
    std::vector<float> flatFloat(flat.begin(), flat.end());
    if (isDouble) {
      CHECK(cudaMemcpy(in, flat.data(), flat.size() * sizeof(double), cudaMemcpyHostToDevice));
    } else {
      CHECK(cudaMemcpy(in, flatFloat.data(), flatFloat.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    // What the host computes from what the GPU was given.
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = isDouble ? Complex(flat[isReal ? i : 2 * i], isReal ? 0 : flat[2 * i + 1])
                      : Complex(flatFloat[isReal ? i : 2 * i], isReal ? 0 : flatFloat[2 * i + 1]);
    }
    std::vector<Complex> want = dftEachAxis(x, p.dims);
    // A real transform keeps the last axis's first n/2+1 coefficients.
    int last = p.dims.back();
    int kept = isReal ? last / 2 + 1 : last;
    std::vector<Complex> wantKept;
    for (size_t i = 0; i < want.size(); ++i) {
      if (static_cast<int>(i % last) < kept) wantKept.push_back(want[i]);
    }
    cufftHandle plan;
    std::vector<int> dims(p.dims);
    FFT_CHECK(cufftPlanMany(&plan, static_cast<int>(dims.size()), dims.data(), nullptr, 1, 0, nullptr, 1, 0,
                            p.type, p.batch));
    switch (p.type) {
      case CUFFT_C2C:
        FFT_CHECK(cufftExecC2C(plan, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out),
                               CUFFT_FORWARD));
        break;
      case CUFFT_Z2Z:
        FFT_CHECK(cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(in),
                               static_cast<cufftDoubleComplex*>(out), CUFFT_FORWARD));
        break;
      case CUFFT_R2C:
        FFT_CHECK(cufftExecR2C(plan, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)));
        break;
      default:
        FFT_CHECK(
            cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out)));
        break;
    }
    size_t values = 2 * wantKept.size();
    double worst = 0, scale = 0;
    unsigned long long hash = 0;
    if (isDouble) {
      std::vector<double> got(values);
      CHECK(cudaMemcpy(got.data(), out, values * sizeof(double), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < wantKept.size(); ++i) {
        worst = std::max(worst, std::abs(Complex(got[2 * i], got[2 * i + 1]) - wantKept[i]));
      }
      hash = bitsHash(got.data(), values);
    } else {
      std::vector<float> got(values);
      CHECK(cudaMemcpy(got.data(), out, values * sizeof(float), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < wantKept.size(); ++i) {
        worst = std::max(worst, std::abs(Complex(got[2 * i], got[2 * i + 1]) - wantKept[i]));
      }
      hash = bitsHash(got.data(), values);
    }
    for (const Complex& c : wantKept) scale = std::max(scale, std::abs(c));
    double tolerance = isDouble ? 1e-12 : 1e-5;
    std::printf("%s: error below %g: %s, bits %016llx\n", p.name, tolerance,
                worst / scale < tolerance ? "yes" : "no", hash);
    FFT_CHECK(cufftDestroy(plan));
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
