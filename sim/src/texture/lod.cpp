// Level of detail from gradients; the measured rules are listed in lod.h.
#include "lod.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ptxsim::sim::texture {
namespace {

// 256 * log2(1 + m / 256) as the H100's texture unit tabulates it, for the mantissa's top 8 bits m
// (read off the isotropic rows "I" of texture_lod_probe_h100.txt; the same in every octave).
constexpr std::array<uint8_t, 256> kLog2Table = {
    0,   2,   4,   5,   6,   8,   9,   11,  12,  13,  15,  16,  18,  19,  20,  22,  23,  24,  26,  27,
    28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,  44,  45,  47,  48,  49,  50,  52,  53,
    54,  55,  57,  58,  59,  60,  62,  63,  64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,
    78,  79,  81,  82,  83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99,  100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121,
    122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137, 137, 138, 139, 140, 141,
    142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161,
    162, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193, 194, 195, 195, 196,
    197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206, 207, 208, 209, 210, 210, 211, 212, 213,
    214, 214, 215, 216, 217, 218, 218, 219, 220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229,
    229, 230, 231, 232, 233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
};

// |v| as the texture unit approximates it: the largest component plus 11/32 of the others.
double approximateLength(const std::array<double, 3>& v, int dims) {
  std::array<double, 3> a{0, 0, 0};
  for (int d = 0; d < dims; ++d) a[d] = std::fabs(v[d]);
  std::sort(a.begin(), a.end(), std::greater<>());
  return a[0] + 11.0 / 32.0 * (a[1] + a[2]);
}

}  // namespace

int32_t tableLog2x256(double rho) {
  if (!(rho > 0)) return kLodMinusInfinity;
  if (std::isinf(rho)) return INT32_MAX;
  int exponent = 0;
  const double mantissa = std::frexp(rho, &exponent);  // rho = mantissa * 2^exponent, mantissa in [0.5, 1)
  const auto index = static_cast<int>(std::floor((mantissa * 2.0 - 1.0) * 256.0));
  return (exponent - 1) * 256 + kLog2Table[static_cast<size_t>(std::clamp(index, 0, 255))];
}

int32_t gradientLodx256(const std::array<double, 3>& dPdx, const std::array<double, 3>& dPdy, int dims) {
  std::array<double, 3> sum{0, 0, 0}, difference{0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    sum[d] = dPdx[d] + dPdy[d];
    difference[d] = dPdx[d] - dPdy[d];
  }
  const double diagonal = std::max(approximateLength(sum, dims), approximateLength(difference, dims));
  const double rho =
      std::max({approximateLength(dPdx, dims), approximateLength(dPdy, dims), 11.0 / 16.0 * diagonal});
  return tableLog2x256(rho);
}

}  // namespace ptxsim::sim::texture
