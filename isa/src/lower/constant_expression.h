#pragma once

// Evaluation of PTX constant expressions (array sizes, initializers,
// address offsets). Names evaluate through a resolver, so `arr+8` becomes a
// symbol plus an offset.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "PtxParser.h"
#include "lowering_context.h"

namespace ptxsim::isa::lowering {

struct SymbolRef {
  SymbolScope scope = SymbolScope::Module;
  uint32_t index = kNone;
};

struct ConstantValue {
  int64_t integer = 0;
  bool isFloat = false;
  double real = 0;         // decimal float literals
  uint64_t floatBits = 0;  // hex float literals (0f / 0d)
  DataType floatType = DataType::None;  // F32 / F64 for hex floats, None for decimal
  std::optional<SymbolRef> symbol;      // symbol + integer offset
};

using NameResolver = std::function<std::optional<SymbolRef>(std::string_view)>;

// Integer literal in PTX syntax: decimal, 0x hex, 0b binary, 0 octal, with an
// optional U suffix. nullopt on overflow.
std::optional<uint64_t> parseIntegerLiteral(std::string_view text);

// 0f3F800000 / 0d3FF0000000000000 -> bits and type.
ConstantValue parseHexFloat(std::string_view text);

// Reports errors (undefined names, division by zero, symbol arithmetic) and
// returns nullopt on failure.
std::optional<ConstantValue> evaluate(gen::PtxParser::ExprContext* expr, LoweringContext& context,
                                      const NameResolver& resolve);

}  // namespace ptxsim::isa::lowering
