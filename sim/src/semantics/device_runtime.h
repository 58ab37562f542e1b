#pragma once

// The CUDA device runtime functions a kernel calls by name and the
// simulator provides natively: vprintf, malloc, free, __assertfail, and the
// CDP2 device runtime (__cudaCDP2*, device_launch_runtime.cpp).

#include <string>

#include "semantics.h"

namespace ptxsim::sim::semantics {

// Runs a built-in for `lanes`, reading arguments from and writing results
// to the caller's .param variables named by `binding`.
void runBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes);

// A built-in's argument `index` for `lane`: its first `size` bytes (zero
// beyond the argument), its first 8 bytes, and its result.
void argumentBytes(ExecContext& ctx, const exec::CallBinding& binding, size_t index, unsigned lane, void* out,
                   uint64_t size);
uint64_t argument64(ExecContext& ctx, const exec::CallBinding& binding, size_t index, unsigned lane);
void setResult(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, uint64_t value);

// The built-in an undefined function name stands for; None if the
// simulator does not provide it.
exec::Builtin builtinNamed(const std::string& name);
// Whether the name belongs to CUDA's device runtime (libcudadevrt), whose
// functions only the simulator can provide.
bool isDeviceRuntimeFunction(const std::string& name);

// The CDP2 built-ins (device_launch_runtime.cpp).
void runDeviceLaunchBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes);

}  // namespace ptxsim::sim::semantics
