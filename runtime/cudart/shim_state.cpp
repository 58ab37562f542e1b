#include "shim_state.h"

#include <elf.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "linked_module.h"
#include "ptxsim/runtime/cubin_info.h"
#include "ptxsim/sim/gpu_presets.h"
#include "ptxsim/sim/trace_recorder.h"

namespace ptxsim::cudart {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Warp instructions per nanosecond the functional clock assumes: every
// SM's four schedulers issuing one instruction a cycle (README, "Events").
double issueRatePerNanosecond(const sim::GpuConfig& config) {
  return 4.0 * config.smCount * config.clockRateKhz / 1e6;
}

// `ptxsim run --simt/--its-schedule/--seed/--check/--memcheck/--timing` and the
// timing launch filter (--kernel-name/--launch-skip/--launch-count), checked by the CLI
// (a program started without it gets the defaults).
void applySchedulingOptions(sim::LaunchOptions& options) {
  if (auto mode = sim::parseSimtMode(environment("PTXSIM_SIMT"))) options.simt = *mode;
  if (auto schedule = sim::parseItsSchedule(environment("PTXSIM_ITS_SCHEDULE")))
    options.itsSchedule = *schedule;
  std::string seed = environment("PTXSIM_SEED");
  if (!seed.empty()) options.seed = std::strtoull(seed.c_str(), nullptr, 10);
  options.timing = environment("PTXSIM_TIMING") == "1";
  options.timingKernelName = environment("PTXSIM_TIMING_KERNEL");
  if (std::string skip = environment("PTXSIM_TIMING_LAUNCH_SKIP"); !skip.empty())
    options.timingLaunchSkip = std::strtoull(skip.c_str(), nullptr, 10);
  if (std::string count = environment("PTXSIM_TIMING_LAUNCH_COUNT"); !count.empty())
    options.timingLaunchCount = std::strtoull(count.c_str(), nullptr, 10);
  options.flushCaches = environment("PTXSIM_CACHE_CONTROL") == "all";
  options.runAhead = environment("PTXSIM_RUN_AHEAD") != "0";
  options.checkWarpSync = environment("PTXSIM_CHECK").find("warp-sync") != std::string::npos;
  if (auto memcheck = sim::parseMemcheckMode(environment("PTXSIM_MEMCHECK"))) options.memcheck = *memcheck;
  // --progress / --no-progress; by default, lines for long launches only.
  std::string progress = environment("PTXSIM_PROGRESS");
  options.progress = progress == "on"    ? sim::Progress::On
                     : progress == "off" ? sim::Progress::Off
                                         : sim::Progress::Auto;
}

}  // namespace

namespace {

// Trivially destructible, so still readable by exit handlers that run
// after the state itself is destroyed.
std::atomic<bool>& destroyedFlag() {
  static std::atomic<bool> destroyed{false};
  return destroyed;
}

}  // namespace

ShimState& shimState() {
  // The C API has no handle to carry state; it lives as long as the process.
  static ShimState state;
  return state;
}

bool shimStateDestroyed() { return destroyedFlag().load(); }

int& driverCallDepth() {
  thread_local int depth = 0;
  return depth;
}

ShimState::ShimState()
    : streamOrder_(std::make_unique<StreamOrderState>()),
      profileFromStart_(environment("PTXSIM_PROFILE_FROM_START") != "off"),
      profilerActive_(profileFromStart_),
      stats_(environment("PTXSIM_STATS")) {}

ShimState::~ShimState() {
  destroyedFlag() = true;
  if (device_ != nullptr) {
    device_->synchronize();
    deviceName_ = device_->config().name;
  }
  // No summary from a process that never used the device.
  if (environment("PTXSIM_SUMMARY") != "1" || deviceName_.empty()) return;
  std::fflush(stdout);  // the program's own output first
  // A one-line summary for people; the JSON records (--stats) are for tools.
  std::fprintf(stderr,
               "ptxsim: %zu kernel launch%s on %s: %llu warp instructions, %llu thread instructions, %.3f s "
               "simulating\n",
               profiled_.launches, profiled_.launches == 1 ? "" : "es", deviceName_.c_str(),
               static_cast<unsigned long long>(profiled_.warpInstructions),
               static_cast<unsigned long long>(profiled_.threadInstructions), profiled_.simulationSeconds);
  if (profiled_.timedLaunches != 0) {
    std::fprintf(stderr, "ptxsim: %llu launch%s timed: %llu cycles\n",
                 static_cast<unsigned long long>(profiled_.timedLaunches),
                 profiled_.timedLaunches == 1 ? "" : "es",
                 static_cast<unsigned long long>(profiled_.timedCycles));
  }
}

Device& ShimState::device() {
  if (device_ == nullptr) {
    sim::GpuConfig config;
    std::string error;
    // `ptxsim run --config` checked the preset before starting the program.
    if (!sim::loadPreset(environment("PTXSIM_CONFIG"), environment("PTXSIM_PRESET_DIR"), config, error)) {
      std::fprintf(stderr, "ptxsim: error: %s\n", error.c_str());
      std::exit(2);
    }
    DeviceOptions options;
    std::string threads = environment("PTXSIM_THREADS");
    if (!threads.empty())
      options.hostThreads = static_cast<unsigned>(std::strtoul(threads.c_str(), nullptr, 10));
    // The program's own choice, as the CUDA driver reads it.
    if (auto loading = sim::parseModuleLoading(environment("CUDA_MODULE_LOADING")))
      options.moduleLoading = *loading;
    if (auto cache = runtime::computeCacheFromEnvironment()) {
      options.computeCache = std::make_shared<runtime::ComputeCache>(*cache);
    }
    device_ = std::make_unique<Device>(config, options);
    deviceName_ = config.name;
    applySchedulingOptions(device_->launchOptions());
    device_->launchOptions().trace = trace();
    // The limits start at the preset's defaults, again after a reset.
    stackLimit = config.stackBytesPerThread;
    heapLimit = config.mallocHeapBytes;
    printfFifoLimit = config.printfFifoBytes;
    pendingLaunchLimit = config.pendingLaunchLimit;
    l2FetchLimit = config.timing.l2.fetchBytes;
    if (driverCallDepth() == 0) runtimeStarted_.store(true, std::memory_order_release);
  }
  return *device_;
}

sim::TraceRecorder* ShimState::trace() {
  std::string path = environment("PTXSIM_TRACE");
  if (trace_ == nullptr && !path.empty()) {
    std::string error;
    // `ptxsim run --trace` checked that the file can be written.
    trace_ = sim::TraceRecorder::open(path, error);
    if (trace_ == nullptr) {
      std::fprintf(stderr, "ptxsim: error: %s\n", error.c_str());
      std::exit(2);
    }
  }
  return trace_.get();
}

void ShimState::reset() {
  if (device_ != nullptr) device_->synchronize();
  for (auto& [pointer, bytes] : hostAllocations_) std::free(pointer);
  hostAllocations_.clear();
  managedAdvice_.clear();
  hostAllocationFlags.clear();
  registeredHost.clear();
  deviceFlags = 0;
  deviceCacheConfig = cudaFuncCachePreferNone;
  maxDynamicShared.clear();
  nonPortableClusterSize.clear();
  streamOrder_->pools().reset();
  streamOrder_->graphMemory().reset();
  device_.reset();
  for (auto& record : fatbins_) {
    record->module.reset();
    record->loadError.clear();
  }
  configurations_.clear();
  lastError_ = cudaSuccess;
  sticky_ = cudaSuccess;
  pendingFault_ = cudaSuccess;
}

void** ShimState::registerFatbin(const void* wrapper) {
  auto record = std::make_unique<FatbinRecord>();
  record->wrapper = wrapper;
  struct Wrapper {
    int magic;
    int version;
    const unsigned long long* data;
    void* filenameOrFatbins;
  };
  const auto* w = static_cast<const Wrapper*>(wrapper);
  if (w == nullptr || static_cast<uint32_t>(w->magic) != runtime::kFatbinWrapperMagic || w->data == nullptr) {
    record->readError = "the registered fat binary has an unknown wrapper";
  } else {
    // The container's header says how long it is.
    record->fatbin =
        runtime::readFatbin(reinterpret_cast<const uint8_t*>(w->data), UINT64_MAX, record->readError);
  }
  fatbins_.push_back(std::move(record));
  return reinterpret_cast<void**>(fatbins_.back().get());
}

void ShimState::unregisterFatbin(void** handle) {
  // Modules stay loaded until exit: kernels may still be referenced by
  // other translation units' static destructors.
  (void)handle;
}

void ShimState::registerKernel(void** handle, const void* hostFunction, const char* name) {
  kernels_[hostFunction] = KernelRecord{reinterpret_cast<FatbinRecord*>(handle), name};
}

void ShimState::registerVariable(void** handle, const void* hostVariable, const char* name, size_t size,
                                 bool managed, void** managedHostPointer) {
  variables_[hostVariable] =
      VariableRecord{reinterpret_cast<FatbinRecord*>(handle), name, size, managed, managedHostPointer};
}

sim::LoadedModule* ShimState::moduleOf(FatbinRecord& record, cudaError_t& error) {
  if (record.module != nullptr) return record.module.get();
  if (!record.loadError.empty()) {
    error = cudaErrorInvalidPtx;
    return nullptr;
  }
  const sim::GpuConfig& config = device().config();
  const runtime::FatbinEntry* entry = record.fatbin ? record.fatbin->bestPtx(config.smVersion) : nullptr;
  // -rdc=true: the units' PTX, linked (the fat binary has the linked cubin only).
  std::string linked, linkError;
  if (record.fatbin && entry == nullptr &&
      linkRelocatableCode(record.wrapper, config.smVersion, linked, linkError)) {
    runtime::FatbinEntry& e = record.fatbin->entries.emplace_back();
    e.arch = config.smVersion;
    e.ptx = std::move(linked);
    entry = &e;
  }
  if (!record.fatbin) {
    record.loadError = record.readError;
    error = cudaErrorInvalidKernelImage;
  } else if (!linkError.empty()) {
    record.loadError = linkError + "\n";
    error = cudaErrorInvalidPtx;
  } else if (entry != nullptr) {
    try {
      // __managed__ variables live in host memory so the program's host code
      // can use them: through the pointer the runtime stores for a
      // registered one, through cuLibraryGetManaged's address otherwise.
      auto placeManaged = [&](const isa::Variable& variable) {
        size_t bytes = (std::max<size_t>(variable.size, 1) + 255) / 256 * 256;
        auto* memory = static_cast<uint8_t*>(std::aligned_alloc(256, bytes));
        std::memset(memory, 0, bytes);
        hostAllocations_[memory] = variable.size;
        for (auto& [hostVariable, v] : variables_) {
          if (v.fatbin == &record && v.managed && v.name == variable.name &&
              v.managedHostPointer != nullptr) {
            *v.managedHostPointer = memory;
          }
        }
        return memory;
      };
      record.module =
          device().loadModule(entry->ptx, "compute_" + std::to_string(entry->arch) + ".ptx", placeManaged);
      // Occupancy and kernel attributes use ptxas's register counts, and the
      // timing model its code sizes, when the program carries a cubin for
      // the simulated GPU or an older one (as the driver's JIT would
      // compile the PTX for a newer GPU: h100_forward runs an sm_90
      // program's compute_90 PTX), rather than counting PTX registers.
      if (const runtime::FatbinEntry* cubin = record.fatbin->bestCubin(config.smVersion)) {
        record.module->setMachineRegisters(runtime::cubinRegisterCounts(cubin->image));
        record.module->setMachineCodeBytes(runtime::cubinCodeBytes(cubin->image));
      }
      return record.module.get();
    } catch (const Error& e) {
      record.loadError = e.what();
      error = cudaErrorInvalidPtx;
    }
  } else {
    // PTX for a newer GPU only is how NVIDIA's libraries ship (cuBLAS:
    // compute_120): a GPU newer still runs it.
    bool newerPtxOnly = std::any_of(
        record.fatbin->entries.begin(), record.fatbin->entries.end(),
        [&](const auto& e) { return e.kind == runtime::FatbinEntryKind::Ptx && e.arch > config.smVersion; });
    record.loadError =
        "the program's fat binary holds no PTX the simulated sm_" + std::to_string(config.smVersion) +
        " can run (it has " + record.fatbin->architectures() + "); " +
        (newerPtxOnly ? "its PTX is for a newer GPU, as in NVIDIA's libraries: run with --config "
                        "h100_forward (docs/libraries.md)\n"
                      : "rebuild with -arch=sm_90, or add -gencode arch=compute_90,code=compute_90\n");
    error = cudaErrorNoKernelImageForDevice;
  }
  std::fprintf(stderr, "ptxsim: error: %s", record.loadError.c_str());
  return nullptr;
}

FatbinRecord* ShimState::addImage(std::unique_ptr<FatbinRecord> image) {
  fatbins_.push_back(std::move(image));
  return fatbins_.back().get();
}

void ShimState::dropImage(FatbinRecord* image) {
  for (auto it = kernels_.begin(); it != kernels_.end();) {
    if (it->second.fatbin == image) {
      maxDynamicShared.erase(it->first);
      nonPortableClusterSize.erase(it->first);
      it = kernels_.erase(it);
    } else {
      ++it;
    }
  }
  std::erase_if(fatbins_, [image](const std::unique_ptr<FatbinRecord>& r) { return r.get() == image; });
}

const KernelRecord* ShimState::kernel(const void* hostFunction) const {
  auto it = kernels_.find(hostFunction);
  return it == kernels_.end() ? nullptr : &it->second;
}

const VariableRecord* ShimState::variable(const void* hostVariable) const {
  auto it = variables_.find(hostVariable);
  if (it != variables_.end()) return &it->second;
  // Host code names a __managed__ variable through the pointer the runtime
  // stored for it, so the symbol arrives as the variable's memory itself.
  for (const auto& [key, v] : variables_) {
    if (v.managed && v.managedHostPointer != nullptr && *v.managedHostPointer == hostVariable) return &v;
  }
  return nullptr;
}

cudaError_t ShimState::symbolAddress(const void* hostVariable, uint64_t& address, size_t& size) {
  const VariableRecord* v = variable(hostVariable);
  if (v == nullptr) return cudaErrorInvalidSymbol;
  cudaError_t error = cudaSuccess;
  sim::LoadedModule* module = moduleOf(*v->fatbin, error);
  if (module == nullptr) return error;
  uint64_t bytes = 0;
  if (!module->variable(v->name, address, bytes)) return cudaErrorInvalidSymbol;
  size = static_cast<size_t>(bytes);
  return cudaSuccess;
}

cudaError_t ShimState::kernelFunction(const void* hostFunction, const KernelRecord*& record,
                                      sim::LoadedModule*& module, const isa::Function*& fn) {
  record = kernel(hostFunction);
  if (record == nullptr) return cudaErrorInvalidDeviceFunction;
  cudaError_t error = cudaSuccess;
  module = moduleOf(*record->fatbin, error);
  if (module == nullptr) return error;
  fn = module->module().findFunction(record->name);
  if (fn == nullptr || !fn->isKernel) return cudaErrorInvalidDeviceFunction;
  return cudaSuccess;
}

cudaError_t ShimState::kernelParameterSizes(const void* hostFunction, std::vector<size_t>& sizes) {
  const KernelRecord* k = nullptr;
  sim::LoadedModule* module = nullptr;
  const isa::Function* fn = nullptr;
  if (cudaError_t e = kernelFunction(hostFunction, k, module, fn); e != cudaSuccess) return e;
  sizes.clear();
  for (const auto& param : fn->params) sizes.push_back(param.size);
  return cudaSuccess;
}

cudaError_t ShimState::launch(const void* hostFunction, dim3 grid, dim3 block, void** args,
                              size_t sharedBytes, cudaStream_t stream, bool cooperative, dim3 cluster) {
  (void)stream;
  if (sticky() != cudaSuccess) return sticky_;
  const KernelRecord* k = nullptr;
  sim::LoadedModule* module = nullptr;
  const isa::Function* fn = nullptr;
  if (cudaError_t e = kernelFunction(hostFunction, k, module, fn); e != cudaSuccess) return e;
  // Above 48 KiB a kernel must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize).
  auto optedIn = maxDynamicShared.find(hostFunction);
  if (optedIn != maxDynamicShared.end() ? sharedBytes > static_cast<size_t>(optedIn->second)
                                        : !fitsDefaultSharedLimit(*module, k->name, sharedBytes)) {
    std::fprintf(
        stderr,
        "ptxsim: error: launch of %s asks for %zu bytes of dynamic shared memory, more than the "
        "kernel's limit (raise it with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize))\n",
        k->name.c_str(), sharedBytes);
    return cudaErrorInvalidValue;
  }
  KernelArgs kernelArgs;
  for (size_t i = 0; i < fn->params.size(); ++i) kernelArgs.addBytes(args[i], fn->params[i].size);
  Device& dev = device();
  dev.gpu().mutableConfig().stackBytesPerThread = stackLimit;
  dev.gpu().mutableConfig().mallocHeapBytes = heapLimit;  // takes effect with the first launch
  dev.gpu().mutableConfig().pendingLaunchLimit = pendingLaunchLimit;
  // A hint to CUDA: the L2 fetches whole blocks of it rounded up to a power
  // of two, from a sector to a line.
  memory::L2Config& l2 = dev.gpu().mutableConfig().timing.l2;
  l2.fetchBytes =
      std::clamp<uint32_t>(std::bit_ceil(static_cast<uint32_t>(l2FetchLimit)), l2.sectorBytes, l2.lineBytes);
  // A launch flushes the printf output of the kernels before it, as CUDA
  // does; its own output waits for the next synchronisation.
  dev.synchronize();
  sim::LaunchResult r;
  try {
    r = dev.launch(
        *module, k->name, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
        static_cast<uint32_t>(sharedBytes), kernelArgs, cooperative, {cluster.x, cluster.y, cluster.z},
        nonPortableClusterSize.count(hostFunction) != 0 && nonPortableClusterSize[hostFunction] != 0);
  } catch (const Error& e) {
    std::fprintf(stderr, "ptxsim: error: %s\n", e.what());
    return cudaErrorInvalidValue;
  }
  uint64_t warpInstructions = r.stats.warpInstructions;
  for (const sim::KernelStats& child : r.deviceLaunches) warpInstructions += child.warpInstructions;
  if (profilerActive_) {
    // The launch, then the grids it launched from the device: one record each.
    auto profile = [this](const sim::KernelStats& stats) {
      stats_.write(stats);
      ++profiled_.launches;
      profiled_.warpInstructions += stats.warpInstructions;
      profiled_.threadInstructions += stats.threadInstructions;
      profiled_.simulationSeconds += stats.simulationSeconds;
      if (stats.timed) {
        ++profiled_.timedLaunches;
        profiled_.timedCycles += stats.timing.cyclesElapsed;
      }
    };
    profile(r.stats);
    for (const sim::KernelStats& child : r.deviceLaunches) profile(child);
  }
  for (const std::string& warning : r.warnings) std::fprintf(stderr, "%s\n", warning.c_str());
  if (r.stats.timed) {
    // The timing model's time: the launch's cycles at the SM clock, and
    // the launch's own cost (the preset's launch.overhead).
    simulatedNanoseconds_ += r.stats.timing.durationNs + dev.config().timing.launchOverheadNs;
  } else {
    simulatedNanoseconds_ +=
        static_cast<uint64_t>(static_cast<double>(warpInstructions) / issueRatePerNanosecond(dev.config())) +
        1;
  }
  if (!r.error) return cudaSuccess;
  std::fprintf(stderr, "ptxsim: error: %s\n", r.error.message.c_str());
  cudaError_t code = toCudaError(r.error.kind);
  switch (r.error.kind) {
    case sim::LaunchErrorKind::InvalidConfiguration:
    case sim::LaunchErrorKind::InvalidValue:
    case sim::LaunchErrorKind::OutOfResources:
    case sim::LaunchErrorKind::InvalidPtx:
    case sim::LaunchErrorKind::CooperativeTooLarge:
    case sim::LaunchErrorKind::InvalidClusterSize: return code;  // rejected before it ran: not sticky
    default: pendingFault_ = code; return cudaSuccess;           // reported by the calls that follow
  }
}

bool ShimState::fitsDefaultSharedLimit(sim::LoadedModule& module, const std::string& kernel,
                                       size_t dynamicBytes) {
  sim::Gpu::KernelResources r;
  if (device().gpu().kernelResources(module, kernel, r)) return true;  // the launch reports it
  return r.staticSharedBytes + dynamicBytes <= device().config().sharedBytesPerBlock;
}

const std::string* ShimState::ptxOfCubin(const void* image) const {
  if (cubinPtx_.empty()) return nullptr;
  // An ELF file's extent, from its headers: the section and program header
  // tables and every section (the caller gives no size).
  Elf64_Ehdr header{};
  std::memcpy(&header, image, sizeof header);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr)) return nullptr;
  const auto* bytes = static_cast<const uint8_t*>(image);
  uint64_t extent = std::max<uint64_t>(header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize,
                                       header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize);
  for (uint16_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section{};
    std::memcpy(&section, bytes + header.e_shoff + i * sizeof section, sizeof section);
    if (section.sh_type != SHT_NOBITS)
      extent = std::max<uint64_t>(extent, section.sh_offset + section.sh_size);
  }
  for (const auto& [cubin, ptx] : cubinPtx_) {
    if (cubin.size() == extent && std::memcmp(cubin.data(), image, extent) == 0) return &ptx;
  }
  return nullptr;
}

cudaError_t ShimState::record(cudaError_t error) {
  if (error != cudaSuccess) lastError_ = error;
  return error;
}

cudaError_t ShimState::takeLastError() {
  cudaError_t e = lastError_;
  lastError_ = cudaSuccess;
  return e;
}

cudaError_t ShimState::peekLastError() const { return lastError_; }

cudaError_t toCudaError(sim::LaunchErrorKind kind) {
  using K = sim::LaunchErrorKind;
  switch (kind) {
    case K::None: return cudaSuccess;
    // CUDA 13 rejects launch geometries with cudaErrorInvalidValue (measured on H100).
    case K::InvalidConfiguration: return cudaErrorInvalidValue;
    case K::InvalidValue: return cudaErrorInvalidValue;
    case K::OutOfResources: return cudaErrorInvalidValue;
    case K::IllegalAddress: return cudaErrorIllegalAddress;
    case K::MisalignedAddress: return cudaErrorMisalignedAddress;
    case K::IllegalInstruction: return cudaErrorIllegalInstruction;
    // What an H100 reports for each (tests/cuda/programs/faults.expected).
    case K::Trap: return cudaErrorLaunchFailure;
    case K::InvalidPc: return cudaErrorInvalidPc;
    case K::Breakpoint: return cudaErrorLaunchFailure;
    case K::Assert: return cudaErrorAssert;
    case K::Unsupported: return cudaErrorNotSupported;
    // A kernel lazy loading cannot prepare: what a GPU's cudaLaunchKernel
    // returns when the JIT rejects the kernel's PTX. Not
    // cudaErrorNoKernelImageForDevice (there is PTX for the device; it is
    // the compilation of it that fails) nor cudaErrorUnsupportedPtxVersion
    // (the module's .version was accepted when it loaded).
    case K::InvalidPtx: return cudaErrorInvalidPtx;
    case K::Deadlock:
    case K::Timeout: return cudaErrorLaunchTimeout;
    case K::StackOverflow: return cudaErrorIllegalAddress;
    case K::CooperativeTooLarge: return cudaErrorCooperativeLaunchTooLarge;
    case K::InvalidClusterSize: return cudaErrorInvalidClusterSize;
  }
  return cudaErrorUnknown;
}

void ShimState::transferred(TransferKind kind, uint64_t bytes) {
  simulatedNanoseconds_ += transfers_.piece(device().config().timing.transfer, kind, bytes);
}

void ShimState::openTransfer(std::optional<TransferKind> forced) { transfers_.open(forced); }

void ShimState::closeTransfer() {
  simulatedNanoseconds_ += transfers_.close(device().config().timing.transfer);
}

TransferKind ShimState::transferKind(const void* dst, const void* src) {
  return transferKindOf(device().allocationAt(address(dst)), device().allocationAt(address(src)));
}

TransferScope::TransferScope(std::optional<TransferKind> forced) { shimState().openTransfer(forced); }

TransferScope::~TransferScope() { shimState().closeTransfer(); }

}  // namespace ptxsim::cudart
