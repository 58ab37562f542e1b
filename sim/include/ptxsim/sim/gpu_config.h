#pragma once

// The simulated GPU's parameters: what a launch is checked against, what
// special registers and device queries report, and the timing model's.

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim {

// What the device reports about itself that the simulation does not use:
// the memory system's figures and the PCI identity, answered by device
// queries (cudaDeviceGetAttribute, cudaGetDeviceProperties). Defaults are
// what the H100 80GB HBM3 answered (tests/cuda/programs/device_attributes).
struct DeviceDescription {
  uint32_t memoryClockRateKhz = 2619000;
  uint32_t memoryBusWidthBits = 5120;
  uint32_t l2CacheBytes = 50u << 20;
  uint32_t persistingL2MaxBytes = 32768000;  // cudaLimitPersistingL2CacheSize's maximum
  uint32_t asyncEngineCount = 3;              // copy engines that overlap with kernels
  uint32_t eccEnabled = 1;
  uint32_t singleToDoublePerfRatio = 2;  // FP32 to FP64 throughput
  // Device memory the driver keeps for the context, which cudaMemGetInfo
  // never reports free.
  uint64_t contextReservedBytes = 589824000;  // measured: tests/gpu_truth/probes
  // The PCI slot (domain:bus:device) of the GPU the preset was recorded
  // on, and the chip's PCI device and subsystem ids (vendor 0x10de in the
  // low 16 bits).
  uint32_t pciDomain = 0;
  uint32_t pciBus = 0;
  uint32_t pciDevice = 6;
  uint32_t pciDeviceId = 0x233010de;
  uint32_t pciSubsystemId = 0x16c110de;
};

struct GpuConfig {
  std::string name = "NVIDIA H100 80GB HBM3";  // what the simulated device reports as its name
  uint32_t smVersion = 90;           // the PTX target the device runs natively
  uint32_t smCount = 132;
  // The SMs of each graphics processing cluster: a thread block cluster's
  // CTAs run in one GPC, on as many SMs. The groups the H100's
  // cudaOccupancyMaxActiveClusters counts in: this layout and
  // clusterBlocksPerSm give all 40 of its answers for clusters of 1 to 16
  // with 1 to 32 blocks an SM (tests/cuda/programs/
  // cluster_occupancy.expected); sim/src/cluster_shape.cpp.
  std::vector<uint32_t> gpcSms{18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2};
  // The most blocks of a cluster launch the H100's occupancy counts on an
  // SM, whatever else would fit (the same recording: 32, 25, 16 and 8
  // blocks an SM all give 8 x 132 clusters of 1).
  uint32_t clusterBlocksPerSm = 8;
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
  DeviceDescription description;
  // cudaLimitDevRuntimePendingLaunchCount: device-side launches that may
  // wait to run at once; CUDA's default.
  uint64_t pendingLaunchLimit = 2048;
  // The timing model's parameters (timing_config.h): preset keys with dots.
  TimingConfig timing;
};

}  // namespace ptxsim::sim
