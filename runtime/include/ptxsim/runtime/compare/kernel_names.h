#pragma once

// Kernel names as the two sides write them: the simulator's statistics the
// mangled name ("_Z9vectorAddPKfS0_Pfi"), Nsight Compute the mangled one,
// the demangled one ("vectorAdd(const float *, const float *, float *,
// int)", spelled differently from the C++ ABI's demangler) or the function
// alone ("vectorAdd").

#include <string>
#include <string_view>

namespace ptxsim::runtime::compare {

// The demangled name of a mangled one; any other name as it is.
std::string demangledName(std::string_view name);

// The function's own name: no return type, parameters, template arguments
// or namespaces ("void ns::scale<float>(float*, int)" -> "scale").
// Demangles first.
std::string kernelBaseName(std::string_view name);

}  // namespace ptxsim::runtime::compare
