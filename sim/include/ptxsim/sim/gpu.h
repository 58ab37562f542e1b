#pragma once

// The simulated GPU: device memory, loaded modules, and kernel launches run
// functionally on a pool of host threads. The host API (runtime/) and the
// cudart shim sit on top of this class.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/isa/module.h"
#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/memory/page_store.h"
#include "ptxsim/sim/copy_engine_range.h"
#include "ptxsim/sim/device_heap.h"
#include "ptxsim/sim/gpu_config.h"
#include "ptxsim/sim/launch.h"
#include "ptxsim/sim/module_loading.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim::sim {

namespace timing {
struct KeptState;
}  // namespace timing
namespace exec {
struct PreparedKernel;
struct GridContext;
struct DeviceLaunch;
}  // namespace exec

// A module placed in device memory: its variables allocated and
// initialised, each kernel prepared on its first use.
class LoadedModule {
 public:
  ~LoadedModule();
  const isa::Module& module() const { return *module_; }
  // The device address and size of a module-scope global or constant
  // variable; false when there is no such variable.
  bool variable(std::string_view name, uint64_t& address, uint64_t& size) const;
  // Machine registers per thread of each kernel as ptxas allocated them
  // (from the program's cubin), in place of the estimate from PTX.
  void setMachineRegisters(std::map<std::string, uint32_t> registersByKernel) {
    machineRegisters_ = std::move(registersByKernel);
  }
  // Bytes of machine code of each function as ptxas laid it out (from the
  // program's cubin): what a launch with empty caches reads for its code,
  // in place of the timing model's estimate from PTX.
  void setMachineCodeBytes(std::map<std::string, uint64_t> bytesByFunction) {
    machineCodeBytes_ = std::move(bytesByFunction);
  }

 private:
  friend class Gpu;
  uint32_t registersOf(const std::string& kernel, uint32_t estimate) const {
    auto it = machineRegisters_.find(kernel);
    return it != machineRegisters_.end() ? it->second : estimate;
  }
  // The kernel's machine code with the functions it can call that ptxas
  // kept apart; 0 when the cubin does not have the kernel.
  uint64_t machineCodeBytesOf(const exec::PreparedKernel& kernel) const;
  std::map<std::string, uint32_t> machineRegisters_;
  std::map<std::string, uint64_t> machineCodeBytes_;
  std::shared_ptr<const isa::Module> module_;
  std::vector<uint64_t> globalAddresses_;
  // Where the module's constant bank begins: its first __constant__
  // variable (they are allocated one after another). Constant-space
  // addresses below AllocationTable::kFirstAddress are offsets into the
  // bank, as cvta.to.const gives them on the GPU; 0 with no constants.
  uint64_t constantBankBase_ = 0;
  std::mutex prepareMutex_;
  std::vector<std::unique_ptr<exec::PreparedKernel>> kernels_;  // by Module::functions index
  // Why a kernel could not be prepared, by Module::functions index (empty
  // while it has not been tried or when it prepared): a kernel that fails
  // fails the same way at every use, without preparing it again.
  std::vector<std::string> preparationErrors_;
};

// The instructions of a module the simulator cannot execute, one line
// each ("unsupported instruction X at PTX line N: why"); empty when it can
// run every function. What an eager module load checks (and `ptxsim
// check`), without device memory.
std::vector<std::string> unsupportedInstructions(const isa::Module& module);

class Gpu {
 public:
  explicit Gpu(GpuConfig config = {});
  ~Gpu();

  const GpuConfig& config() const { return config_; }
  GpuConfig& mutableConfig() { return config_; }
  memory::PageStore& store() { return store_; }
  memory::AllocationTable& allocations() { return allocations_; }
  // CUDA arrays, texture objects and surface objects.
  TextureRegistry& textures() { return textures_; }

  // Places the module's variables (with their initializers and
  // relocations). Eager loading also checks that every instruction is
  // supported; lazy loading leaves that to each kernel's first use
  // (launch, kernelResources). Null with `errors` set when it fails.
  // `hostBacked` names variables (CUDA __managed__ ones) to place in the
  // given host memory instead of device memory; each must hold the
  // variable's size.
  std::shared_ptr<LoadedModule> load(std::shared_ptr<const isa::Module> module, ModuleLoading loading,
                                     std::vector<std::string>& errors,
                                     const std::map<std::string, uint8_t*>& hostBacked = {});

  // Runs a kernel to completion.
  LaunchResult launch(LoadedModule& module, std::string_view kernel, const LaunchConfig& config,
                      const LaunchOptions& options);

  // A copy engine moved `range` of device memory through the L2 (cudaMemset,
  // cudaMemcpy): the next timed launch that does not flush the caches finds
  // its lines there as on the GPU (timing::CopyEngineLog).
  void copyEngineMoved(const CopyEngineRange& range);

  // The static resources a kernel needs (for occupancy and attributes).
  // Preparing the kernel if it has not been (lazy loading), as querying a
  // kernel's attributes loads it on a GPU. The error is InvalidValue when
  // there is no such kernel, InvalidPtx when it cannot be prepared.
  struct KernelResources {
    uint64_t staticSharedBytes = 0;
    uint64_t localBytesPerThread = 0;
    uint32_t registersPerThread = 0;
    uint32_t maxThreadsPerBlock = 0;
    uint64_t parameterBytes = 0;
  };
  LaunchError kernelResources(LoadedModule& module, std::string_view kernel, KernelResources& out);

 private:
  // The kernel prepared (on its first use); null with `error` set when it
  // cannot be.
  const exec::PreparedKernel* prepared(LoadedModule& module, uint32_t kernelIndex, LaunchError& error);
  // Where a grid sits among device-side launches (exec/device_launch.h).
  struct GridPlace {
    uint32_t depth = 0;
    uint64_t pendingBefore = 0;  // launches of enclosing grids still waiting to run
    uint64_t parentLaunchId = 0;
  };
  // Device-side launches of a grid, by launching CTA (program order within one).
  using LaunchesByCta = std::map<uint64_t, std::vector<exec::DeviceLaunch>>;
  // Runs one grid's CTAs; the grids its threads launched go to `launches`
  // in the order they are to run.
  LaunchResult runGrid(LoadedModule& module, uint32_t kernelIndex, const LaunchConfig& config,
                       const LaunchOptions& options, const GridPlace& place,
                       std::vector<exec::DeviceLaunch>& launches);
  // Runs the grids a grid launched, and theirs, depth first
  // (device_launches.cpp); their statistics, output and first error go
  // into `total`.
  void runDeviceLaunches(LoadedModule& module, const LaunchOptions& options, const GridPlace& parent,
                         uint64_t parentLaunchId, std::vector<exec::DeviceLaunch>& launches,
                         LaunchResult& total);
  // Runs the CTAs of a grid that need not be resident together.
  // `ctasPerSm`: the CTAs an SM holds at once for this launch (occupancy).
  void runCtas(exec::GridContext& grid, unsigned threads, uint32_t ctasPerSm, LaunchResult& result,
               LaunchesByCta& launchesByCta);
  std::string checkCoResidency(LoadedModule& module, const isa::Function& kernel, const LaunchConfig& config);
  // A zeroed cooperative grid workspace in device memory, released after the launch.
  uint64_t allocateGridWorkspace();
  // The timing parameters in effect, echoed anew only when they changed
  // (mutableConfig): thousands of launches share one echo.
  const std::shared_ptr<const TimingParameterSet>& timingParameters();

  GpuConfig config_;
  memory::PageStore store_;
  memory::AllocationTable allocations_;
  DeviceHeap heap_;
  TextureRegistry textures_{allocations_, store_};
  uint64_t launches_ = 0;
  uint64_t timingMatched_ = 0;  // host launches LaunchOptions' timing filter matched so far
  // The caches' lines, kept from one timed launch to the next.
  std::unique_ptr<timing::KeptState> timingKept_;
  std::shared_ptr<const TimingParameterSet> timingParameters_;
  TimingConfig timingParametersOf_;  // what timingParameters_ echoes
};

}  // namespace ptxsim::sim
