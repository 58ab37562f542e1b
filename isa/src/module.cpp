#include "ptxsim/isa/module.h"

#include <algorithm>

namespace ptxsim::isa {

size_t Module::kernelCount() const {
  return static_cast<size_t>(std::count_if(functions.begin(), functions.end(),
                                           [](const Function& f) { return f.isKernel; }));
}

size_t Module::instructionCount() const {
  size_t total = 0;
  for (const Function& f : functions) total += f.instructions.size();
  return total;
}

std::string Function::registerName(uint32_t reg) const {
  const RegisterInfo& info = registers.at(reg);
  std::string text = registerNames.at(info.name);
  if (info.number != kNone) text += std::to_string(info.number);
  return text;
}

const Function* Module::findFunction(std::string_view name) const {
  auto it = symbolIndex.find(name);
  if (it == symbolIndex.end() || symbols[it->second].kind != SymbolKind::Function) return nullptr;
  return &functions[symbols[it->second].index];
}

}  // namespace ptxsim::isa
