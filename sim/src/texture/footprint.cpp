// Texel footprints and their weights; the measured rules are listed in footprint.h.
#include "footprint.h"

#include <algorithm>
#include <cmath>

namespace ptxsim::sim::texture {
namespace {

// Texel coordinates far outside any texture address the same texels as +-2^40 and stay in int64.
double bounded(double u) { return std::isnan(u) ? 0.0 : std::clamp(u, -0x1p40, 0x1p40); }

// Unnormalized coordinates address wrap and mirror as clamp (measured).
AddressMode effectiveMode(const Axis& a) {
  if (a.normalized || a.mode == AddressMode::Border) return a.mode;
  return AddressMode::Clamp;
}

int64_t divideRounded(int64_t num, int64_t den, bool tiesUp) {
  const int64_t q = num / den, r = num % den;  // num, den >= 0
  return (2 * r > den || (2 * r == den && tiesUp)) ? q + 1 : q;
}

// The lower texel of a linear tap and the weight (of 256) of the texel above it.
struct Tap {
  int64_t base = 0;
  int weight = 0;
};

Tap linearTap(double u, const Axis& a, bool srgbWeights) {
  if (effectiveMode(a) == AddressMode::Clamp) u = std::clamp(u, 0.5, a.size - 0.5);
  const double b = bounded(u) - 0.5;
  const double fl = std::floor(b);
  Tap t{static_cast<int64_t>(fl), linearWeight256(b - fl)};
  if (srgbWeights) t.weight = (t.weight + 8) / 16 * 16;
  if (t.weight == 256) t = {t.base + 1, 0};
  return t;
}

Corner readCorner(const TexelSource& src, const Site& s, const std::array<int64_t, 3>& index, uint64_t weight,
                  bool readAll) {
  Corner c{weight, false, {}};
  std::array<int64_t, 3> idx{0, 0, 0};
  for (int d = 0; d < s.dims; ++d) {
    idx[d] = addressIndex(index[d], s.axes[d]);
    c.border |= idx[d] < 0;
  }
  if (!c.border && (weight != 0 || readAll)) {
    c.raw = src.texel(static_cast<int>(idx[0]), static_cast<int>(idx[1]), static_cast<int>(idx[2]), s.slice,
                      s.level);
  }
  return c;
}

// Appends the four corners of one x-y slice weighing `slice` (of 256) at z index `z`.
void addSlice(Footprint& fp, const TexelSource& src, const Site& s, const Tap& x, const Tap& y, int64_t z,
              int64_t slice, bool readAll) {
  const int64_t x1 = divideRounded(slice * x.weight, 256, true), x0 = slice - x1;
  const int64_t w11 = divideRounded(x1 * y.weight, 256, true);
  const int64_t w01 = divideRounded(x0 * y.weight, 256, false);
  const std::array<int64_t, 4> weights{x0 - w01, x1 - w11, w01, w11};
  for (int k = 0; k < 4; ++k) {
    const std::array<int64_t, 3> index{x.base + (k & 1), y.base + (k >> 1), z};
    fp.corners[fp.count++] = readCorner(src, s, index, static_cast<uint64_t>(weights[k]), readAll);
  }
}

// Adds one level's corners: its slices along z for a 3D texture, else one slice.
void addLevel(Footprint& fp, const TexelSource& src, const LinearLevel& l, int64_t weight, bool srgbWeights) {
  const Tap x = linearTap(l.u[0], l.site.axes[0], srgbWeights);
  const Tap y = linearTap(l.u[1], l.site.axes[1], srgbWeights);
  if (l.site.dims < 3) {
    addSlice(fp, src, l.site, x, y, 0, weight, false);
    return;
  }
  const Tap z = linearTap(l.u[2], l.site.axes[2], srgbWeights);
  addSlice(fp, src, l.site, x, y, z.base, weight - z.weight, false);
  addSlice(fp, src, l.site, x, y, z.base + 1, z.weight, false);
}

}  // namespace

double texelCoordinate(float x, const Axis& a) {
  if (!a.normalized) return static_cast<double>(x);
  double q = quantizeNormalized(x);
  if (a.mode == AddressMode::Wrap) {
    q -= std::floor(q);
  } else if (a.mode == AddressMode::Mirror) {
    const double fl = std::floor(q);
    const double fr = q - fl;
    q = (std::fmod(std::fabs(fl), 2.0) == 0.0) ? fr : 1.0 - fr;
  }
  return q * a.size;
}

int64_t addressIndex(int64_t i, const Axis& a) {
  const int64_t n = a.size;
  switch (effectiveMode(a)) {
    case AddressMode::Wrap: return ((i % n) + n) % n;
    case AddressMode::Mirror:
      if (i < 0) i = -1 - i;
      if (i >= n) i = 2 * n - 1 - i;
      return std::clamp<int64_t>(i, 0, n - 1);
    case AddressMode::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
    case AddressMode::Border: return (i < 0 || i >= n) ? -1 : i;
  }
  return -1;
}

Footprint pointFootprint(const TexelSource& src, const Site& site, const std::array<double, 3>& u) {
  Footprint fp;
  std::array<int64_t, 3> index{0, 0, 0};
  for (int d = 0; d < site.dims; ++d) index[d] = static_cast<int64_t>(std::floor(bounded(u[d])));
  fp.corners[0] = readCorner(src, site, index, 1, false);
  fp.count = 1;
  fp.weightShift = 0;
  return fp;
}

Footprint linearFootprint(const TexelSource& src, const LinearLevel& level, bool srgbWeights,
                          const LinearLevel* upper, int mipWeight) {
  Footprint fp;
  const bool blendsLevels = upper != nullptr && mipWeight != 0;
  addLevel(fp, src, level, blendsLevels ? 256 - mipWeight : 256, srgbWeights);
  if (blendsLevels) addLevel(fp, src, *upper, mipWeight, srgbWeights);
  return fp;
}

Footprint gatherFootprint(const TexelSource& src, const LinearLevel& level) {
  // The footprint's texels, not its weights: no clamping of the coordinate, no rounding up to the
  // next texel.
  std::array<Tap, 2> taps;
  for (int d = 0; d < 2; ++d) {
    const double b = bounded(level.u[d]) - 0.5;
    taps[d] = {static_cast<int64_t>(std::floor(b)), 0};
  }
  Footprint fp;
  addSlice(fp, src, level.site, taps[0], taps[1], 0, 256, /*readAll=*/true);
  return fp;
}

}  // namespace ptxsim::sim::texture
