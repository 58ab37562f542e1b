// CUDA's error state and the names and descriptions of error codes.

#include "error_table.h"
#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::shimState;

namespace {

const ptxsim::cudart::ErrorText* find(cudaError_t error) {
  for (const auto& e : ptxsim::cudart::errorTexts()) {
    if (e.code == static_cast<int>(error)) return &e;
  }
  return nullptr;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGetLastError() {
  std::lock_guard lock(shimState().mutex());
  return shimState().takeLastError();
}

CUDART_EXPORT cudaError_t cudaPeekAtLastError() {
  std::lock_guard lock(shimState().mutex());
  return shimState().peekLastError();
}

CUDART_EXPORT const char* cudaGetErrorName(cudaError_t error) {
  const ptxsim::cudart::ErrorText* e = find(error);
  return e != nullptr ? e->name : "unrecognized error code";
}

CUDART_EXPORT const char* cudaGetErrorString(cudaError_t error) {
  const ptxsim::cudart::ErrorText* e = find(error);
  return e != nullptr ? e->text : "unrecognized error code";
}
