#pragma once

#include <optional>
#include <string_view>

#include "ptxsim/isa/module.h"

namespace ptxsim::isa::lowering {

struct SpecialRegisterRef {
  SpecialRegister reg;
  uint8_t component;  // x,y,z,w = 0..3, or the instance of %envreg<N> / %pm<N>
};

// "%tid.x" -> {Tid, 0}; "%envreg3" -> {Envreg, 3}; nullopt if not special.
std::optional<SpecialRegisterRef> parseSpecialRegister(std::string_view name);

}  // namespace ptxsim::isa::lowering
