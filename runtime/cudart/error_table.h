#pragma once

#include <vector>

namespace ptxsim::cudart {

struct ErrorText {
  int code;
  const char* name;
  const char* text;
};

// Every cudaError_t value CUDA 13.0 knows, with its name and description.
const std::vector<ErrorText>& errorTexts();

}  // namespace ptxsim::cudart
