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

// decodeOpcode with a cache: a module uses a few hundred distinct opcode
// tokens hundreds of thousands of times.
class OpcodeDecoder {
 public:
  const DecodedOpcode* decode(std::string_view token, std::string& error) {
    if (auto it = cache_.find(token); it != cache_.end()) return &it->second;
    auto decoded = decodeOpcode(token, error);
    if (!decoded) return nullptr;
    return &cache_.emplace(std::string(token), *decoded).first->second;
  }

 private:
  StringMap<DecodedOpcode> cache_;
};

}  // namespace ptxsim::isa::lowering
