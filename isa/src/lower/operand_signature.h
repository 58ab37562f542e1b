#pragma once

// The operand signatures of the instruction table, parsed once per row,
// and the checks they imply.

#include <string>
#include <vector>

#include "lowering_context.h"

namespace ptxsim::isa::lowering {

enum class OperandRole : uint8_t {
  Destination,  // d
  Source,       // s
  RegisterSource,  // r
  PredicateDestination,  // p
  PredicateSource,       // q
  Address,      // a
  Label,        // l
  Function,     // f
  Table,        // t
  Any,          // x
};

struct SignatureToken {
  OperandRole role = OperandRole::Any;
  uint8_t slot = 0;                  // type slot for d/s/r
  DataType fixedType = DataType::None;  // U32, B64, ...
  bool vector = false;               // dv / sv
  bool optional = false;
};

struct Signature {
  std::vector<SignatureToken> tokens;
  bool variadic = false;  // trailing "..."
  size_t minOperands = 0;
};

// Parsed once per table row and cached.
const Signature& signatureOf(const InstructionSpec& spec);

// Parses a signature string; returns false (with `error`) for malformed ones.
bool parseSignature(std::string_view text, Signature& out, std::string& error);

}  // namespace ptxsim::isa::lowering
