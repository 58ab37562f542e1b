#pragma once

// Which launches run on the timing model, chosen as Nsight Compute chooses
// the launches it profiles: those of kernels whose name matches
// (--kernel-name: the mangled name, the demangled one or its function name
// alone), after skipping the first --launch-skip of them, at most
// --launch-count. The others run functionally, with the same results.

#include <cstdint>
#include <string>
#include <string_view>

namespace ptxsim::sim::timing {

struct LaunchFilter {
  std::string kernelName;      // empty: every kernel
  uint64_t skip = 0;
  uint64_t count = UINT64_MAX;
};

// Whether the next launch, of `kernel` (its PTX, mangled name), is one to
// time; `matched` counts the launches whose kernel matched so far.
bool selectsForTiming(std::string_view kernel, const LaunchFilter& filter, uint64_t& matched);

// Whether `filter` (a --kernel-name) names `kernel`.
bool kernelNameMatches(std::string_view kernel, std::string_view filter);

// A kernel's name as c++filt spells it ("vectorAdd(float const*, float
// const*, float*, int)"); the name itself when it is not mangled.
std::string demangledName(std::string_view kernel);
// Its function name alone, the demangled name up to its parameters ("vectorAdd").
std::string functionName(std::string_view kernel);

}  // namespace ptxsim::sim::timing
