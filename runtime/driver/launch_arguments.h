#pragma once

#include <vector>

#include "driver_api.h"

namespace ptxsim::driver {

// The argument pointers a launch of `f` passes: `kernelParams` as given,
// or one pointer into the `extra` buffer (CU_LAUNCH_PARAM_BUFFER_POINTER)
// at each parameter's offset, kept in `pointers`. Exactly one of the two
// may be given. Makes runtime calls: run it inside a RuntimeCallScope.
CUresult argumentPointers(CUfunction f, void** kernelParams, void** extra, std::vector<void*>& pointers,
                          void**& args);

}  // namespace ptxsim::driver
