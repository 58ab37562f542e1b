#pragma once

// The simulated GPU's functional parameters: what a launch is checked
// against and what special registers and device queries report. Timing
// parameters join this struct with the timing model.

#include <cstdint>
#include <string>

#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim {

struct GpuConfig {
  std::string name = "NVIDIA H100 80GB HBM3";  // what the simulated device reports as its name
  uint32_t smVersion = 90;           // the PTX target the device runs natively
  uint32_t smCount = 132;
  uint32_t maxThreadsPerSm = 2048;
  uint32_t maxBlocksPerSm = 32;
  uint32_t registersPerSm = 65536;
  uint32_t registersPerBlock = 65536;
  uint64_t sharedBytesPerBlock = 48 * 1024;        // without opting in
  uint64_t sharedBytesPerBlockOptin = 227 * 1024;  // cudaFuncAttributeMaxDynamicSharedMemorySize
  uint64_t sharedBytesPerSm = 228 * 1024;
  uint64_t constantBytes = 64 * 1024;
  uint64_t globalMemoryBytes = uint64_t{81079} << 20;  // what an H100 80GB HBM3 reports
  uint32_t clockRateKhz = 1980000;
  DeviceLimits limits;
  // Per-thread local memory a launch may use, the call stack included
  // (cudaLimitStackSize adds to the kernel's own frame).
  uint64_t stackBytesPerThread = 1024;
  uint64_t mallocHeapBytes = uint64_t{8} << 20;  // cudaLimitMallocHeapSize
  uint64_t printfFifoBytes = 8650752;  // cudaLimitPrintfFifoSize, as CUDA 13 sets it on an H100
  // cudaLimitDevRuntimePendingLaunchCount: device-side launches that may
  // wait to run at once; CUDA's default.
  uint64_t pendingLaunchLimit = 2048;
};

}  // namespace ptxsim::sim
