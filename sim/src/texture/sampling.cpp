// Texture sampling arithmetic; the measured hardware rules are listed in sampling.h.
#include "sampling.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace ptxsim::sim::texture {
namespace {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 Uint128;

constexpr std::array<uint32_t, 256> kSrgb = {
#include "srgb_table.inc"
};

float bitsToFloat(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t floatToBits(float f) { return std::bit_cast<uint32_t>(f); }

float halfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const int exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bitsToFloat(sign | 0x7f800000u | (man << 13));
  if (exp == 0) return (sign ? -1.f : 1.f) * std::ldexp(static_cast<float>(man), -24);
  return bitsToFloat(sign | static_cast<uint32_t>(exp - 15 + 127) << 23 | man << 13);
}

// Rounds a float to the nearest half (ties to even) and back: the filter's half-float output.
float roundToHalf(float f) {
  if (!std::isfinite(f) || f == 0.f) return f;
  int e;
  std::frexp(f, &e);                             // |f| in [2^(e-1), 2^e)
  const int quantumExp = std::max(e - 11, -24);  // 11 significant bits, denormals below 2^-14
  const double q = std::ldexp(1.0, quantumExp);
  double r = std::nearbyint(static_cast<double>(f) / q) * q;  // default mode: ties to even
  if (std::fabs(r) > 65504.0) r = std::copysign(INFINITY, r);
  return static_cast<float>(r);
}

int64_t signExtend(uint32_t raw, int bits) {
  if (bits >= 32) return static_cast<int32_t>(raw);
  const uint32_t m = 1u << (bits - 1);
  raw &= (1u << bits) - 1;
  return static_cast<int64_t>(raw ^ m) - static_cast<int64_t>(m);
}

float flushDenormal(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.f, f) : f; }

bool srgbApplies(const ChannelFormat& fmt, bool srgb, int channel) {
  return srgb && fmt.kind == ChannelKind::Unsigned && fmt.bits == 8 && channel < 3;
}

// Addressing of one dimension.
struct Axis {
  int size;
  AddressMode mode;
  bool normalized;
};

// The coordinate in texel units after the coordinate-level part of the address mode.
double texelCoordinate(float x, const Axis& a) {
  if (!a.normalized) return static_cast<double>(x);  // wrap and mirror act as clamp (measured)
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

// The texel index after the index-level part of the address mode, or -1 for the border.
int64_t addressIndex(int64_t i, const Axis& a) {
  const int64_t n = a.size;
  switch (a.normalized ? a.mode
                       : (a.mode == AddressMode::Border ? AddressMode::Border : AddressMode::Clamp)) {
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

// One texel of a footprint with its integer weight (units of 2^-weightShift), or the border.
struct Corner {
  uint64_t weight;
  bool border;
  std::array<uint32_t, 4> raw;
};

struct Footprint {
  std::array<Corner, 8> corners{};
  int count = 0;
  int weightShift = 0;
  int blendedAxes = 0;  // axes whose weight is strictly between 0 and 1
};

struct Site {
  int dims;
  std::array<Axis, 3> axes;
  int slice;
  int level;
};

// Texel coordinates far outside any texture address the same texels as +-2^40 and stay in int64.
double bounded(double u) { return std::isnan(u) ? 0.0 : std::clamp(u, -0x1p40, 0x1p40); }

Footprint pointFootprint(const TexelSource& src, const Site& s, const std::array<double, 3>& u) {
  Footprint fp;
  std::array<int64_t, 3> idx{0, 0, 0};
  bool border = false;
  for (int d = 0; d < s.dims; ++d) {
    idx[d] = addressIndex(static_cast<int64_t>(std::floor(bounded(u[d]))), s.axes[d]);
    border |= idx[d] < 0;
  }
  Corner c{1, border, {}};
  if (!border)
    c.raw = src.texel(static_cast<int>(idx[0]), static_cast<int>(idx[1]), static_cast<int>(idx[2]), s.slice,
                      s.level);
  fp.corners[0] = c;
  fp.count = 1;
  return fp;
}

// srgbWeights: sRGB channels are filtered with weights rounded to multiples of 1/16 (measured: a
// fraction of 0.8 weighs 208/256).
Footprint linearFootprint(const TexelSource& src, const Site& s, const std::array<double, 3>& u,
                          bool readAll = false, bool srgbWeights = false) {
  Footprint fp;
  std::array<int64_t, 3> base{0, 0, 0};
  std::array<int, 3> w{0, 0, 0};
  for (int d = 0; d < s.dims; ++d) {
    const double b = bounded(u[d]) - 0.5;
    const double fl = std::floor(b);
    base[d] = static_cast<int64_t>(fl);
    w[d] = linearWeight256(b - fl);
    if (srgbWeights) w[d] = (w[d] + 8) / 16 * 16;
    fp.blendedAxes += (w[d] != 0 && w[d] != 256) ? 1 : 0;
  }
  // 2D corners weigh in units of 1/256 too: the (i+1, j+1) weight is wx * wy / 256 rounded half up and
  // the others follow from it (measured on an H100 with float and 8-bit normalized textures, e.g.
  // weights 26 and 77 blend 23, 24.25, 32.5, 34.5 into 26.0078125 where the exact product gives
  // 26.007286).
  const bool quantized2d = s.dims == 2;
  const uint64_t w11 = (static_cast<uint64_t>(w[0]) * static_cast<uint64_t>(w[1]) + 128) >> 8;
  const std::array<uint64_t, 4> corner2d{256 - w[0] - w[1] + w11, w[0] - w11, w[1] - w11, w11};
  fp.weightShift = quantized2d ? 8 : 8 * s.dims;
  for (int k = 0; k < (1 << s.dims); ++k) {
    uint64_t weight = quantized2d ? corner2d[k] : 1;
    std::array<int64_t, 3> idx{0, 0, 0};
    bool border = false;
    for (int d = 0; d < s.dims; ++d) {
      const int bit = (k >> d) & 1;
      if (!quantized2d) weight *= static_cast<uint64_t>(bit ? w[d] : 256 - w[d]);
      idx[d] = addressIndex(base[d] + bit, s.axes[d]);
      border |= idx[d] < 0;
    }
    Corner c{weight, border, {}};
    if (!border && (weight != 0 || readAll))
      c.raw = src.texel(static_cast<int>(idx[0]), static_cast<int>(idx[1]), static_cast<int>(idx[2]), s.slice,
                        s.level);
    fp.corners[fp.count++] = c;
  }
  return fp;
}

// One channel of a filtered footprint as a float (normalized-float or float formats).
float filterChannel(const Footprint& fp, const ChannelFormat& fmt, const SamplerDesc& desc, int ch) {
  const bool intNorm = fmt.kind != ChannelKind::Float && desc.read == ReadMode::NormalizedFloat;
  bool anyBorder = false;
  for (int k = 0; k < fp.count; ++k) anyBorder |= fp.corners[k].border && fp.corners[k].weight != 0;
  if (intNorm && !anyBorder) {
    // Filtered in the integer domain of a 16-bit normalized value, rounded half-up (measured).
    const bool srgb = srgbApplies(fmt, desc.srgb, ch);
    const bool sgn = fmt.kind == ChannelKind::Signed;
    const Int128 vmax = srgb ? 65536 : (sgn ? (1 << (fmt.bits - 1)) - 1 : (int64_t{1} << fmt.bits) - 1);
    const Int128 omax = srgb ? 65536 : (sgn ? 32767 : 65535);
    Int128 sum = 0;
    for (int k = 0; k < fp.count; ++k) {
      const auto& c = fp.corners[k];
      if (c.weight == 0) continue;
      // The sRGB table holds multiples of 2^-16, so its integer domain is the table value * 2^16.
      const int64_t v = srgb  ? static_cast<int64_t>(std::ldexp(bitsToFloat(kSrgb[c.raw[ch] & 0xff]), 16))
                        : sgn ? signExtend(c.raw[ch], fmt.bits)
                              : static_cast<int64_t>(c.raw[ch] & ((uint64_t{1} << fmt.bits) - 1));
      sum += static_cast<Int128>(c.weight) * v;
    }
    // X = floor(sum * omax / (vmax * 2^shift) + 1/2)
    const Int128 num = sum * omax * 2 + (vmax << fp.weightShift);
    const Int128 den = (vmax << fp.weightShift) * 2;
    Int128 q = num / den;
    if ((num % den != 0) && ((num < 0) != (den < 0))) --q;  // floor for negative sums
    float r = static_cast<float>(static_cast<int64_t>(q)) / static_cast<float>(static_cast<int64_t>(omax));
    return std::max(r, -1.f);
  }
  std::array<uint64_t, 8> weights{};
  std::array<float, 8> values{};
  int n = 0;
  for (int k = 0; k < fp.count; ++k) {
    const auto& c = fp.corners[k];
    if (c.weight == 0) continue;
    weights[n] = c.weight;
    values[n] =
        flushDenormal(c.border ? desc.border[ch] : convertChannel(c.raw[ch], fmt, desc.read, desc.srgb, ch));
    ++n;
  }
  const float r = roundSumTiesAway(weights.data(), values.data(), n, fp.weightShift);
  return (fmt.kind == ChannelKind::Float && fmt.bits == 16) ? roundToHalf(r) : r;
}

bool returnsFloat(const ChannelFormat& fmt, const SamplerDesc& desc) {
  return fmt.kind == ChannelKind::Float || desc.read == ReadMode::NormalizedFloat;
}

// Converts a point-sampled (or gathered) texel or the border to the returned lane bits.
uint32_t pointChannel(const Corner& c, const ChannelFormat& fmt, const SamplerDesc& desc, int ch) {
  // Channels the format lacks read as 0, alpha included (measured on an H100: a short2 texture read as
  // normalized floats returns (x, y, 0, 0), point and linear).
  if (ch >= fmt.channels) return 0u;
  if (returnsFloat(fmt, desc)) {
    if (c.border) return floatToBits(desc.border[ch]);
    if (fmt.kind == ChannelKind::Float && fmt.bits == 32) return c.raw[ch];
    return floatToBits(convertChannel(c.raw[ch], fmt, desc.read, desc.srgb, ch));
  }
  if (c.border) return static_cast<uint32_t>(static_cast<int64_t>(desc.border[ch]));
  return fmt.kind == ChannelKind::Signed ? static_cast<uint32_t>(signExtend(c.raw[ch], fmt.bits)) : c.raw[ch];
}

Sample finish(const Footprint& fp, const Footprint& srgbFp, const ChannelFormat& fmt, const SamplerDesc& desc,
              bool linear) {
  Sample s;
  s.isFloat = returnsFloat(fmt, desc);
  for (int ch = 0; ch < 4; ++ch) {
    const bool srgb = srgbApplies(fmt, desc.srgb, ch) && desc.read == ReadMode::NormalizedFloat;
    if (linear && s.isFloat && ch < fmt.channels)
      s.bits[ch] = floatToBits(filterChannel(srgb ? srgbFp : fp, fmt, desc, ch));
    else
      s.bits[ch] = pointChannel(fp.corners[0], fmt, desc, ch);
  }
  return s;
}

// Normalized-float reads of integer formats see the border colour converted to the format first:
// clamped to the format's range and rounded to its nearest value (measured on an H100: a border of
// -0.5, 0.25, 0.75 on uchar4 reads back as 0, 64/255, 191/255), so border corners become texels.
Footprint withBorderTexels(Footprint fp, const ChannelFormat& fmt, const SamplerDesc& desc) {
  if (fmt.kind == ChannelKind::Float || desc.read != ReadMode::NormalizedFloat || fmt.bits >= 32) return fp;
  const bool sgn = fmt.kind == ChannelKind::Signed;
  const double vmax = sgn ? (1 << (fmt.bits - 1)) - 1 : (1 << fmt.bits) - 1;
  std::array<uint32_t, 4> raw{};
  for (int ch = 0; ch < 4; ++ch) {
    const double b = std::isnan(desc.border[ch]) ? 0.0 : std::clamp<double>(desc.border[ch], sgn ? -1.0 : 0.0, 1.0);
    const auto v = static_cast<int64_t>(std::nearbyint(b * vmax));
    raw[ch] = static_cast<uint32_t>(v) & ((1u << fmt.bits) - 1);
  }
  for (int k = 0; k < fp.count; ++k) {
    if (!fp.corners[k].border) continue;
    fp.corners[k].border = false;
    fp.corners[k].raw = raw;
  }
  return fp;
}

struct CubeCoord {
  int face;
  float s, t;
};

// The programming guide's cubemap table; ties go to z, then y (measured).
CubeCoord cubeFace(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  auto div = [](float a, float m) { return m == 0.f ? 0.f : a / m; };
  if (az >= ax && az >= ay) {
    if (!std::signbit(z)) return {4, (div(x, az) + 1.f) / 2.f, (div(-y, az) + 1.f) / 2.f};
    return {5, (div(-x, az) + 1.f) / 2.f, (div(-y, az) + 1.f) / 2.f};
  }
  if (ay >= ax) {
    if (!std::signbit(y)) return {2, (div(x, ay) + 1.f) / 2.f, (div(z, ay) + 1.f) / 2.f};
    return {3, (div(x, ay) + 1.f) / 2.f, (div(-z, ay) + 1.f) / 2.f};
  }
  if (!std::signbit(x)) return {0, (div(-z, ax) + 1.f) / 2.f, (div(-y, ax) + 1.f) / 2.f};
  return {1, (div(z, ax) + 1.f) / 2.f, (div(-y, ax) + 1.f) / 2.f};
}

int dimsOf(Geometry g) { return g == Geometry::Dim1 ? 1 : (g == Geometry::Dim3 ? 3 : 2); }

// The site (axes, slice) of one level, and the texel-space coordinates.
struct Placed {
  Site site;
  std::array<double, 3> u{0, 0, 0};
};

Placed place(const TexelSource& src, const SamplerDesc& desc, const Request& req, int level) {
  Placed p;
  const Extent e = src.extent(level);
  const std::array<int, 3> size{e.width, e.height, e.depth};
  p.site.dims = dimsOf(req.geometry);
  p.site.level = level;
  const int layers =
      req.geometry == Geometry::Cube ? std::max(1, src.slices() / 6) : std::max(1, src.slices());
  const int layer = req.layered ? std::clamp(req.layer, 0, layers - 1) : 0;
  std::array<float, 3> c = req.coord;
  bool normalized = desc.normalizedCoords;
  p.site.slice = layer;
  if (req.geometry == Geometry::Cube) {
    const CubeCoord cc = cubeFace(c[0], c[1], c[2]);
    c = {cc.s, cc.t, 0.f};
    normalized = true;
    p.site.slice = cc.face + 6 * layer;
  }
  for (int d = 0; d < 3; ++d) {
    const AddressMode m = req.geometry == Geometry::Cube ? AddressMode::Clamp : desc.address[d];
    p.site.axes[d] = Axis{size[d], m, normalized};
    if (d < p.site.dims) p.u[d] = texelCoordinate(c[d], p.site.axes[d]);
  }
  return p;
}

Result sampleLevel(const TexelSource& src, const SamplerDesc& desc, const Request& req, int level) {
  const ChannelFormat fmt = src.format();
  const bool linear = desc.filter == FilterMode::Linear && returnsFloat(fmt, desc);
  if (linear && req.geometry == Geometry::Cube)
    return {{}, "linear filtering of cubemaps: the H100's weights across and within faces are not modelled"};
  if (linear && req.geometry == Geometry::Dim1 && desc.address[0] == AddressMode::Border)
    return {{},
            "linear filtering of a 1D texture with border addressing: the H100 blends the border as a "
            "height-1 2D texture in a way not modelled"};
  const Placed p = place(src, desc, req, level);
  const Footprint fp = withBorderTexels(
      linear ? linearFootprint(src, p.site, p.u) : pointFootprint(src, p.site, p.u), fmt, desc);
  if (linear && req.geometry == Geometry::Dim3 && fp.blendedAxes >= 2)
    return {{},
            "linear filtering of a 3D texture blending along two or more axes: the H100 quantizes the corner "
            "weights in a way not modelled"};
  const bool srgb = linear && desc.srgb && fmt.kind == ChannelKind::Unsigned && fmt.bits == 8;
  const Footprint srgbFp =
      srgb ? withBorderTexels(linearFootprint(src, p.site, p.u, false, true), fmt, desc) : fp;
  return {finish(fp, srgbFp, fmt, desc, linear), std::nullopt};
}

// The level of detail before clamping: explicit, or log2 of the larger gradient in texels.
float rawLod(const TexelSource& src, const Request& req) {
  if (req.lod.kind == Lod::Kind::Level) return req.lod.level;
  if (req.lod.kind == Lod::Kind::Base) return 0.f;
  const Extent e = src.extent(0);
  const std::array<double, 3> size{static_cast<double>(e.width), static_cast<double>(e.height),
                                   static_cast<double>(e.depth)};
  const int dims = dimsOf(req.geometry);
  double lx = 0, ly = 0;
  for (int d = 0; d < dims; ++d) {
    lx += std::pow(req.lod.dPdx[d] * size[d], 2);
    ly += std::pow(req.lod.dPdy[d] * size[d], 2);
  }
  const double rho = std::sqrt(std::max(lx, ly));
  return rho == 0 ? -INFINITY : static_cast<float>(std::log2(rho));
}

}  // namespace

uint32_t srgbTableBits(uint8_t v) { return kSrgb[v]; }

int linearWeight256(double fraction) { return static_cast<int>(std::floor(fraction * 256.0 + 0.5)); }

double quantizeNormalized(float x) {
  constexpr double kScale = 4194304.0;  // 2^22
  const double d = static_cast<double>(x);
  if (!std::isfinite(d) || std::fabs(d) >= 0x1p52 / kScale) return d;
  return std::floor(d * kScale) / kScale;
}

float convertChannel(uint32_t raw, const ChannelFormat& fmt, ReadMode mode, bool srgb, int channel) {
  if (fmt.kind == ChannelKind::Float)
    return fmt.bits == 16 ? halfToFloat(static_cast<uint16_t>(raw)) : bitsToFloat(raw);
  if (srgbApplies(fmt, srgb, channel) && mode == ReadMode::NormalizedFloat)
    return bitsToFloat(kSrgb[raw & 0xff]);
  if (fmt.kind == ChannelKind::Signed) {
    const int64_t v = signExtend(raw, fmt.bits);
    if (mode == ReadMode::ElementType || fmt.bits == 32) return static_cast<float>(v);
    const float r = static_cast<float>(v) / static_cast<float>((int64_t{1} << (fmt.bits - 1)) - 1);
    return std::max(r, -1.f);
  }
  const uint64_t v = fmt.bits >= 32 ? raw : (raw & ((uint64_t{1} << fmt.bits) - 1));
  if (mode == ReadMode::ElementType || fmt.bits == 32) return static_cast<float>(v);
  return static_cast<float>(v) / static_cast<float>((uint64_t{1} << fmt.bits) - 1);
}

// Exact sum of weights[k] * 2^-weightShift * values[k], rounded to float to nearest with ties away from
// zero.  A fixed-point accumulator (LSB 2^-256) holds every product exactly.
float roundSumTiesAway(const uint64_t* weights, const float* values, int n, int weightShift) {
  bool posInf = false, negInf = false, nan = false;
  constexpr int kLimbs = 8;  // 512 bits, two's complement, bit 0 = 2^-256
  std::array<uint64_t, kLimbs> acc{};
  auto add = [&](Uint128 mag, int pos, bool neg) {
    // mag * 2^(pos - 256), pos >= 0
    std::array<uint64_t, kLimbs> t{};
    const int limb = pos / 64, sh = pos % 64;
    const uint64_t m0 = static_cast<uint64_t>(mag), m1 = static_cast<uint64_t>(mag >> 64);
    std::array<uint64_t, 3> parts{sh ? m0 << sh : m0, sh ? (m1 << sh) | (m0 >> (64 - sh)) : m1,
                                  sh ? m1 >> (64 - sh) : 0};
    for (int i = 0; i < 3 && limb + i < kLimbs; ++i) t[limb + i] = parts[i];
    if (neg) {  // two's complement negate
      unsigned carry = 1;
      for (auto& w : t) {
        const uint64_t nw = ~w + carry;
        carry = (carry && nw == 0) ? 1 : 0;
        w = nw;
      }
    }
    Uint128 c = 0;
    for (int i = 0; i < kLimbs; ++i) {
      c += static_cast<Uint128>(acc[i]) + t[i];
      acc[i] = static_cast<uint64_t>(c);
      c >>= 64;
    }
  };
  for (int k = 0; k < n; ++k) {
    const float v = values[k];
    if (weights[k] == 0) continue;
    if (std::isnan(v)) nan = true;
    if (std::isinf(v)) (v > 0 ? posInf : negInf) = true;
    if (!std::isfinite(v) || v == 0.f) continue;
    int e;
    const float m = std::frexp(v, &e);  // v = m * 2^e, |m| in [0.5, 1)
    const auto man = static_cast<uint64_t>(std::ldexp(std::fabs(m), 24));
    // term = weights * man * 2^(e - 24 - weightShift)
    add(static_cast<Uint128>(weights[k]) * man, e - 24 - weightShift + 256, m < 0);
  }
  if (nan || (posInf && negInf)) return NAN;
  if (posInf) return INFINITY;
  if (negInf) return -INFINITY;
  const bool neg = (acc[kLimbs - 1] >> 63) != 0;
  if (neg) {
    unsigned carry = 1;
    for (auto& w : acc) {
      const uint64_t nw = ~w + carry;
      carry = (carry && nw == 0) ? 1 : 0;
      w = nw;
    }
  }
  int top = -1;
  for (int i = kLimbs - 1; i >= 0 && top < 0; --i)
    if (acc[i]) top = i * 64 + 63 - std::countl_zero(acc[i]);
  if (top < 0) return 0.f;
  auto bit = [&](int b) { return b >= 0 && ((acc[b / 64] >> (b % 64)) & 1u); };
  // 24 significant bits from `top` down; ties (and above) round away from zero.
  uint64_t mant = 0;
  for (int b = top; b > top - 24; --b) mant = (mant << 1) | (bit(b) ? 1u : 0u);
  if (bit(top - 24)) ++mant;
  const int exp = top - 23 - 256;
  const double r = std::ldexp(static_cast<double>(mant), exp);
  float f = static_cast<float>(r);                  // exact unless out of range
  if (std::fpclassify(f) == FP_SUBNORMAL) f = 0.f;  // the filter flushes to zero
  return neg ? -f : f;
}

Result sample(const TexelSource& src, const SamplerDesc& desc, const Request& req) {
  const int levels = std::max(1, src.levels());
  if (req.lod.kind == Lod::Kind::Base || levels == 1) return sampleLevel(src, desc, req, 0);
  float lod = rawLod(src, req) + desc.mipBias;
  lod = std::clamp(lod, desc.minMipClamp, std::max(desc.minMipClamp, desc.maxMipClamp));
  lod = std::clamp(lod, 0.f, static_cast<float>(levels - 1));
  if (desc.mipFilter == FilterMode::Point) {
    const int level = std::min(levels - 1, static_cast<int>(std::floor(lod + 0.5f)));
    return sampleLevel(src, desc, req, level);
  }
  const int l0 = static_cast<int>(std::floor(lod));
  const int f = static_cast<int>(std::floor((lod - static_cast<float>(l0)) * 256.f));  // truncated (measured)
  Result r0 = sampleLevel(src, desc, req, l0);
  if (r0.unsupported || f == 0 || l0 + 1 >= levels || !r0.sample.isFloat) return r0;
  if (desc.filter == FilterMode::Linear)
    return {{},
            "trilinear filtering (linear filter and linear mipmap filter): the H100's combined weights are "
            "not modelled"};
  const Result r1 = sampleLevel(src, desc, req, l0 + 1);
  if (r1.unsupported) return r1;
  Result out = r0;
  for (int ch = 0; ch < 4; ++ch) {
    const std::array<uint64_t, 2> w{static_cast<uint64_t>(256 - f), static_cast<uint64_t>(f)};
    const std::array<float, 2> v{bitsToFloat(r0.sample.bits[ch]), bitsToFloat(r1.sample.bits[ch])};
    out.sample.bits[ch] = floatToBits(roundSumTiesAway(w.data(), v.data(), 2, 8));
  }
  return out;
}

Result gather(const TexelSource& src, const SamplerDesc& desc, const Request& req, int component) {
  const ChannelFormat fmt = src.format();
  if (req.geometry != Geometry::Dim2) return {{}, "tld4 gathers from 2D (and layered 2D) textures only"};
  const Placed p = place(src, desc, req, 0);
  const Footprint fp = withBorderTexels(linearFootprint(src, p.site, p.u, /*readAll=*/true), fmt, desc);
  // linearFootprint orders corners k = (bit x) | (bit y) << 1: (i,j) (i+1,j) (i,j+1) (i+1,j+1).
  static constexpr std::array<int, 4> kOrder{2, 3, 1, 0};
  Result r;
  r.sample.isFloat = returnsFloat(fmt, desc);
  for (int q = 0; q < 4; ++q) {
    r.sample.bits[q] = pointChannel(fp.corners[kOrder[q]], fmt, desc, component);
  }
  return r;
}

}  // namespace ptxsim::sim::texture
