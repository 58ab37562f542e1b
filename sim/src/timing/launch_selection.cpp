#include "launch_selection.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ptxsim::sim::timing {

bool kernelNameMatches(std::string_view kernel, std::string_view filter) {
  if (filter.empty() || kernel == filter) return true;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(std::string(kernel).c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || demangled == nullptr) return false;
  std::string_view full = demangled.get();
  return full == filter || full.substr(0, full.find('(')) == filter;
}

bool selectsForTiming(std::string_view kernel, const LaunchFilter& filter, uint64_t& matched) {
  if (!kernelNameMatches(kernel, filter.kernelName)) return false;
  uint64_t ordinal = matched++;
  return ordinal >= filter.skip && ordinal - filter.skip < filter.count;
}

}  // namespace ptxsim::sim::timing
