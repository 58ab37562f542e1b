#pragma once

// The batch APIs' "index of the first operation each entry applies to"
// arrays (cudaMemcpyBatchAsync's attrsIdxs, cudaMemPrefetchBatchAsync's
// prefetchLocIdxs), checked as cuda_runtime_api.h documents them: 1 to
// `count` entries, the first 0, each greater than the one before, all below
// `count`.

#include <cuda_runtime_api.h>

namespace ptxsim::cudart {

inline cudaError_t checkGroupStarts(const size_t* starts, size_t groups, size_t count) {
  if (starts == nullptr || groups == 0 || groups > count || starts[0] != 0) return cudaErrorInvalidValue;
  for (size_t g = 1; g < groups; ++g) {
    if (starts[g] <= starts[g - 1]) return cudaErrorInvalidValue;
  }
  return starts[groups - 1] < count ? cudaSuccess : cudaErrorInvalidValue;
}

// The entry that applies to operation `i`, given the one that applied to i - 1.
inline size_t groupOf(const size_t* starts, size_t groups, size_t i, size_t previous) {
  while (previous + 1 < groups && starts[previous + 1] <= i) ++previous;
  return previous;
}

}  // namespace ptxsim::cudart
