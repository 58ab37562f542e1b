#pragma once

// Test support: the project's CUDA programs (tests/cuda) as PTX modules on
// a simulated device, and the expected outputs recorded on a real GPU.

#include <filesystem>
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

// tests/cuda/<relative> in the source tree.
inline std::string cudaFilePath(const std::string& relative) {
  return std::string(PTXSIM_SOURCE_DIR) + "/tests/cuda/" + relative;
}

// The whole text of a file under tests/cuda, or "" if it does not exist
// (optional files; a GPU recording is checked first with recordingProblem).
inline std::string readCudaFile(const std::string& relative) {
  std::ifstream in(cudaFilePath(relative), std::ios::binary);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Why the GPU recording tests/cuda/<relative> cannot be compared against,
// or "" when it can: it is missing (never recorded) or empty (a recording
// that went wrong). `howToRecord` completes the message. A test fails on
// either rather than skipping, so that a lost recording cannot pass unseen.
inline std::string recordingProblem(const std::string& relative, const std::string& howToRecord) {
  std::string path = cudaFilePath(relative);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return path + " is missing: it has not been recorded on a GPU; " + howToRecord;
  }
  if (std::filesystem::file_size(path, error) == 0 || error) {
    return path + " is empty (or unreadable): the GPU recording went wrong; " + howToRecord;
  }
  return {};
}

}  // namespace ptxsim::test
