#pragma once

// Splits an opcode token ("ld.global.nc.v4.f32") into the mnemonic, types
// and modifiers, and picks the instruction-table row that accepts them.

#include <optional>
#include <string>
#include <string_view>

#include "lowering_context.h"

namespace ptxsim::isa::lowering {

struct DecodedOpcode {
  const InstructionSpec* spec = nullptr;
  std::array<DataType, 4> types{};
  uint8_t typeCount = 0;
  ModifierSet modifiers;
  MatrixShape shape;
};

// On failure returns nullopt with `error` set to the message.
std::optional<DecodedOpcode> decodeOpcode(std::string_view token, std::string& error);

}  // namespace ptxsim::isa::lowering
