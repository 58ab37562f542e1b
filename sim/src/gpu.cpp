#include "ptxsim/sim/gpu.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <thread>

#include "checks/observer_chain.h"
#include "checks/texture_coherence.h"
#include "checks/warp_sync_checker.h"
#include "exec/cooperative_runner.h"
#include "exec/cta_runner.h"
#include "exec/device_launch.h"
#include "exec/exec_context.h"
#include "exec/launch_turns.h"
#include "exec/preparer.h"
#include "ptxsim/sim/occupancy.h"
#include "timing/launch_selection.h"
#include "timing/timing_driver.h"

namespace ptxsim::sim {

LoadedModule::~LoadedModule() = default;

bool LoadedModule::variable(std::string_view name, uint64_t& address, uint64_t& size) const {
  for (size_t i = 0; i < module_->globals.size(); ++i) {
    const isa::Variable& v = module_->globals[i];
    if (v.name == name && globalAddresses_[i] != 0) {
      address = globalAddresses_[i];
      size = v.size;
      return true;
    }
  }
  return false;
}

uint64_t LoadedModule::machineCodeBytesOf(const exec::PreparedKernel& kernel) const {
  if (!machineCodeBytes_.contains(kernel.kernel().function->name)) return 0;
  // Functions ptxas inlined have no section of their own: their code is
  // in their callers'.
  uint64_t bytes = 0;
  for (const auto& fn : kernel.functions) {
    if (fn == nullptr) continue;
    auto it = machineCodeBytes_.find(fn->function->name);
    if (it != machineCodeBytes_.end()) bytes += it->second;
  }
  return bytes;
}

std::vector<std::string> unsupportedInstructions(const isa::Module& module) {
  return exec::findUnsupported(module, exec::ModulePlacement{});
}

Gpu::Gpu(GpuConfig config) : config_(std::move(config)) {}
Gpu::~Gpu() = default;

const std::shared_ptr<const TimingParameterSet>& Gpu::timingParameters() {
  if (timingParameters_ == nullptr || !(timingParametersOf_ == config_.timing)) {
    timingParameters_ = std::make_shared<const TimingParameterSet>(timingParameterSet(config_.timing));
    timingParametersOf_ = config_.timing;
  }
  return timingParameters_;
}

void Gpu::copyEngineMoved(const CopyEngineRange& range) {
  if (!timingKept_) timingKept_ = std::make_unique<timing::KeptState>();
  // Twice the L2: older lines have left it by the time the last were moved.
  timingKept_->memory.copyEngineMoved(range, {.keptBytes = 2 * config_.timing.l2.capacityBytes,
                                              .hostResidentBytes = config_.timing.hostCopyResidentBytes});
}

namespace {

bool inDeviceMemory(const isa::Variable& v) {
  if (v.space != isa::StateSpace::Global && v.space != isa::StateSpace::Const) return false;
  return v.type != isa::DataType::TexRef && v.type != isa::DataType::SamplerRef &&
         v.type != isa::DataType::SurfRef;
}

}  // namespace

std::shared_ptr<LoadedModule> Gpu::load(std::shared_ptr<const isa::Module> module, ModuleLoading loading,
                                        std::vector<std::string>& errors,
                                        const std::map<std::string, uint8_t*>& hostBacked) {
  auto loaded = std::shared_ptr<LoadedModule>(new LoadedModule());
  loaded->module_ = module;
  const isa::Module& m = *module;
  loaded->globalAddresses_.assign(m.globals.size(), 0);
  for (size_t i = 0; i < m.globals.size(); ++i) {
    const isa::Variable& v = m.globals[i];
    if (!inDeviceMemory(v)) continue;
    if (v.isExtern) {
      errors.push_back("unresolved extern variable '" + v.name + "' at PTX line " +
                       std::to_string(v.where.line));
      continue;
    }
    if (auto host = hostBacked.find(v.name); host != hostBacked.end()) {
      if (!allocations_.addHostRange(host->second, v.size, memory::AllocationKind::Managed)) {
        errors.push_back("host memory for managed variable '" + v.name + "' overlaps the device's ranges");
        continue;
      }
      loaded->globalAddresses_[i] = reinterpret_cast<uint64_t>(host->second);
      continue;
    }
    memory::AllocationKind kind = v.space == isa::StateSpace::Const ? memory::AllocationKind::ModuleConstant
                                                                    : memory::AllocationKind::ModuleVariable;
    const memory::Allocation& a =
        allocations_.allocate(v.size, std::max<uint32_t>(v.alignment, 16), kind, v.name);
    loaded->globalAddresses_[i] = a.base;
    if (kind == memory::AllocationKind::ModuleConstant && loaded->constantBankBase_ == 0) {
      loaded->constantBankBase_ = a.base;
    }
  }
  // Initializers, then the addresses they hold (relocations).
  for (size_t i = 0; i < m.globals.size(); ++i) {
    const isa::Variable& v = m.globals[i];
    uint64_t base = loaded->globalAddresses_[i];
    if (base == 0 || !v.hasInitializer) continue;
    auto host = hostBacked.find(v.name);
    auto write = [&](uint64_t address, const void* bytes, uint64_t size) {
      if (host != hostBacked.end()) {
        std::memcpy(host->second + (address - base), bytes, size);
      } else {
        store_.write(address, bytes, size);
      }
    };
    write(base, v.initializer.data(), std::min<uint64_t>(v.initializer.size(), v.size));
    for (const isa::Relocation& r : v.relocations) {
      const isa::Symbol& sym = m.symbols[r.symbol];
      uint64_t target = 0;
      if (sym.kind == isa::SymbolKind::Variable) {
        target = loaded->globalAddresses_[sym.index];
      } else if (sym.kind == isa::SymbolKind::Function) {
        target = exec::kFunctionAddressBase + 16 * uint64_t{sym.index};
      }
      uint64_t value = target + static_cast<uint64_t>(r.addend);
      if (r.size == 1) {
        auto byte = static_cast<uint8_t>(value >> r.shift);
        write(base + r.offset, &byte, 1);
      } else {
        write(base + r.offset, &value, r.size);
      }
    }
  }
  if (loading == ModuleLoading::Eager) {
    std::vector<std::string> unsupported =
        exec::findUnsupported(m, exec::ModulePlacement{loaded->globalAddresses_});
    errors.insert(errors.end(), unsupported.begin(), unsupported.end());
  }
  if (!errors.empty()) {
    for (uint64_t address : loaded->globalAddresses_) {
      if (address != 0) allocations_.release(address);
    }
    return nullptr;
  }
  loaded->kernels_.resize(m.functions.size());
  loaded->preparationErrors_.resize(m.functions.size());
  return loaded;
}

const exec::PreparedKernel* Gpu::prepared(LoadedModule& module, uint32_t kernelIndex, LaunchError& error) {
  std::lock_guard lock(module.prepareMutex_);
  auto& slot = module.kernels_[kernelIndex];
  std::string& failure = module.preparationErrors_[kernelIndex];
  if (slot == nullptr && failure.empty()) {
    std::vector<std::string> errors;
    slot = exec::prepareKernel(*module.module_, kernelIndex, exec::ModulePlacement{module.globalAddresses_},
                               errors);
    if (slot == nullptr) {
      // Every instruction at fault, as a module load reports them.
      failure = "kernel " + module.module_->functions[kernelIndex].name + " cannot be loaded: ";
      for (size_t i = 0; i < errors.size(); ++i) failure += (i == 0 ? "" : "; ") + errors[i];
      if (errors.empty()) failure += "its preparation failed";
    }
  }
  if (slot == nullptr) error = {LaunchErrorKind::InvalidPtx, failure};
  return slot.get();
}

namespace {

int kernelIndexOf(const isa::Module& m, std::string_view name) {
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (m.functions[i].isKernel && m.functions[i].isDefined && m.functions[i].name == name)
      return static_cast<int>(i);
  }
  return -1;
}

// Whether the kernel needs a local stack beyond its own frame: it may call
// functions (the module defines any besides kernels) or use alloca.
bool usesStack(const exec::PreparedKernel& kernel) {
  for (const auto& fn : kernel.functions) {
    if (fn != nullptr && (fn.get() != &kernel.kernel() || fn->usesAlloca)) return true;
  }
  return false;
}

// Whether the kernel (or a function it calls) reads %envreg: what
// cooperative_groups' grid group does to find its grid workspace.
bool readsGridWorkspace(const exec::PreparedKernel& kernel) {
  for (const auto& fn : kernel.functions) {
    if (fn == nullptr) continue;
    for (const isa::Operand& op : fn->function->operands) {
      if (op.kind == isa::OperandKind::Special &&
          static_cast<isa::SpecialRegister>(op.index) == isa::SpecialRegister::Envreg) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

LaunchError Gpu::kernelResources(LoadedModule& module, std::string_view kernel, KernelResources& out) {
  int index = kernelIndexOf(module.module(), kernel);
  if (index < 0) return {LaunchErrorKind::InvalidValue, "no kernel named '" + std::string(kernel) + "'"};
  LaunchError error;
  const exec::PreparedKernel* prepared = this->prepared(module, static_cast<uint32_t>(index), error);
  if (prepared == nullptr) return error;
  const isa::Function& fn = module.module().functions[static_cast<size_t>(index)];
  out.staticSharedBytes = prepared->staticSharedBytes;
  out.localBytesPerThread = prepared->kernelLocalBytes;
  out.registersPerThread = module.registersOf(fn.name, prepared->registersPerThread);
  uint32_t maxThreads = config_.limits.maxThreadsPerBlock;
  const auto& d = fn.directives;
  if (d.maxntid[0] != 0)
    maxThreads = std::min(maxThreads, d.maxntid[0] * std::max(1u, d.maxntid[1]) * std::max(1u, d.maxntid[2]));
  if (d.reqntid[0] != 0)
    maxThreads = std::min(maxThreads, d.reqntid[0] * std::max(1u, d.reqntid[1]) * std::max(1u, d.reqntid[2]));
  out.maxThreadsPerBlock = maxThreads;
  out.parameterBytes = fn.paramBytes;
  return {};
}

// Runs the CTAs of a launch on `threads` host threads, each taking the
// next CTA when it finishes one.
// Device-side launches wait for their turn (launch_turns.h) only in a
// module that can launch from the device.
void Gpu::runCtas(exec::GridContext& grid, unsigned threads, uint32_t ctasPerSm, LaunchResult& result,
                  LaunchesByCta& launchesByCta) {
  const uint64_t ctaCount = grid.launch.grid.count();
  const uint64_t clusterCount = ctaCount / grid.clusters.size();
  std::unique_ptr<exec::LaunchTurns> turns;
  if (grid.kernel.module->findFunction("__cudaCDP2GetParameterBufferV2") != nullptr) {
    turns = std::make_unique<exec::LaunchTurns>(ctaCount);
    grid.launchTurns = turns.get();
  }
  std::atomic<uint64_t> nextCluster{0};
  std::vector<KernelStats> perThread(threads);
  std::mutex outputMutex;
  std::map<uint64_t, std::string> printfByCta;
  auto finished = [&](uint64_t id, exec::CtaState* cta) {
    if (cta != nullptr && (!cta->printfOutput.empty() || !cta->deviceRuntime.launches.empty())) {
      std::lock_guard lock(outputMutex);
      if (!cta->printfOutput.empty()) printfByCta[id] = std::move(cta->printfOutput);
      if (!cta->deviceRuntime.launches.empty()) launchesByCta[id] = std::move(cta->deviceRuntime.launches);
      cta->printfOutput.clear();
      cta->deviceRuntime.launches.clear();
    }
    if (turns != nullptr) turns->finish(id);
  };
  // As many CTAs may be resident as the GPU holds, shared among the host
  // threads. Device-side launches take turns by CTA (launch_turns.h), which
  // a CTA waiting for a later one would never give: one resident CTA then.
  uint64_t residentLimit =
      turns != nullptr ? 1 : std::max<uint64_t>(1, uint64_t{ctasPerSm} * config_.smCount / threads);
  auto worker = [&](unsigned t) {
    exec::ExecContext ctx(grid);
    exec::runCtaQueue(ctx, nextCluster, clusterCount, residentLimit, finished);
    perThread[t] = ctx.stats;
  };
  if (threads <= 1) {
    worker(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, t);
    for (auto& th : pool) th.join();
  }
  for (const KernelStats& s : perThread) result.stats.add(s);
  // Output of CTAs past a failed one is dropped: a sequential run would not
  // have produced it.
  uint64_t failed = grid.failedCta.load();
  for (auto& [id, text] : printfByCta) {
    if (id <= failed) result.printfOutput += text;
  }
}

uint64_t Gpu::allocateGridWorkspace() {
  // cooperative_groups' grid_workspace (details/driver_abi.h): the
  // workspace's size, then the grid barrier's arrival count, which starts
  // at zero (the header reads only the count).
  constexpr uint32_t kWorkspaceBytes = 8;
  const memory::Allocation& a = allocations_.allocate(kWorkspaceBytes, 16, memory::AllocationKind::Device,
                                                      "cooperative grid workspace");
  const uint32_t words[2] = {kWorkspaceBytes, 0};
  store_.write(a.base, words, sizeof(words));
  return a.base;
}

// Empty when every CTA of the grid fits on the device at once; otherwise why
// not (cudaErrorCooperativeLaunchTooLarge on a GPU).
std::string Gpu::checkCoResidency(LoadedModule& module, const isa::Function& fn, const LaunchConfig& config) {
  KernelResources resources;
  if (LaunchError error = kernelResources(module, fn.name, resources)) return error.message;
  uint64_t threads = config.block.count();
  int perSm = maxActiveBlocksPerSm(config_, resources, static_cast<int>(threads), config.dynamicSharedBytes);
  uint64_t resident = static_cast<uint64_t>(perSm) * config_.smCount;
  if (config.grid.count() <= resident) return {};
  return std::to_string(config.grid.count()) + " blocks, but at most " + std::to_string(resident) +
         " can be resident at once: " + std::to_string(perSm) + " blocks of " + std::to_string(threads) +
         " threads per SM (" + std::to_string(resources.registersPerThread) + " registers per thread, " +
         std::to_string(resources.staticSharedBytes + config.dynamicSharedBytes) +
         " bytes of shared memory per block) on " + std::to_string(config_.smCount) + " SMs";
}

LaunchResult Gpu::launch(LoadedModule& module, std::string_view kernelName, const LaunchConfig& config,
                         const LaunchOptions& options) {
  int index = kernelIndexOf(module.module(), kernelName);
  if (index < 0) {
    LaunchResult result;
    result.stats.kernel = std::string(kernelName);
    result.error = {LaunchErrorKind::InvalidValue,
                    "no kernel named '" + std::string(kernelName) + "' in the module"};
    return result;
  }
  std::vector<exec::DeviceLaunch> launches;
  LaunchOptions effective = options;
  if (options.timing) {
    timing::LaunchFilter filter{options.timingKernelName, options.timingLaunchSkip,
                                options.timingLaunchCount};
    effective.timing = timing::selectsForTiming(kernelName, filter, timingMatched_);
  }
  LaunchResult result =
      runGrid(module, static_cast<uint32_t>(index), config, effective, GridPlace{}, launches);
  if (!result.error && !launches.empty()) {
    runDeviceLaunches(module, effective, GridPlace{}, result.stats.launchId, launches, result);
  }
  return result;
}

LaunchResult Gpu::runGrid(LoadedModule& module, uint32_t index, const LaunchConfig& config,
                          const LaunchOptions& options, const GridPlace& place,
                          std::vector<exec::DeviceLaunch>& launches) {
  LaunchResult result;
  auto started = std::chrono::steady_clock::now();
  const isa::Module& m = module.module();
  const isa::Function& fn = m.functions[index];
  result.stats.kernel = fn.name;
  result.stats.parentLaunchId = place.parentLaunchId;
  result.stats.launchDepth = place.depth;
  SimtMode simt = resolveSimtMode(options.simt, config_.smVersion, m.target.sm);
  result.stats.simtMode = simt == SimtMode::Stack
                              ? std::string(nameOf(simt))
                              : std::string(nameOf(simt)) + "/" + std::string(nameOf(options.itsSchedule));
  result.stats.grid = config.grid;
  result.stats.block = config.block;
  result.stats.dynamicSharedBytes = config.dynamicSharedBytes;
  if (std::string why = checkLaunchGeometry(fn, config.grid, config.block, config_.limits); !why.empty()) {
    result.error = {LaunchErrorKind::InvalidConfiguration, "launch of " + fn.name + ": " + why};
    return result;
  }
  if (config.parameters.size() < fn.paramBytes) {
    result.error = {LaunchErrorKind::InvalidValue,
                    "launch of " + fn.name + ": " + std::to_string(config.parameters.size()) +
                        " bytes of parameters given, the kernel takes " + std::to_string(fn.paramBytes)};
    return result;
  }
  const exec::PreparedKernel* kernel = prepared(module, index, result.error);
  if (kernel == nullptr) return result;
  result.stats.staticSharedBytes = static_cast<uint32_t>(kernel->staticSharedBytes);
  result.stats.registersPerThread = module.registersOf(fn.name, kernel->registersPerThread);
  uint64_t sharedTotal = kernel->dynamicSharedOffset + config.dynamicSharedBytes;
  if (sharedTotal > config_.sharedBytesPerBlockOptin) {
    result.error = {LaunchErrorKind::OutOfResources,
                    "launch of " + fn.name + " needs " + std::to_string(sharedTotal) +
                        " bytes of shared memory per block; the device has " +
                        std::to_string(config_.sharedBytesPerBlockOptin)};
    return result;
  }
  ClusterShape clusters;
  if (std::string why =
          resolveClusterShape(fn, config.grid, config.cluster, config.nonPortableClusterSize, clusters);
      !why.empty()) {
    result.error = {LaunchErrorKind::InvalidClusterSize, "launch of " + fn.name + ": " + why};
    return result;
  }
  if (config.cooperative) {
    if (std::string why = checkCoResidency(module, fn, config); !why.empty()) {
      result.error = {LaunchErrorKind::CooperativeTooLarge, "cooperative launch of " + fn.name + ": " + why};
      return result;
    }
  }
  // The H100 gives every launch a grid workspace (this_grid().is_valid() is
  // true under <<<>>> too, tests/cuda/programs/cooperative_groups), and a
  // grid that fits on the device is resident at once, so grid.sync() in an
  // ordinary launch works there when the grid fits. Such a grid runs as a
  // cooperative one here; one that does not fit runs as usual (and a
  // grid.sync() in it can never complete: a deadlock).
  const bool usesWorkspace = config.cooperative || readsGridWorkspace(*kernel);
  const bool coResident =
      config.cooperative || (usesWorkspace && checkCoResidency(module, fn, config).empty());
  if (!heap_.ready()) {
    const memory::Allocation& a = allocations_.allocate(config_.mallocHeapBytes, 4096,
                                                        memory::AllocationKind::Heap, "device malloc heap");
    heap_.reset(a.base, a.size);
  }
  LaunchOptions effective = options;
  unsigned threads =
      options.hostThreads != 0 ? options.hostThreads : std::max(1u, std::thread::hardware_concurrency());
  // A cooperative grid's CTAs interleave on one host thread
  // (cooperative_runner.h); a cluster's CTAs share one (cta_runner.h).
  const uint64_t clusterCount = config.grid.count() / clusters.size();
  threads = coResident ? 1u : static_cast<unsigned>(std::min<uint64_t>(threads, clusterCount));
  effective.hostThreads = threads;
  // Checks observe the launch alongside the caller's observer, if any.
  std::unique_ptr<checks::WarpSyncChecker> warpSync;
  std::unique_ptr<checks::ObserverChain> chain;
  std::unique_ptr<checks::TextureCoherenceChecker> coherence;
  std::unique_ptr<checks::ObserverChain> checksChain;
  if (options.checkWarpSync) {
    warpSync = std::make_unique<checks::WarpSyncChecker>(m, fn.name, config.grid, config.block, coResident);
    coherence =
        std::make_unique<checks::TextureCoherenceChecker>(fn.name, config.block, textures_.boundRanges());
    checksChain = std::make_unique<checks::ObserverChain>(warpSync.get(), coherence.get());
    effective.observer = checksChain.get();
    if (options.observer != nullptr) {
      chain = std::make_unique<checks::ObserverChain>(options.observer, checksChain.get());
      effective.observer = chain.get();
    }
  }

  exec::GridContext grid(config_, store_, allocations_, *kernel, config, effective, heap_);
  grid.clusters = clusters;
  grid.textures = &textures_;
  grid.textureCoherence = coherence.get();
  grid.constantBankBase = module.constantBankBase_;
  grid.machineCodeBytes = module.machineCodeBytesOf(*kernel);
  grid.localBytesPerThread =
      kernel->kernelLocalBytes + (usesStack(*kernel) ? config_.stackBytesPerThread : 0);
  grid.gridId = ++launches_;
  grid.launchTimeNs = grid.gridId * 1'000'000'000ull;
  result.stats.launchId = grid.gridId;
  grid.depth = place.depth;
  grid.parentLaunchId = place.parentLaunchId;
  grid.pendingBefore = place.pendingBefore;
  grid.pendingLaunchLimit = config_.pendingLaunchLimit;
  LaunchesByCta launchesByCta;
  if (usesWorkspace) grid.gridWorkspace = allocateGridWorkspace();
  // The CTAs an SM holds at once: the timing model's CTA scheduler places
  // that many, and the functional runner keeps up to that many resident.
  Gpu::KernelResources resources;
  resources.staticSharedBytes = kernel->staticSharedBytes;
  resources.registersPerThread = result.stats.registersPerThread;
  const uint32_t ctasPerSm = static_cast<uint32_t>(
      std::max(1, maxActiveBlocksPerSm(config_, resources, static_cast<int>(config.block.count()),
                                       config.dynamicSharedBytes)));
  if (options.timing) {
    // A cooperative grid's CTAs all fit at once (checkCoResidency), so the
    // CTA scheduler places them all. The grids its threads launch run after
    // it, each timed on its own (they do not overlap it in simulated time).
    if (!timingKept_) timingKept_ = std::make_unique<timing::KeptState>();
    const unsigned timingThreads =
        options.hostThreads != 0 ? options.hostThreads : std::max(1u, std::thread::hardware_concurrency());
    timing::TimedGrid timed = timing::runTimedGrid(grid, ctasPerSm, *timingKept_, timingThreads);
    result.stats.timed = true;
    result.stats.timing = timed.stats.timing;
    result.stats.timingParameters = timingParameters();
    result.stats.add(timed.stats);
    result.printfOutput = std::move(timed.printfOutput);
    launchesByCta = std::move(timed.launchesByCta);
    threads = timed.hostThreads;
  } else if (coResident) {
    exec::ExecContext ctx(grid);
    exec::runCooperativeGrid(ctx, result.printfOutput, launchesByCta);
    result.stats.add(ctx.stats);
  } else {
    runCtas(grid, threads, ctasPerSm, result, launchesByCta);
  }
  if (usesWorkspace) allocations_.release(grid.gridWorkspace);
  result.error = grid.error;
  // The grids launched from the device, in the order they run: by
  // launching CTA, then program order; tail launches after all others.
  if (!grid.error) {
    for (auto tail : {false, true}) {
      for (auto& [id, list] : launchesByCta) {
        for (exec::DeviceLaunch& l : list) {
          if ((l.stream == exec::LaunchStream::Tail) == tail) launches.push_back(std::move(l));
        }
      }
    }
  }
  if (warpSync != nullptr) {
    result.warnings = warpSync->hazards();
    for (auto& [line, first] : grid.maskWarnings) result.warnings.push_back(first.second);
    for (std::string& w : coherence->hazards()) result.warnings.push_back(std::move(w));
    result.stats.warpSyncHazards = result.warnings.size();
  }
  for (std::string& line : grid.memcheckReports.lines(grid.failedCta.load()))
    result.warnings.push_back(std::move(line));
  result.stats.hostThreads = threads;
  result.stats.simulationSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace ptxsim::sim
