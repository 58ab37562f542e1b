#pragma once

#include "driver_api.h"

namespace ptxsim::driver {

struct ErrorText {
  CUresult code;
  const char* name;         // cuGetErrorName
  const char* description;  // cuGetErrorString
};

// The texts of a CUresult CUDA 13.0 defines; null for any other value.
const ErrorText* errorText(CUresult error);

// The CUDA version cuDriverGetVersion reports.
int driverVersion();

}  // namespace ptxsim::driver
