#pragma once

// `ptxsim check`: validates PTX files the way a compiler does.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/isa/lower.h"

namespace ptxsim::runtime {

struct CheckOptions {
  // Also report every instruction the simulator cannot execute (what
  // loading the module for a launch would refuse).
  bool executable = false;
  // Link the PTX files into one module first, as nvlink links -rdc=true
  // code (ptx_linker.h). Programs (ELF files) are always checked with their
  // device code linked.
  bool link = false;
  // The simulated GPU whose PTX a program's fat binaries are checked for
  // (its sm_version): a preset name or file, as `ptxsim run --config`;
  // empty for the default preset.
  std::string config;
  std::string presetDirectory;
};

// Files are PTX, or programs nvcc built (their fat binaries' PTX).
// Prints one summary line per valid file to `out`, and located errors with
// the offending source line and a caret to `err`. Returns the process exit
// status: 0 when every file is valid, 1 otherwise.
int checkFiles(const std::vector<std::string>& paths, std::ostream& out, std::ostream& err,
               const CheckOptions& options = {});

// "FILE:LINE:COL: error: MSG", the source line and a caret under the column.
void printDiagnostic(std::ostream& err, std::string_view path, std::string_view source,
                     const isa::Diagnostic& diagnostic);

}  // namespace ptxsim::runtime
