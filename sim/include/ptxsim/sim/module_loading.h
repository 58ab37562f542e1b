#pragma once

// When a module's kernels are prepared for execution, as CUDA's
// CUDA_MODULE_LOADING chooses when they are loaded onto the GPU.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxsim::sim {

enum class ModuleLoading : uint8_t {
  // CUDA's default since 12.2: a kernel is prepared when it is first used
  // (launched, or its attributes queried). A kernel that uses an
  // instruction the simulator lacks, or calls a function that does, fails
  // then with LaunchErrorKind::InvalidPtx, as a GPU whose JIT rejects the
  // kernel's PTX does; the launch never starts. The module's other kernels
  // run.
  Lazy,
  // Every kernel is prepared when the module loads: one unsupported
  // instruction anywhere fails the whole load.
  Eager,
};

// CUDA_MODULE_LOADING's values, LAZY and EAGER; nullopt for anything else
// (CUDA then keeps its default).
inline std::optional<ModuleLoading> parseModuleLoading(std::string_view text) {
  if (text == "LAZY") return ModuleLoading::Lazy;
  if (text == "EAGER") return ModuleLoading::Eager;
  return std::nullopt;
}

}  // namespace ptxsim::sim
