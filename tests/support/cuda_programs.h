#pragma once

// Test support: the project's CUDA programs (tests/cuda) as PTX modules on
// a simulated device, and the expected outputs recorded on a real GPU.

#include <fstream>
#include <sstream>
#include <string>

#include "ptxsim/runtime/device.h"

namespace ptxsim::test {

// build/cuda_ptx/<relative>.ptx, compiled from tests/cuda/<relative>.cu.
inline std::string cudaPtxPath(const std::string& relative) {
  return std::string(PTXSIM_CUDA_PTX_DIR) + "/" + relative + ".ptx";
}

inline std::shared_ptr<sim::LoadedModule> loadCudaProgram(Device& device, const std::string& relative) {
  return device.loadModuleFile(cudaPtxPath(relative));
}

// The whole text of a file under tests/cuda, or "" if it does not exist.
inline std::string readCudaFile(const std::string& relative) {
  std::ifstream in(std::string(PTXSIM_SOURCE_DIR) + "/tests/cuda/" + relative, std::ios::binary);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace ptxsim::test
