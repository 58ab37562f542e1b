// cudaProfilerStart/cudaProfilerStop (cuda_profiler_api.h). Under
// `ptxsim run --profile-from-start off` they bound which launches get a
// --stats record and count in --summary, as Nsight Compute's option of the
// same name bounds what it profiles; otherwise every launch counts. They
// never change what runs.

#include <cuda_profiler_api.h>

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::shimState;

CUDART_EXPORT cudaError_t cudaProfilerStart() {
  std::lock_guard lock(shimState().mutex());
  shimState().setProfilerActive(true);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaProfilerStop() {
  std::lock_guard lock(shimState().mutex());
  shimState().setProfilerActive(false);
  return cudaSuccess;
}
