#include "ptxsim/runtime/compare/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ptxsim::runtime::compare {

std::string demangledName(std::string_view name) {
  if (name.substr(0, 2) != "_Z") return std::string(name);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || demangled == nullptr) return std::string(name);
  return demangled.get();
}

std::string kernelBaseName(std::string_view name) {
  std::string full = demangledName(name);
  // Cut at the parameter list: the first '(' outside template arguments
  // ("f<(2)>(int)" keeps its template's parentheses).
  int angleDepth = 0;
  size_t end = full.size();
  for (size_t i = 0; i < full.size(); ++i) {
    if (full[i] == '<') ++angleDepth;
    else if (full[i] == '>') --angleDepth;
    else if (full[i] == '(' && angleDepth == 0) {
      end = i;
      break;
    }
  }
  std::string_view head(full.data(), end);
  // Drop trailing template arguments, balanced.
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  if (!head.empty() && head.back() == '>') {
    int depth = 0;
    for (size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++depth;
      else if (head[i] == '<' && --depth == 0) {
        head = head.substr(0, i);
        break;
      }
    }
  }
  // Drop the return type ("void f") and the namespaces ("ns::f").
  size_t cut = head.find_last_of(": ");
  if (cut != std::string_view::npos) head = head.substr(cut + 1);
  return std::string(head);
}

}  // namespace ptxsim::runtime::compare
