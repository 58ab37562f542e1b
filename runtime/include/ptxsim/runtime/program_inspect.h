#pragma once

// What `ptxsim run` needs to know about a program before running it: does
// it load the CUDA runtime dynamically (so the shim can stand in), or carry
// a statically linked one that cannot be intercepted.

#include <string>
#include <vector>

namespace ptxsim::runtime {

struct ProgramInfo {
  bool isElf = false;
  std::vector<std::string> needed;  // DT_NEEDED libraries
  bool hasFatbin = false;           // a .nv_fatbin section: CUDA device code
  bool needsCudart() const;         // imports libcudart.so.13 (or .so)
};

// Reads the ELF headers of the file at `path`. Returns false with `error`
// set when it cannot be read; a non-ELF file (a script) gives isElf false.
bool inspectProgram(const std::string& path, ProgramInfo& info, std::string& error);

}  // namespace ptxsim::runtime
