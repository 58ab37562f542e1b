#pragma once

namespace ptxsim::cudart {

// Logs, the first time NAME is called, "ptxsim: NAME is not supported by
// ptxsim: WHY" for a function left out by design (`leftOutBecause`), else
// "ptxsim: NAME is not supported yet", and returns cudaErrorNotSupported
// (as an int: the stubs do not know the real signatures, and every such
// function returns cudaError_t).
int unsupported(const char* name, const char* leftOutBecause);

// The message alone, once per name (the driver's stubs report the same way).
void reportUnsupportedOnce(const char* name, const char* leftOutBecause);

}  // namespace ptxsim::cudart
