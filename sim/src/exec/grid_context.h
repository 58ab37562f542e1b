#pragma once

// Launch-wide state every CTA of a grid shares: the kernel, its parameter
// buffer, device memory, the device heap, and the launch's first error.

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "driver_clock.h"
#include "launch_turns.h"
#include "livelock_vote.h"
#include "memcheck_reports.h"
#include "prepared.h"
#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/memory/page_store.h"
#include "ptxsim/sim/cluster_shape.h"
#include "ptxsim/sim/gpu_config.h"
#include "ptxsim/sim/launch.h"

namespace ptxsim::sim {
class DeviceHeap;
class TextureRegistry;
namespace checks {
class TextureCoherenceChecker;
}
}  // namespace ptxsim::sim

namespace ptxsim::sim::exec {

// A module's functions prepared for one kernel (shared-memory layout
// differs between kernels), plus the kernel's static resources.
struct PreparedKernel {
  const isa::Module* module = nullptr;
  uint32_t kernelIndex = 0;
  std::vector<std::unique_ptr<PreparedFunction>> functions;  // by Module::functions index; null if undefined
  uint64_t staticSharedBytes = 0;
  uint64_t dynamicSharedOffset = 0;  // where `extern .shared` arrays start
  uint64_t kernelLocalBytes = 0;     // the kernel frame's .local bytes per thread
  uint32_t registersPerThread = 0;

  const PreparedFunction& kernel() const { return *functions[kernelIndex]; }
};

struct GridContext {
  GridContext(const GpuConfig& c, memory::PageStore& s, const memory::AllocationTable& a, const PreparedKernel& k,
              const LaunchConfig& l, const LaunchOptions& o, DeviceHeap& h)
      : config(c), store(s), allocations(a), kernel(k), launch(l), options(o), heap(h) {}

  const GpuConfig& config;
  memory::PageStore& store;
  const memory::AllocationTable& allocations;
  const PreparedKernel& kernel;
  const LaunchConfig& launch;
  const LaunchOptions& options;
  DeviceHeap& heap;
  // Arrays, texture and surface objects: texture/surface handlers resolve
  // the handles they read from registers here (never null during a launch).
  const TextureRegistry* textures = nullptr;
  // --check=warp-sync's texture coherence check; null when not checking.
  // Texture reads report to it (semantics/texture_access.h).
  checks::TextureCoherenceChecker* textureCoherence = nullptr;
  uint64_t localBytesPerThread = 0;
  // The kernel's module's constant bank (LoadedModule::constantBankBase_):
  // what cvta.const adds to, and ld.const of a bank offset reads from.
  uint64_t constantBankBase = 0;
  // The kernel's machine code from the program's cubin
  // (LoadedModule::setMachineCodeBytes); 0 when unknown, and the timing
  // model estimates it from the PTX (CodeLayout::sassBytes).
  uint64_t machineCodeBytes = 0;
  uint64_t gridId = 1;
  uint64_t launchTimeNs = 0;  // %globaltimer's value at the launch
  // What %smid, %clock and %globaltimer read (driver_clock.h): the
  // functional driver's instruction count unless a timing driver sets its own.
  InstructionCountClock instructionClock;
  const DriverClock* clock = &instructionClock;
  // A cooperative launch's grid workspace (what cooperative_groups reads
  // through %envreg1, the high half, and %envreg2, the low half); 0 for
  // other launches, whose grid.sync() then traps as on a GPU.
  uint64_t gridWorkspace = 0;
  // The launch's thread block clusters (cluster_geometry.h); clusters of
  // one CTA unless the launch or the kernel asks for more.
  ClusterShape clusters;

  // Device-side launches (device_launch.h). Null `launchTurns` when the
  // module cannot launch from the device: CTAs then never wait.
  uint32_t depth = 0;               // 0 for a grid the host launched
  uint64_t parentLaunchId = 0;      // the launching grid's gridId; 0 for a grid the host launched
  uint64_t pendingBefore = 0;       // launches of enclosing grids still waiting to run
  uint64_t pendingLaunchLimit = 0;  // cudaLimitDevRuntimePendingLaunchCount
  LaunchTurns* launchTurns = nullptr;
  uint64_t launchesRecorded = 0;  // by CTAs that had their turn, so only one at a time

  // The error of the lowest-numbered failing CTA, so the reported error
  // does not depend on the number of host threads: CTAs above a failed one
  // stop early, those below run on.
  std::mutex errorMutex;
  // --check=warp-sync findings of the executor itself (member masks naming
  // exited threads), one per PTX line; the race checker adds its own.
  std::mutex maskWarningsMutex;
  // By PTX line: the first (lowest CTA, then warp) occurrence, whatever the
  // host thread count.
  std::map<uint32_t, std::pair<uint64_t, std::string>> maskWarnings;
  // --memcheck=report's bad accesses (LaunchOptions::memcheck).
  MemcheckReports memcheckReports;
  LaunchError error;
  std::atomic<uint64_t> failedCta{UINT64_MAX};
  std::atomic<uint64_t> warpInstructions{0};  // across CTAs, for the launch's instruction limit
  std::atomic<uint64_t> memoryWrites{0};      // across CTAs, published each scheduling round
  // Livelock verdicts (livelock_vote.h): CTAs running now, and those of
  // them whose state repeats without memory changing.
  LivelockTally livelock;
  // 128-bit atomics on global memory: the host has no portable 16-byte
  // atomic, so they serialise on a lock chosen by address.
  std::array<std::mutex, 64> wideAtomicLocks;
  std::mutex& wideAtomicLock(uint64_t address) { return wideAtomicLocks[(address >> 4) % wideAtomicLocks.size()]; }

  void fail(uint64_t cta, LaunchErrorKind kind, std::string message) {
    std::lock_guard lock(errorMutex);
    if (cta >= failedCta.load()) return;
    failedCta.store(cta);
    error = {kind, std::move(message)};
  }
};

}  // namespace ptxsim::sim::exec
