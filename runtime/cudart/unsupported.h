#pragma once

namespace ptxsim::cudart {

// Logs "ptxsim: NAME is not supported yet" the first time NAME is called
// and returns cudaErrorNotSupported (as an int: the stubs do not know the
// real signatures, and every such function returns cudaError_t).
int unsupported(const char* name);

}  // namespace ptxsim::cudart
