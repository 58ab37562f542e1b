#include "ptxsim/isa/data_type.h"

#include <array>

namespace ptxsim::isa {

namespace {

using K = TypeKind;
using T = DataType;

constexpr unsigned kTypeCount = static_cast<unsigned>(T::SurfRef) + 1;

// Indexed by DataType. Sub-byte and 6-bit float formats give their own
// width; the opaque handle types are 64-bit handles.
constexpr std::array<TypeInfo, kTypeCount> kTypes = {{
    {"", K::None, 0},  // None
    {".b8", K::Bits, 8},
    {".b16", K::Bits, 16},
    {".b32", K::Bits, 32},
    {".b64", K::Bits, 64},
    {".b128", K::Bits, 128},
    {".u8", K::Unsigned, 8},
    {".u16", K::Unsigned, 16},
    {".u32", K::Unsigned, 32},
    {".u64", K::Unsigned, 64},
    {".s8", K::Signed, 8},
    {".s16", K::Signed, 16},
    {".s32", K::Signed, 32},
    {".s64", K::Signed, 64},
    {".u16x2", K::Unsigned, 32},
    {".s16x2", K::Signed, 32},
    {".f16", K::Float, 16},
    {".f16x2", K::Float, 32},
    {".bf16", K::Float, 16},
    {".bf16x2", K::Float, 32},
    {".tf32", K::Float, 32},
    {".f32", K::Float, 32},
    {".f64", K::Float, 64},
    {".e4m3", K::Float, 8},
    {".e5m2", K::Float, 8},
    {".e2m3", K::Float, 6},
    {".e3m2", K::Float, 6},
    {".e2m1", K::Float, 4},
    {".ue8m0", K::Float, 8},
    {".ue4m3", K::Float, 8},
    {".e4m3x2", K::Float, 16},
    {".e5m2x2", K::Float, 16},
    {".e2m3x2", K::Float, 16},  // two 6-bit values, each in a byte
    {".e3m2x2", K::Float, 16},
    {".e2m1x2", K::Float, 8},
    {".ue8m0x2", K::Float, 16},
    {".s4", K::Signed, 4},
    {".u4", K::Unsigned, 4},
    {".b1", K::Bits, 1},
    {".pred", K::Predicate, 1},
    {".texref", K::Opaque, 64},
    {".samplerref", K::Opaque, 64},
    {".surfref", K::Opaque, 64},
}};

constexpr bool tableIsInEnumOrder() {
  // Spot checks that the rows line up with the enumerators.
  return kTypes[static_cast<unsigned>(T::B128)].name == ".b128" &&
         kTypes[static_cast<unsigned>(T::S16x2)].name == ".s16x2" &&
         kTypes[static_cast<unsigned>(T::F64)].name == ".f64" &&
         kTypes[static_cast<unsigned>(T::UE8M0x2)].name == ".ue8m0x2" &&
         kTypes[static_cast<unsigned>(T::Pred)].name == ".pred" &&
         kTypes[static_cast<unsigned>(T::SurfRef)].name == ".surfref";
}
static_assert(tableIsInEnumOrder());

bool isIntegerLike(T type) {
  TypeKind kind = typeKind(type);
  return kind == K::Bits || kind == K::Unsigned || kind == K::Signed;
}

// Formats narrower than a register (f8/f6/f4 and their packed pairs) live
// in bit/integer registers of their container size.
bool isNarrowFloat(T type) {
  switch (type) {
    case T::E4M3: case T::E5M2: case T::E2M3: case T::E3M2: case T::E2M1: case T::UE8M0: case T::UE4M3:
    case T::E4M3x2: case T::E5M2x2: case T::E2M3x2: case T::E3M2x2: case T::E2M1x2: case T::UE8M0x2:
      return true;
    default:
      return false;
  }
}

}  // namespace

const TypeInfo& typeInfo(DataType type) {
  auto index = static_cast<unsigned>(type);
  return index < kTypeCount ? kTypes[index] : kTypes[0];
}

std::optional<DataType> parseType(std::string_view dottedName) {
  if (dottedName.size() < 2 || dottedName[0] != '.') return std::nullopt;
  for (unsigned i = 1; i < kTypeCount; ++i) {
    if (kTypes[i].name == dottedName) return static_cast<DataType>(i);
  }
  return std::nullopt;
}

bool registerTypeCompatible(DataType declared, DataType expected, bool allowWider) {
  if (declared == expected) return true;
  if (declared == T::None || expected == T::None) return false;
  TypeKind declaredKind = typeKind(declared);
  TypeKind expectedKind = typeKind(expected);
  // Predicates and opaque handles match only themselves.
  if (declaredKind == K::Predicate || expectedKind == K::Predicate) return false;
  if (declaredKind == K::Opaque || expectedKind == K::Opaque) return false;
  uint32_t declaredBits = typeBits(declared);
  uint32_t expectedBits = typeBits(expected);

  switch (expected) {
    // Half-precision values live in 16-bit registers and pairs of them in
    // 32-bit ones, whatever those were declared as.
    case T::F16:
    case T::BF16:
      return declared == T::B16 || declared == T::U16 || declared == T::S16 || declared == T::F16 ||
             declared == T::BF16;
    case T::F16x2:
    case T::BF16x2:
      return declared == T::B32 || declared == T::U32 || declared == T::S32 || declared == T::F16x2 ||
             declared == T::BF16x2;
    case T::TF32:
      return declared == T::B32 || declared == T::F32;
    default:
      break;
  }
  if (isNarrowFloat(expected)) {
    if (!isIntegerLike(declared)) return false;
    return declaredBits == expectedBits || (allowWider && declaredBits > expectedBits);
  }
  if (expectedKind == K::Float) {
    // f32/f64: a bit-size register of the same width, nothing else.
    return declaredKind == K::Bits && declaredBits == expectedBits;
  }
  if (expectedKind == K::Bits) {
    // A bit type matches a register of any type with its width.
    if (declaredBits == expectedBits) return true;
    return allowWider && isIntegerLike(declared) && declaredBits > expectedBits;
  }
  // Signed or unsigned integer: any bit or integer register of the same
  // width; a wider one where the instruction allows it.
  if (declaredKind == K::Float) return false;
  if (declaredBits == expectedBits) return true;
  return allowWider && declaredBits > expectedBits;
}

}  // namespace ptxsim::isa
