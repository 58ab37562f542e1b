#include "special_registers.h"

namespace ptxsim::isa::lowering {

std::optional<SpecialRegisterRef> parseSpecialRegister(std::string_view name) {
  std::string_view base = name;
  int component = -1;
  if (size_t dot = name.find('.'); dot != std::string_view::npos) {
    std::string_view suffix = name.substr(dot + 1);
    static constexpr std::string_view kComponents = "xyzw";
    if (suffix.size() != 1 || kComponents.find(suffix[0]) == std::string_view::npos) return std::nullopt;
    component = static_cast<int>(kComponents.find(suffix[0]));
    base = name.substr(0, dot);
  }
  for (unsigned r = 0; r < static_cast<unsigned>(SpecialRegister::Count_); ++r) {
    auto reg = static_cast<SpecialRegister>(r);
    const SpecialRegisterInfo& info = specialRegisterInfo(reg);
    if (info.count > 1) {
      // Indexed families: %envreg0..31, %pm0..7, %pm0_64..%pm7_64.
      if (component >= 0) continue;
      std::string_view prefix = reg == SpecialRegister::Pm64 ? std::string_view("%pm") : info.name;
      if (base.substr(0, prefix.size()) != prefix) continue;
      std::string_view rest = base.substr(prefix.size());
      if (reg == SpecialRegister::Pm64) {
        if (rest.size() != 4 || rest.substr(1) != "_64") continue;
        rest = rest.substr(0, 1);
      }
      if (rest.empty() || rest.size() > 2) continue;
      unsigned n = 0;
      bool digits = true;
      for (char c : rest) {
        digits = digits && c >= '0' && c <= '9';
        n = n * 10 + static_cast<unsigned>(c - '0');
      }
      if (!digits || n >= info.count) continue;
      return SpecialRegisterRef{reg, static_cast<uint8_t>(n)};
    }
    if (base != info.name) continue;
    if (info.hasComponents != (component >= 0) && !(info.hasComponents && component < 0)) return std::nullopt;
    return SpecialRegisterRef{reg, static_cast<uint8_t>(component < 0 ? 0 : component)};
  }
  return std::nullopt;
}

}  // namespace ptxsim::isa::lowering
