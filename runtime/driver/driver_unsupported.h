#pragma once

namespace ptxsim::driver {

// Logs, the first time NAME is called, "ptxsim: NAME is not supported by
// ptxsim: WHY" for a function left out by design (`leftOutBecause`), else
// "ptxsim: NAME is not supported yet", and returns CUDA_ERROR_NOT_SUPPORTED
// (as an int: the stubs do not know the real signatures, and every such
// function returns CUresult). The runtime's error state is left alone.
int unsupported(const char* name, const char* leftOutBecause);

}  // namespace ptxsim::driver
