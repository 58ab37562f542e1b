// Texture sampling arithmetic; the measured hardware rules are listed in sampling.h.
#include "sampling.h"

#include <algorithm>
#include <climits>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

#include "footprint.h"
#include "lod.h"

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
    const double b =
        std::isnan(desc.border[ch]) ? 0.0 : std::clamp<double>(desc.border[ch], sgn ? -1.0 : 0.0, 1.0);
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

// The site (axes, slice) of one level and the texel-space coordinates.  A 1D texture is placed as
// a 2D texture of height 1 at y = 0 with the y address mode (see footprint.h).
LinearLevel place(const TexelSource& src, const SamplerDesc& desc, const Request& req, int level) {
  LinearLevel p;
  const Extent e = src.extent(level);
  const std::array<int, 3> size{e.width, req.geometry == Geometry::Dim1 ? 1 : e.height, e.depth};
  p.site.dims = req.geometry == Geometry::Dim3 ? 3 : 2;
  p.site.level = level;
  const int layers =
      req.geometry == Geometry::Cube ? std::max(1, src.slices() / 6) : std::max(1, src.slices());
  const int layer = req.layered ? std::clamp(req.layer, 0, layers - 1) : 0;
  std::array<float, 3> c = req.coord;
  if (req.geometry == Geometry::Dim1) c[1] = 0.f;
  bool normalized = desc.normalizedCoords;
  p.site.slice = layer;
  if (req.geometry == Geometry::Cube) {
    const CubeCoord cc = cubeFace(c[0], c[1], c[2]);
    c = {cc.s, cc.t, 0.f};
    normalized = true;
    p.site.slice = cc.face + 6 * layer;
  }
  for (int d = 0; d < 3; ++d) {
    // Cubemaps clamp at face edges; a layered 1D texture is not blended along y (its layer
    // takes the y slot; measured: no blend with a border y mode).
    const bool clamped =
        req.geometry == Geometry::Cube || (d == 1 && req.geometry == Geometry::Dim1 && req.layered);
    const AddressMode m = clamped ? AddressMode::Clamp : desc.address[d];
    p.site.axes[d] = Axis{size[d], m, normalized};
    if (d < p.site.dims) p.u[d] = texelCoordinate(c[d], p.site.axes[d]);
  }
  return p;
}

bool filtersLinearly(const ChannelFormat& fmt, const SamplerDesc& desc) {
  return desc.filter == FilterMode::Linear && returnsFloat(fmt, desc);
}

// A point or linear fetch from `level`; with `upper`, blended with the next level weighing
// mipWeight / 256 in one footprint (trilinear filtering, see footprint.h).
Result fetchLevels(const TexelSource& src, const SamplerDesc& desc, const Request& req, int level,
                   int mipWeight = 0) {
  const ChannelFormat fmt = src.format();
  const bool linear = filtersLinearly(fmt, desc);
  const LinearLevel p = place(src, desc, req, level);
  if (!linear)
    return {finish(withBorderTexels(pointFootprint(src, p.site, p.u), fmt, desc), {}, fmt, desc, false), {}};
  LinearLevel upper;
  if (mipWeight != 0) upper = place(src, desc, req, level + 1);
  const LinearLevel* next = mipWeight != 0 ? &upper : nullptr;
  const Footprint fp = withBorderTexels(linearFootprint(src, p, false, next, mipWeight), fmt, desc);
  const bool srgb = desc.srgb && fmt.kind == ChannelKind::Unsigned && fmt.bits == 8;
  const Footprint srgbFp =
      srgb ? withBorderTexels(linearFootprint(src, p, true, next, mipWeight), fmt, desc) : fp;
  return {finish(fp, srgbFp, fmt, desc, true), std::nullopt};
}

// The level of detail before clamping: explicit, or from the gradients in texels (lod.h).
float rawLod(const TexelSource& src, const Request& req) {
  if (req.lod.kind == Lod::Kind::Level) return req.lod.level;
  if (req.lod.kind == Lod::Kind::Base) return 0.f;
  const Extent e = src.extent(0);
  const std::array<double, 3> size{static_cast<double>(e.width), static_cast<double>(e.height),
                                   static_cast<double>(e.depth)};
  std::array<double, 3> dPdx{0, 0, 0}, dPdy{0, 0, 0};
  const int dims = dimsOf(req.geometry);
  for (int d = 0; d < dims; ++d) {
    dPdx[d] = req.lod.dPdx[d] * size[d];
    dPdy[d] = req.lod.dPdy[d] * size[d];
  }
  const int32_t lod = gradientLodx256(dPdx, dPdy, dims);
  if (lod == kLodMinusInfinity) return -INFINITY;
  return static_cast<float>(lod) / 256.f;
}

// roundSumTiesAway's sum where a double holds it exactly, which is nearly always: a weight below
// 2^10 times a float's 24-bit significand takes at most 34 bits, and up to eight such products
// whose exponents lie within 16 of each other fit in a double's 53.  Otherwise nothing.
std::optional<float> roundSumInDouble(const uint64_t* weights, const float* values, int n, int weightShift) {
  constexpr int kMaxTerms = 8, kMaxSpread = 16;
  if (n > kMaxTerms) return std::nullopt;
  int low = INT_MAX, high = INT_MIN;
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    if (weights[k] == 0 || values[k] == 0.f) continue;
    if (!std::isfinite(values[k]) || weights[k] >= 1024) return std::nullopt;
    int e = 0;
    std::frexp(values[k], &e);
    low = std::min(low, e);
    high = std::max(high, e);
    sum += static_cast<double>(weights[k]) * static_cast<double>(values[k]);
  }
  if (high - low > kMaxSpread) return std::nullopt;
  if (sum == 0) return 0.f;
  const bool negative = sum < 0;
  const auto b = std::bit_cast<uint64_t>(std::ldexp(std::fabs(sum), -weightShift));
  int exponent = static_cast<int>(b >> 52) - 1023;
  const uint64_t significand = (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  uint64_t rounded = (significand >> 29) + ((significand >> 28) & 1);  // 24 bits, ties away from zero
  if (rounded == (uint64_t{1} << 24)) {
    rounded >>= 1;
    ++exponent;
  }
  if (exponent < -126) return negative ? -0.f : 0.f;  // the filter flushes denormal results
  if (exponent > 127) return negative ? -INFINITY : INFINITY;
  const float magnitude = std::ldexp(static_cast<float>(rounded), exponent - 23);
  return negative ? -magnitude : magnitude;
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
  if (const std::optional<float> fast = roundSumInDouble(weights, values, n, weightShift)) return *fast;
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
  if (req.lod.kind == Lod::Kind::Base || levels == 1) return fetchLevels(src, desc, req, 0);
  if (req.lod.kind == Lod::Kind::Gradient && req.geometry == Geometry::Cube) {
    return {{},
            "the level of detail of cubemap gradients (the H100's projection onto the face is not modelled)"};
  }
  float lod = rawLod(src, req) + desc.mipBias;
  lod = std::clamp(lod, desc.minMipClamp, std::max(desc.minMipClamp, desc.maxMipClamp));
  lod = std::clamp(lod, 0.f, static_cast<float>(levels - 1));
  if (desc.mipFilter == FilterMode::Point) {
    const int level = std::min(levels - 1, static_cast<int>(std::floor(lod + 0.5f)));
    return fetchLevels(src, desc, req, level);
  }
  const int l0 = static_cast<int>(std::floor(lod));
  const int f = static_cast<int>(std::floor((lod - static_cast<float>(l0)) * 256.f));  // truncated (measured)
  if (f == 0 || l0 + 1 >= levels) return fetchLevels(src, desc, req, l0);
  const ChannelFormat fmt = src.format();
  if (filtersLinearly(fmt, desc)) {
    if (req.geometry == Geometry::Dim3) {
      return {{}, "trilinear filtering of a mipmapped 3D texture (linear filter and linear mipmap filter)"};
    }
    return fetchLevels(src, desc, req, l0, f);
  }
  Result r0 = fetchLevels(src, desc, req, l0);
  if (!r0.sample.isFloat) return r0;
  const Result r1 = fetchLevels(src, desc, req, l0 + 1);
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
  const Footprint fp = withBorderTexels(gatherFootprint(src, place(src, desc, req, 0)), fmt, desc);
  // The footprint's corners are k = (bit x) | (bit y) << 1: (i,j) (i+1,j) (i,j+1) (i+1,j+1).
  static constexpr std::array<int, 4> kOrder{2, 3, 1, 0};
  Result r;
  r.sample.isFloat = returnsFloat(fmt, desc);
  for (int q = 0; q < 4; ++q) {
    r.sample.bits[q] = pointChannel(fp.corners[kOrder[q]], fmt, desc, component);
  }
  return r;
}

}  // namespace ptxsim::sim::texture
