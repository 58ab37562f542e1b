#pragma once

// The C++ host API: load PTX modules, manage device memory, launch kernels
// and read their statistics. Tests, tools and the cudart shim use this
// class; it is a thin layer over sim::Gpu that checks its arguments and
// keeps CUDA's host-side behaviour (printf output flushed at
// synchronisation, one statistics record per launch).

#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ptxsim/runtime/compute_cache.h"
#include "ptxsim/sim/gpu.h"

namespace ptxsim {

// Wrong use of the API (a bad pointer, an unknown kernel or symbol, a module
// that fails to load). The message says what and where.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Kernel arguments in order, each as the bytes of its value; the launch
// places them at the kernel's parameter offsets and checks their sizes.
class KernelArgs {
 public:
  template <typename T>
  KernelArgs& add(const T& value) {
    std::vector<uint8_t> bytes(sizeof(T));
    std::memcpy(bytes.data(), &value, sizeof(T));
    values_.push_back(std::move(bytes));
    return *this;
  }
  KernelArgs& addBytes(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    values_.emplace_back(p, p + size);
    return *this;
  }
  const std::vector<std::vector<uint8_t>>& values() const { return values_; }

 private:
  std::vector<std::vector<uint8_t>> values_;
};

struct DeviceOptions {
  unsigned hostThreads = 0;  // 0: every core
  std::ostream* printfOutput = nullptr;  // where device printf goes at synchronisation; null: stdout
  // Lazy, as CUDA by default: a kernel the simulator cannot execute fails
  // when it is launched (its LaunchResult's error is InvalidPtx, naming
  // each instruction), and the module's other kernels run. Eager: the
  // module load fails instead (CUDA_MODULE_LOADING=EAGER).
  sim::ModuleLoading moduleLoading = sim::ModuleLoading::Lazy;
  // Where lowered modules are kept between runs (compute_cache.h); null:
  // every load parses its PTX.
  std::shared_ptr<runtime::ComputeCache> computeCache = nullptr;
};

class Device {
 public:
  explicit Device(sim::GpuConfig config = {}, DeviceOptions options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  sim::Gpu& gpu() { return gpu_; }
  const sim::GpuConfig& config() const { return gpu_.config(); }

  // Modules. Errors (syntax; unsupported instructions, with eager loading)
  // throw Error with one "NAME:LINE:COL: error: ..." line per problem.
  // `hostMemoryFor`, if given, is asked for host memory of each __managed__
  // variable (.attribute(.managed)) to place it in, so host code can use it.
  using ManagedPlacement = std::function<uint8_t*(const isa::Variable&)>;
  std::shared_ptr<sim::LoadedModule> loadModule(std::string_view ptx, std::string_view name = "<ptx>",
                                                const ManagedPlacement& hostMemoryFor = {});
  std::shared_ptr<sim::LoadedModule> loadModuleFile(const std::string& path);

  // Device memory.
  uint64_t malloc(uint64_t bytes);
  void free(uint64_t address);
  // Maps a freed allocation again at its own address, with undefined
  // contents (graph memory nodes keep their address across launches).
  void remap(uint64_t address);
  // Virtual memory management: addresses set aside, and device memory
  // placed inside them (freed with free()).
  uint64_t reserveAddresses(uint64_t bytes, uint64_t alignment);
  void mapAt(uint64_t address, uint64_t bytes);
  void copyToDevice(uint64_t destination, const void* source, uint64_t bytes);
  void copyToHost(void* destination, uint64_t source, uint64_t bytes);
  void copyOnDevice(uint64_t destination, uint64_t source, uint64_t bytes);
  void memset(uint64_t destination, uint8_t value, uint64_t bytes);

  template <typename T>
  std::vector<T> read(uint64_t source, size_t count) {
    std::vector<T> out(count);
    copyToHost(out.data(), source, count * sizeof(T));
    return out;
  }
  template <typename T>
  void write(uint64_t destination, const std::vector<T>& values) {
    copyToDevice(destination, values.data(), values.size() * sizeof(T));
  }
  template <typename T>
  uint64_t upload(const std::vector<T>& values) {
    uint64_t address = malloc(values.size() * sizeof(T));
    write(address, values);
    return address;
  }

  // Host memory that kernels access at the same addresses (managed and
  // pinned memory). The caller owns the bytes; forgetHostMemory() before
  // releasing them.
  void registerHostMemory(void* base, uint64_t bytes, memory::AllocationKind kind);
  void forgetHostMemory(void* base);

  // The live allocation containing `address`, or null.
  const memory::Allocation* allocationAt(uint64_t address) const;

  // A module-scope .global or .const variable.
  uint64_t symbolAddress(const sim::LoadedModule& module, std::string_view name, uint64_t* size = nullptr) const;

  // Runs the kernel to completion. A fault in the kernel is returned in the
  // result's error, not thrown; device printf output waits for synchronize().
  // `cooperative`: as cudaLaunchCooperativeKernel; `cluster`: the launch's
  // thread block cluster shape, zeros for none, and whether it may exceed 8
  // CTAs (sim::LaunchConfig).
  sim::LaunchResult launch(sim::LoadedModule& module, std::string_view kernel, sim::Dim3 grid,
                           sim::Dim3 block, uint32_t dynamicSharedBytes, const KernelArgs& args,
                           bool cooperative = false, sim::Dim3 cluster = {0, 0, 0},
                           bool nonPortableClusterSize = false);

  // Writes pending device printf output, as cudaDeviceSynchronize does.
  void synchronize();
  std::string takePrintfOutput();

  const std::vector<sim::KernelStats>& launchStats() const { return stats_; }
  sim::LaunchOptions& launchOptions() { return launchOptions_; }

 private:
  void checkRange(uint64_t address, uint64_t bytes, const char* what) const;
  void readBytes(uint64_t source, void* destination, uint64_t bytes);
  void writeBytes(uint64_t destination, const void* source, uint64_t bytes);
  // Whether `address` (checked) lies in device memory, not host memory the
  // device reaches (pinned, managed): only its lines pass through the L2.
  bool inDeviceMemory(uint64_t address) const;

  sim::Gpu gpu_;
  DeviceOptions options_;
  sim::LaunchOptions launchOptions_;
  std::string pendingPrintf_;
  std::vector<sim::KernelStats> stats_;
};

}  // namespace ptxsim
