#include "mma_elements.h"

#include <bit>
#include <cmath>
#include <limits>

#include "half_value.h"
#include "small_float.h"

namespace ptxsim::sim::semantics::mma {

namespace {

double fp8Value(uint64_t bits, const sf::Format& format) {
  sf::Unpacked u = sf::decode(bits, format);
  switch (u.cls) {
    case sf::Class::NaN: return std::numeric_limits<double>::quiet_NaN();
    case sf::Class::Inf: return u.negative ? -INFINITY : INFINITY;
    case sf::Class::Zero: return u.negative ? -0.0 : 0.0;
    case sf::Class::Finite: break;
  }
  double magnitude = std::ldexp(static_cast<double>(u.sig >> 60), u.exp - 3);  // at most 4 significant bits
  return u.negative ? -magnitude : magnitude;
}

}  // namespace

unsigned bitsOf(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::S8:
    case Elem::U8:
    case Elem::E4M3:
    case Elem::E5M2: return 8;
    case Elem::B1: return 1;
    case Elem::S4:
    case Elem::U4: return 4;
    case Elem::F64: return 64;
    default: return 32;
  }
}

int minNormalExponent(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::E5M2: return -14;
    case Elem::E4M3: return -6;
    case Elem::F64: return -1022;
    default: return -126;
  }
}

double valueOf(uint64_t bits, Elem e) {
  switch (e) {
    case Elem::F16: return half::toDouble(bits, half::Mode{});
    case Elem::BF16: return half::toDouble(bits, half::Mode{.bf16 = true});
    case Elem::TF32: return std::bit_cast<float>(static_cast<uint32_t>(bits) & ~uint32_t{0x1fff});
    case Elem::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case Elem::F64: return std::bit_cast<double>(bits);
    case Elem::S8: return static_cast<int8_t>(bits);
    case Elem::U8: return static_cast<uint8_t>(bits);
    case Elem::S32: return static_cast<int32_t>(bits);
    case Elem::E4M3: return fp8Value(bits, sf::kE4M3);
    case Elem::E5M2: return fp8Value(bits, sf::kE5M2);
    case Elem::B1: return static_cast<double>(bits & 1);
    case Elem::S4: return static_cast<double>(static_cast<int8_t>(static_cast<uint8_t>(bits << 4)) >> 4);
    case Elem::U4: return static_cast<double>(bits & 0xf);
  }
  return 0;
}

bool elemOf(isa::DataType type, Elem& e) {
  using isa::DataType;
  switch (type) {
    case DataType::F16: e = Elem::F16; return true;
    case DataType::BF16: e = Elem::BF16; return true;
    case DataType::TF32: e = Elem::TF32; return true;
    case DataType::F32: e = Elem::F32; return true;
    case DataType::F64: e = Elem::F64; return true;
    case DataType::S8: e = Elem::S8; return true;
    case DataType::U8: e = Elem::U8; return true;
    case DataType::S32: e = Elem::S32; return true;
    case DataType::E4M3: e = Elem::E4M3; return true;
    case DataType::E5M2: e = Elem::E5M2; return true;
    case DataType::B1: e = Elem::B1; return true;
    case DataType::S4: e = Elem::S4; return true;
    case DataType::U4: e = Elem::U4; return true;
    default: return false;
  }
}

}  // namespace ptxsim::sim::semantics::mma
