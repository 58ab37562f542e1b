#pragma once

// The process-wide state behind the CUDA Runtime API the shim exports: the
// simulated device, the fat binaries, kernels and variables the program
// registered, the pending launch configurations, and CUDA's error state.
// The C API has no context to pass around, so one ShimState lives for the
// whole process (shimState()).

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "error_log.h"
#include "managed_advice.h"
#include "ptxsim/runtime/device.h"
#include "ptxsim/runtime/fatbin.h"
#include "ptxsim/runtime/stats_file.h"
#include "stream_order.h"
#include "transfer_time.h"

namespace ptxsim::cudart {

// A host-side pointer as the device address it stands for.
inline uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

struct FatbinRecord {
  const void* wrapper = nullptr;  // what __cudaRegisterFatBinary received
  std::optional<runtime::Fatbin> fatbin;
  std::string readError;
  std::shared_ptr<sim::LoadedModule> module;  // loaded on first use
  std::string loadError;
};

struct KernelRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;
};

struct VariableRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;
  size_t size = 0;
  bool managed = false;
  void** managedHostPointer = nullptr;  // __cudaRegisterManagedVar's host pointer slot
};

struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t sharedBytes = 0;
  cudaStream_t stream = nullptr;
};

// A library loaded at run time (cudaLibraryLoadData): its image, owned
// among the registered fat binaries, and one kernel handle per kernel in
// the module's order (a cudaKernel_t is the address of its handle byte).
struct LibraryRecord {
  FatbinRecord* image = nullptr;
  std::vector<std::string> kernelNames;
  std::unique_ptr<char[]> kernelHandles;
  cudaError_t loadError = cudaSuccess;  // bad code, reported at its first use (lazy loading)
  cudaKernel_t kernelHandle(size_t i) const { return reinterpret_cast<cudaKernel_t>(&kernelHandles[i]); }
};

// What --summary counts: the launches the profiler range admits
// (`ptxsim run --profile-from-start off` counts only those between
// cudaProfilerStart and cudaProfilerStop).
struct ProfiledTotals {
  size_t launches = 0;
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  double simulationSeconds = 0;
  uint64_t timedLaunches = 0;  // of them, run on the timing model (--timing)
  uint64_t timedCycles = 0;    // their gpc__cycles_elapsed, summed
};

struct EventRecord {
  unsigned flags = 0;
  bool recorded = false;
  uint64_t simulatedNanoseconds = 0;
};

class ShimState {
 public:
  ShimState();
  ~ShimState();

  Device& device();
  // Whether the program's own runtime calls started the device (not the
  // driver's calls made of runtime calls, driverCallDepth()): NVIDIA's
  // runtime calls cuInit as it starts and makes its primary context
  // current, so driver API calls after a runtime call need no cuInit and
  // no context of their own (cudaFree(0) and then cuModuleLoadData, say).
  bool runtimeStarted() const { return runtimeStarted_.load(std::memory_order_acquire); }
  // cudaDeviceReset: a fresh device (modules are loaded again on first use),
  // no memory, no errors.
  void reset();
  std::mutex& mutex() { return mutex_; }

  // Registration.
  void** registerFatbin(const void* wrapper);
  void unregisterFatbin(void** handle);
  void registerKernel(void** handle, const void* hostFunction, const char* name);
  void registerVariable(void** handle, const void* hostVariable, const char* name, size_t size, bool managed,
                        void** managedHostPointer);
  // Images loaded at run time (cudaLibraryLoadData) live with the
  // registered fat binaries, so a device reset reloads them alike;
  // dropping one forgets its kernels.
  FatbinRecord* addImage(std::unique_ptr<FatbinRecord> image);
  void dropImage(FatbinRecord* image);
  std::map<cudaLibrary_t, LibraryRecord>& libraries() { return libraries_; }
  // Cubins whose PTX is known (ptxsim's NVRTC compiles both): a cubin
  // loaded later runs as that PTX. ptxOfCubin: null when the image (an ELF
  // file) is none of them.
  void addCubinPtx(std::string cubin, std::string ptx) { cubinPtx_[std::move(cubin)] = std::move(ptx); }
  const std::string* ptxOfCubin(const void* image) const;

  // The loaded module of a kernel or variable (loading its fat binary on
  // first use); null with the error recorded when it cannot be loaded.
  sim::LoadedModule* moduleOf(FatbinRecord& record, cudaError_t& error);
  const KernelRecord* kernel(const void* hostFunction) const;
  // The byte size of each of a kernel's parameters (a launch copies that
  // much from each argument pointer).
  cudaError_t kernelParameterSizes(const void* hostFunction, std::vector<size_t>& sizes);
  // A registered kernel's record, loaded module and function; the error a
  // GPU gives when there is none.
  cudaError_t kernelFunction(const void* hostFunction, const KernelRecord*& record, sim::LoadedModule*& module,
                             const isa::Function*& fn);
  const VariableRecord* variable(const void* hostVariable) const;
  // A symbol's device address and size; cudaErrorInvalidSymbol if unknown.
  cudaError_t symbolAddress(const void* hostVariable, uint64_t& address, size_t& size);

  // Launch configuration stack of <<<...>>>.
  std::vector<CallConfiguration>& configurations() { return configurations_; }

  // Runs a kernel to completion. Configuration errors are returned; faults
  // during the run are reported on stderr and become the sticky error.
  // `cooperative`: cudaLaunchCooperativeKernel's launch; `cluster`:
  // cudaLaunchAttributeClusterDimension, zeros for none (sim::LaunchConfig).
  cudaError_t launch(const void* hostFunction, dim3 grid, dim3 block, void** args, size_t sharedBytes,
                     cudaStream_t stream, bool cooperative = false, dim3 cluster = dim3(0, 0, 0));

  // cudaProfilerStart/Stop: whether launches count in --stats and
  // --summary now. Always on unless `ptxsim run --profile-from-start off`.
  void setProfilerActive(bool active) { profilerActive_ = active || profileFromStart_; }

  // CUDA's error state: the last error (cleared by cudaGetLastError) and
  // the sticky error of a faulted kernel (never cleared; every call after
  // the fault returns it).
  cudaError_t record(cudaError_t error);
  // The sticky error. A fault becomes visible here with the first API call
  // after the launch other than cudaGetLastError/cudaPeekAtLastError: on a
  // GPU the kernel is still running when those are called right after it.
  // Each call that returns it sets the last error again, so cudaGetLastError
  // reports it once after every such call, as CUDA does.
  cudaError_t sticky() {
    if (pendingFault_ != cudaSuccess) sticky_ = pendingFault_, pendingFault_ = cudaSuccess;
    if (sticky_ != cudaSuccess) lastError_ = sticky_;
    return sticky_;
  }
  cudaError_t takeLastError();
  cudaError_t peekLastError() const;

  // Streams and events (all work completes when issued, so streams are
  // ordered trivially); capture, graphs and memory pools (stream_order.h).
  StreamOrderState& streamOrder() { return *streamOrder_; }
  std::map<cudaEvent_t, EventRecord>& events() { return events_; }
  // The simulated device's clock for events, in nanoseconds: kernels'
  // times (timing mode: their cycles and launch.overhead; else an estimate
  // from their instructions, README) and copies' and fills'.
  uint64_t simulatedNanoseconds() const { return simulatedNanoseconds_; }
  // A copy or fill of `bytes` (or a piece of one: transfer_time.h) moves
  // that clock as the preset says (copy.*, memset.*).
  void transferred(TransferKind kind, uint64_t bytes);
  void openTransfer(std::optional<TransferKind> forced);
  void closeTransfer();
  // What a copy from `src` to `dst` is: within the device, between it and
  // pinned (registered or managed) host memory, or pageable host memory.
  TransferKind transferKind(const void* dst, const void* src);

  // Every message the shim reported (cudaLogs*; reportError in error_log.h).
  ErrorLog& errorLog() { return errorLog_; }
  // cudaMemAdvise and cudaMemPrefetchAsync as cudaMemRangeGetAttribute reports them.
  ManagedAdvice& managedAdvice() { return managedAdvice_; }

  // Host allocations that kernels may reach (pinned, managed).
  std::map<void*, size_t>& hostAllocations() { return hostAllocations_; }
  // cudaHostAlloc's flags of each pinned allocation (cudaHostGetFlags).
  std::map<void*, unsigned> hostAllocationFlags;
  // Program memory made reachable with cudaHostRegister: base, bytes and
  // flags; the program owns it.
  struct RegisteredHostRange {
    size_t bytes = 0;
    unsigned flags = 0;
  };
  std::map<void*, RegisteredHostRange> registeredHost;
  unsigned deviceFlags = 0;  // cudaSetDeviceFlags
  // cudaDeviceRegisterAsyncNotification's callbacks, by handle. A simulated
  // GPU never exceeds its memory budget, so none is ever called.
  struct AsyncNotification {
    cudaAsyncCallback function = nullptr;
    void* userData = nullptr;
  };
  std::map<uintptr_t, AsyncNotification> asyncNotifications;
  uintptr_t nextAsyncNotification = 1;
  cudaFuncCache deviceCacheConfig = cudaFuncCachePreferNone;  // cudaDeviceSetCacheConfig

  // cudaDeviceSetLimit values.
  size_t stackLimit = 1024;
  size_t printfFifoLimit = size_t{1} << 20;
  size_t heapLimit = size_t{8} << 20;
  size_t pendingLaunchLimit = 2048;  // cudaLimitDevRuntimePendingLaunchCount
  size_t l2FetchLimit = 32;          // cudaLimitMaxL2FetchGranularity, bytes
  int currentDevice = 0;
  // cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
  std::map<const void*, int> maxDynamicShared;
  // cudaFuncSetAttribute(cudaFuncAttributeNonPortableClusterSizeAllowed).
  std::map<const void*, int> nonPortableClusterSize;

 private:
  // `ptxsim run --trace FILE`'s recorder (PTXSIM_TRACE), opened with the
  // first device; null without one. It outlives device resets, so the
  // trace goes on across them.
  sim::TraceRecorder* trace();
  // Whether static plus dynamic shared memory stay within the 48 KiB a
  // kernel gets without opting in to more.
  bool fitsDefaultSharedLimit(sim::LoadedModule& module, const std::string& kernel, size_t dynamicBytes);

  std::mutex mutex_;
  std::unique_ptr<sim::TraceRecorder> trace_;  // destroyed after the device
  std::unique_ptr<Device> device_;
  std::atomic<bool> runtimeStarted_{false};
  std::vector<std::unique_ptr<FatbinRecord>> fatbins_;
  std::map<const void*, KernelRecord> kernels_;
  std::map<const void*, VariableRecord> variables_;
  std::vector<CallConfiguration> configurations_;
  std::unique_ptr<StreamOrderState> streamOrder_;
  std::map<cudaEvent_t, EventRecord> events_;
  std::map<void*, size_t> hostAllocations_;
  ErrorLog errorLog_;
  ManagedAdvice managedAdvice_;
  cudaError_t lastError_ = cudaSuccess;
  cudaError_t sticky_ = cudaSuccess;
  cudaError_t pendingFault_ = cudaSuccess;
  uint64_t simulatedNanoseconds_ = 0;
  TransferTally transfers_;
  std::map<cudaLibrary_t, LibraryRecord> libraries_;
  std::map<std::string, std::string> cubinPtx_;  // cubin bytes -> its PTX
  bool profileFromStart_ = true;
  bool profilerActive_ = true;
  ProfiledTotals profiled_;
  std::string deviceName_;  // for the summary, also after a cudaDeviceReset
  runtime::StatsFile stats_;  // --stats (PTXSIM_STATS)
};

ShimState& shimState();
// Whether the process's ShimState has been destroyed (at exit); calls that
// come after that must not touch it.
bool shimStateDestroyed();
// How deep the calling thread is in driver calls made of runtime calls
// (driver::RuntimeCallScope counts them).
int& driverCallDepth();

// The cudaError_t a real GPU reports for a simulator launch error.
cudaError_t toCudaError(sim::LaunchErrorKind kind);

// Returns `error` after recording it (the usual tail of an API function).
inline cudaError_t result(cudaError_t error) { return shimState().record(error); }

}  // namespace ptxsim::cudart
