#pragma once

// Marks a CUDA Runtime API function the shim implements. The build scans
// the shim's sources for this marker and generates, for every other
// function the real libcudart.so.13 exports (exported_functions.txt), a stub
// that logs "ptxsim: cudaXxx is not supported yet" once and returns
// cudaErrorNotSupported.
#define CUDART_EXPORT extern "C" __attribute__((visibility("default")))
