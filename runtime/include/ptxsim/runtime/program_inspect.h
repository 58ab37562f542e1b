#pragma once

// What `ptxsim run` needs to know about a program before running it: does
// it use CUDA at all (device code of its own, which a statically linked
// runtime loads through libcuda.so.1, or the runtime or driver library).

#include <string>
#include <vector>

namespace ptxsim::runtime {

struct ProgramInfo {
  bool isElf = false;
  std::vector<std::string> needed;  // DT_NEEDED libraries
  bool hasFatbin = false;           // a .nv_fatbin section: CUDA device code
  bool usesCuda() const;            // device code, or imports the runtime, the driver or a CUDA library
};

// Reads the ELF headers of the file at `path`. Returns false with `error`
// set when it cannot be read; a non-ELF file (a script) gives isElf false.
bool inspectProgram(const std::string& path, ProgramInfo& info, std::string& error);

}  // namespace ptxsim::runtime
