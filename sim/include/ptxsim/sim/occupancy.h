#pragma once

// How many blocks of a kernel one SM holds at once: what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers, and what bounds a
// cooperative launch (every block of it must be resident together).

#include <cstdint>

#include "ptxsim/sim/gpu.h"

namespace ptxsim::sim {

// Resident blocks per SM, limited by threads (whole warps), block slots,
// registers (256-register allocation units per warp) and shared memory
// (with the 1 KiB the driver reserves per block). A block size the kernel
// does not allow still gets an answer, as from CUDA; 0 for a size <= 0.
int maxActiveBlocksPerSm(const GpuConfig& config, const Gpu::KernelResources& kernel, int blockSize,
                         uint64_t dynamicSharedBytes);

}  // namespace ptxsim::sim
