#pragma once

#include <cstdint>
#include <string_view>

namespace ptxsim::isa {

// PTX state spaces (PTX ISA section 5.1). Generic is the flat address space
// that generic loads and stores and cvta use.
enum class StateSpace : uint8_t {
  Generic, Reg, Sreg, Param, Local, Shared, SharedCluster, Global, Const, Tex,
};

std::string_view stateSpaceName(StateSpace space);

}  // namespace ptxsim::isa
