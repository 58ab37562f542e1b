#pragma once

// Shared by the integer family's files (integer*.cpp): wrapping arithmetic
// in the unsigned type of the same width, the type twice as wide for full
// products, and the frame's carry flag.

#include <cstdint>
#include <limits>
#include <type_traits>

#include "semantics.h"

namespace ptxsim::sim::semantics {

// Signed overflow wraps on the hardware; in C++ it is undefined, so the
// arithmetic is done in the unsigned type of the same width.
template <typename T>
using Unsigned = std::make_unsigned_t<T>;

__extension__ typedef unsigned __int128 Uint128;
__extension__ typedef __int128 Int128;

// The full product of two values, in a type twice as wide.
template <typename T>
struct Wider;
// clang-format off
template <> struct Wider<uint8_t> { using type = uint16_t; };
template <> struct Wider<int8_t> { using type = int16_t; };
template <> struct Wider<uint16_t> { using type = uint32_t; };
template <> struct Wider<int16_t> { using type = int32_t; };
template <> struct Wider<uint32_t> { using type = uint64_t; };
template <> struct Wider<int32_t> { using type = int64_t; };
template <> struct Wider<uint64_t> { using type = Uint128; };
template <> struct Wider<int64_t> { using type = Int128; };
// clang-format on
template <typename T>
using WiderT = typename Wider<T>::type;

// The carry flag (CC.CF) of .cc instructions: per lane 0 or 1 in the
// frame's scratch row 1 (the preparer reserves it).
inline uint64_t* carryRow(ExecContext& ctx) { return ctx.row(ctx.frame->function->registerCount + 1); }

// Clamps a value computed exactly in a wider type to T's range (.sat).
template <typename T, typename W>
T saturate(W value) {
  if (value > static_cast<W>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (value < static_cast<W>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return static_cast<T>(value);
}

// The integer family's other files, registered by registerIntegerSemantics.
void registerIntegerDivideSemantics(SemanticsTable& table);
void registerIntegerBitSemantics(SemanticsTable& table);
void registerPackedIntegerSemantics(SemanticsTable& table);  // .u16x2/.s16x2

}  // namespace ptxsim::sim::semantics
