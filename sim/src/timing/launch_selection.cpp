#include "launch_selection.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace ptxsim::sim::timing {

namespace {

// Null when `kernel` is not a mangled name.
std::unique_ptr<char, void (*)(void*)> demangle(std::string_view kernel) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(std::string(kernel).c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0) demangled.reset();
  return demangled;
}

}  // namespace

std::string demangledName(std::string_view kernel) {
  auto demangled = demangle(kernel);
  return demangled != nullptr ? std::string(demangled.get()) : std::string(kernel);
}

std::string functionName(std::string_view kernel) {
  std::string full = demangledName(kernel);
  return full.substr(0, full.find('('));
}

bool kernelNameMatches(std::string_view kernel, std::string_view filter) {
  if (filter.empty() || kernel == filter) return true;
  auto demangled = demangle(kernel);
  if (demangled == nullptr) return false;
  std::string_view full = demangled.get();
  return full == filter || full.substr(0, full.find('(')) == filter;
}

bool selectsForTiming(std::string_view kernel, const LaunchFilter& filter, uint64_t& matched) {
  if (!kernelNameMatches(kernel, filter.kernelName)) return false;
  uint64_t ordinal = matched++;
  return ordinal >= filter.skip && ordinal - filter.skip < filter.count;
}

}  // namespace ptxsim::sim::timing
