#pragma once

// From PTX text to the immutable Module IR: parse, lower, validate.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

struct Diagnostic {
  SourceLocation where;
  std::string message;
};

struct CompileOptions {
  size_t maxErrors = 20;  // stop collecting after this many
};

struct CompileResult {
  std::shared_ptr<const Module> module;  // null when there are errors
  std::vector<Diagnostic> errors;        // sorted by position
  bool ok() const { return errors.empty(); }
};

CompileResult compilePtx(std::string_view text, const CompileOptions& options = {});

}  // namespace ptxsim::isa
