#include "rule_words.h"

namespace ptxsim::isa::strict {

std::string dotted(Mod mod) { return "." + std::string(modifierText(mod)); }
std::string dotted(DataType type) { return std::string(typeName(type)); }

bool isInteger(DataType type) {
  switch (type) {
    case DataType::U8:
    case DataType::U16:
    case DataType::U32:
    case DataType::U64:
    case DataType::S8:
    case DataType::S16:
    case DataType::S32:
    case DataType::S64: return true;
    default: return false;
  }
}

bool isFloat(DataType type) {
  switch (type) {
    case DataType::F16:
    case DataType::F16x2:
    case DataType::BF16:
    case DataType::BF16x2:
    case DataType::TF32:
    case DataType::F32:
    case DataType::F64: return true;
    default: return false;
  }
}

std::string illegalModifier(Mod mod, std::string_view instruction) {
  return "Illegal modifier '" + dotted(mod) + "' for instruction '" + std::string(instruction) + "'";
}
std::string cannotCombine(Mod mod, Mod with) {
  return "Modifier '" + dotted(mod) + "' cannot be combined with modifier '" + dotted(with) + "'";
}
std::string argumentsMismatch(std::string_view instruction) {
  return "Arguments mismatch for instruction '" + std::string(instruction) + "'";
}
std::string unexpectedTypes(std::string_view instruction) {
  return "Unexpected instruction types specified for '" + std::string(instruction) + "'";
}
std::string illegalRounding(std::string_view instruction) {
  return "Illegal rounding modifier for instruction '" + std::string(instruction) + "'";
}
std::string unknownModifier(Mod mod) { return "Unknown modifier '" + dotted(mod) + "'"; }

}  // namespace ptxsim::isa::strict
