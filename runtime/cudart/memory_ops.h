#pragma once

// The copies and fills behind cudaMemcpy*, cudaMemset* and their graph
// nodes (defined in memory_api.cpp and array_api.cpp). Each expects the
// shim's mutex held and returns the error without recording it.

#include <cuda_runtime_api.h>

namespace ptxsim::cudart {

cudaError_t copyMemory(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t fillMemory(void* devPtr, int value, size_t count);
cudaError_t copyMemory3D(const cudaMemcpy3DParms* params);
// The device address of `count` bytes at `offset` in a registered
// variable; cudaErrorInvalidSymbol or cudaErrorInvalidValue (past its end).
cudaError_t symbolRange(const void* symbol, size_t offset, size_t count, void*& out);

}  // namespace ptxsim::cudart
