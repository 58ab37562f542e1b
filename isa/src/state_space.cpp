#include "ptxsim/isa/state_space.h"

namespace ptxsim::isa {

std::string_view stateSpaceName(StateSpace space) {
  switch (space) {
    case StateSpace::Generic: return "generic";
    case StateSpace::Reg: return ".reg";
    case StateSpace::Sreg: return ".sreg";
    case StateSpace::Param: return ".param";
    case StateSpace::Local: return ".local";
    case StateSpace::Shared: return ".shared";
    case StateSpace::SharedCluster: return ".shared::cluster";
    case StateSpace::Global: return ".global";
    case StateSpace::Const: return ".const";
    case StateSpace::Tex: return ".tex";
  }
  return "?";
}

}  // namespace ptxsim::isa
