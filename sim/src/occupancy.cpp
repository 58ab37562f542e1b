#include "ptxsim/sim/occupancy.h"

#include <algorithm>

namespace ptxsim::sim {

int maxActiveBlocksPerSm(const GpuConfig& c, const Gpu::KernelResources& r, int blockSize,
                         uint64_t dynamicSharedBytes) {
  if (blockSize <= 0) return 0;
  int warps = (blockSize + 31) / 32;
  int byThreads = static_cast<int>(c.maxThreadsPerSm) / (warps * 32);
  int byBlocks = static_cast<int>(c.maxBlocksPerSm);
  int regsPerWarp = ((static_cast<int>(r.registersPerThread) * 32 + 255) / 256) * 256;
  int byRegisters = regsPerWarp == 0 ? byBlocks : static_cast<int>(c.registersPerSm) / (regsPerWarp * warps);
  uint64_t shared = r.staticSharedBytes + dynamicSharedBytes + 1024;
  int byShared = static_cast<int>(std::min<uint64_t>(c.sharedBytesPerSm / shared, INT32_MAX));
  return std::max(0, std::min({byThreads, byBlocks, byRegisters, byShared}));
}

}  // namespace ptxsim::sim
