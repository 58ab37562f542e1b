#pragma once

// PTX fundamental, packed and opaque types (PTX ISA 9.0, section 5.2).

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxsim::isa {

enum class DataType : uint8_t {
  None,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  U16x2, S16x2,  // two 16-bit integers in a 32-bit register (add/min/max, PTX 8.0)
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  E4M3, E5M2, E2M3, E3M2, E2M1, UE8M0, UE4M3,
  E4M3x2, E5M2x2, E2M3x2, E3M2x2, E2M1x2, UE8M0x2,
  S4, U4, B1,  // sub-byte matrix element types
  Pred,
  TexRef, SamplerRef, SurfRef,
};

enum class TypeKind : uint8_t { None, Bits, Unsigned, Signed, Float, Predicate, Opaque };

struct TypeInfo {
  std::string_view name;  // with the leading dot, e.g. ".f32"
  TypeKind kind;
  uint8_t bits;           // storage size in bits (0 for opaque types)
};

const TypeInfo& typeInfo(DataType type);
inline std::string_view typeName(DataType type) { return typeInfo(type).name; }
inline uint32_t typeBits(DataType type) { return typeInfo(type).bits; }
inline uint32_t typeBytes(DataType type) { return (typeInfo(type).bits + 7) / 8; }
inline TypeKind typeKind(DataType type) { return typeInfo(type).kind; }

// ".f32" -> F32; nullopt for anything that is not a type name.
std::optional<DataType> parseType(std::string_view dottedName);

// A set of types, for the instruction table's legal-type lists.
class TypeSet {
 public:
  constexpr TypeSet() = default;
  constexpr TypeSet(std::initializer_list<DataType> types) {
    for (DataType t : types) bits_ |= bit(t);
  }
  constexpr bool contains(DataType t) const { return (bits_ & bit(t)) != 0; }
  constexpr TypeSet operator|(TypeSet other) const { return TypeSet(bits_ | other.bits_); }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  constexpr explicit TypeSet(uint64_t bits) : bits_(bits) {}
  static constexpr uint64_t bit(DataType t) { return uint64_t{1} << static_cast<unsigned>(t); }
  uint64_t bits_ = 0;
};

// Whether a register declared with `declared` may be used where an
// instruction expects `expected` (PTX ISA "Operand type information"):
// bit types match any type of the same size, signed and unsigned integers
// of the same size match each other, floats match only themselves. When
// `allowWider` is set (ld, st, cvt, mov of sub-word types), an integer or
// bit register may be wider than the instruction type.
bool registerTypeCompatible(DataType declared, DataType expected, bool allowWider);

}  // namespace ptxsim::isa
