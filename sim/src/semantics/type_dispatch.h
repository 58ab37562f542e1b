#pragma once

// From a PTX type to the C++ type its lane function is instantiated for.
// Each dispatcher calls f.template operator()<T>() and returns true, or
// returns false for a type outside its set. f16 and bf16 values travel as
// their raw uint16_t bits (half_float.h does their arithmetic).

#include <cstdint>

#include "ptxsim/isa/data_type.h"

namespace ptxsim::sim::semantics {

template <typename F>
bool dispatchInteger(isa::DataType type, F&& f) {
  using isa::DataType;
  switch (type) {
    case DataType::B8:
    case DataType::U8: f.template operator()<uint8_t>(); return true;
    case DataType::S8: f.template operator()<int8_t>(); return true;
    case DataType::B16:
    case DataType::U16: f.template operator()<uint16_t>(); return true;
    case DataType::S16: f.template operator()<int16_t>(); return true;
    case DataType::B32:
    case DataType::U32: f.template operator()<uint32_t>(); return true;
    case DataType::S32: f.template operator()<int32_t>(); return true;
    case DataType::B64:
    case DataType::U64: f.template operator()<uint64_t>(); return true;
    case DataType::S64: f.template operator()<int64_t>(); return true;
    default: return false;
  }
}

// 16-, 32- and 64-bit integers: most integer arithmetic has no 8-bit form.
template <typename F>
bool dispatchInteger16to64(isa::DataType type, F&& f) {
  if (isa::typeBits(type) == 8) return false;
  return dispatchInteger(type, f);
}

template <typename F>
bool dispatchFloat(isa::DataType type, F&& f) {
  switch (type) {
    case isa::DataType::F32: f.template operator()<float>(); return true;
    case isa::DataType::F64: f.template operator()<double>(); return true;
    default: return false;
  }
}

// Any type by its bits alone (mov, ld, st, selp of bit patterns).
template <typename F>
bool dispatchBits(isa::DataType type, F&& f) {
  switch (isa::typeBits(type)) {
    case 1:
    case 8: f.template operator()<uint8_t>(); return true;
    case 16: f.template operator()<uint16_t>(); return true;
    case 32: f.template operator()<uint32_t>(); return true;
    case 64: f.template operator()<uint64_t>(); return true;
    default: return false;
  }
}

}  // namespace ptxsim::sim::semantics
