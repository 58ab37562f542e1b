#include "ptxsim/runtime/device.h"

#include <cinttypes>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ptxsim/isa/lower.h"

namespace ptxsim {

namespace {

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

}  // namespace

Device::Device(sim::GpuConfig config, DeviceOptions options) : gpu_(std::move(config)), options_(options) {
  launchOptions_.hostThreads = options.hostThreads;
}

Device::~Device() { synchronize(); }

std::shared_ptr<sim::LoadedModule> Device::loadModule(std::string_view ptx, std::string_view name,
                                                      const ManagedPlacement& hostMemoryFor) {
  isa::CompileResult compiled;
  runtime::ComputeCache* cache = options_.computeCache.get();
  runtime::ComputeCache::Entry entry;
  if (cache != nullptr) {
    entry = cache->entryFor(ptx);
    compiled.module = cache->find(entry);
  }
  if (compiled.module == nullptr) {
    compiled = isa::compilePtx(ptx);
    if (compiled.ok() && cache != nullptr) cache->store(entry, *compiled.module);
  }
  if (!compiled.ok()) {
    std::string text;
    for (const isa::Diagnostic& d : compiled.errors) {
      text += std::string(name) + ":" + std::to_string(d.where.line) + ":" + std::to_string(d.where.column) +
              ": error: " + d.message + "\n";
    }
    throw Error(text);
  }
  std::map<std::string, uint8_t*> hostBacked;
  if (hostMemoryFor) {
    for (const isa::Variable& v : compiled.module->globals) {
      if (!v.isManaged) continue;
      if (uint8_t* memory = hostMemoryFor(v)) hostBacked[v.name] = memory;
    }
  }
  std::vector<std::string> errors;
  auto loaded = gpu_.load(compiled.module, options_.moduleLoading, errors, hostBacked);
  if (loaded == nullptr) {
    std::string text;
    for (const std::string& e : errors) text += std::string(name) + ": error: " + e + "\n";
    throw Error(text);
  }
  return loaded;
}

std::shared_ptr<sim::LoadedModule> Device::loadModuleFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": error: cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return loadModule(buffer.str(), path);
}

uint64_t Device::malloc(uint64_t bytes) {
  if (bytes > gpu_.config().globalMemoryBytes) {
    throw Error("malloc of " + std::to_string(bytes) + " bytes exceeds the device's memory");
  }
  // 512 bytes, as cudaMalloc on a GPU: its pointers meet textureAlignment, so they bind to textures.
  return gpu_.allocations().allocate(bytes, 512, memory::AllocationKind::Device).base;
}

void Device::free(uint64_t address) {
  if (address == 0) return;
  const memory::Allocation* a = allocationAt(address);
  if (a == nullptr || a->base != address || a->host != nullptr) {
    throw Error("free(" + hex(address) + "): not the start of a live device allocation");
  }
  auto gone = gpu_.allocations().release(address);
  gpu_.store().release(gone->base, gone->size);
}

void Device::remap(uint64_t address) {
  if (!gpu_.allocations().restore(address)) {
    throw Error("remap(" + hex(address) + "): not the start of a freed device allocation");
  }
}

uint64_t Device::reserveAddresses(uint64_t bytes, uint64_t alignment) {
  try {
    return gpu_.allocations().reserve(bytes, alignment);
  } catch (const std::exception& e) {
    throw Error(std::string("reserving addresses: ") + e.what());
  }
}

void Device::mapAt(uint64_t address, uint64_t bytes) {
  if (bytes > gpu_.config().globalMemoryBytes) {
    throw Error("mapping of " + std::to_string(bytes) + " bytes exceeds the device's memory");
  }
  try {
    gpu_.allocations().allocateAt(address, bytes, memory::AllocationKind::Device);
  } catch (const std::exception& e) {
    throw Error("mapping at " + hex(address) + ": " + e.what());
  }
}

void Device::checkRange(uint64_t address, uint64_t bytes, const char* what) const {
  if (bytes == 0) return;
  memory::AccessCheck check = const_cast<sim::Gpu&>(gpu_).allocations().check(address, bytes);
  if (check.status != memory::AccessStatus::Ok) {
    throw Error(std::string(what) + ": " + std::to_string(bytes) + " bytes at " + hex(address) +
                " are not inside one live device allocation");
  }
}

const memory::Allocation* Device::allocationAt(uint64_t address) const {
  return const_cast<sim::Gpu&>(gpu_).allocations().find(address);
}

void Device::registerHostMemory(void* base, uint64_t bytes, memory::AllocationKind kind) {
  if (!gpu_.allocations().addHostRange(static_cast<uint8_t*>(base), bytes, kind)) {
    throw Error("host memory at " + hex(reinterpret_cast<uint64_t>(base)) +
                " overlaps the simulated device's address ranges");
  }
}

void Device::forgetHostMemory(void* base) {
  if (!gpu_.allocations().release(reinterpret_cast<uint64_t>(base))) {
    throw Error("free of host memory at " + hex(reinterpret_cast<uint64_t>(base)) + " that was not registered");
  }
}

// Ranges checked by the caller lie in one allocation: host-backed ones are
// plain host memory, the others live in the page store.
void Device::readBytes(uint64_t source, void* destination, uint64_t bytes) {
  const memory::Allocation* a = allocationAt(source);
  if (a != nullptr && a->host != nullptr) {
    std::memcpy(destination, a->host + (source - a->base), bytes);
  } else {
    gpu_.store().read(source, destination, bytes);
  }
}

void Device::writeBytes(uint64_t destination, const void* source, uint64_t bytes) {
  const memory::Allocation* a = allocationAt(destination);
  if (a != nullptr && a->host != nullptr) {
    std::memcpy(a->host + (destination - a->base), source, bytes);
  } else {
    gpu_.store().write(destination, source, bytes);
  }
}

bool Device::inDeviceMemory(uint64_t address) const {
  const memory::Allocation* a = allocationAt(address);
  return a != nullptr && a->host == nullptr;
}

// Copies leave lines in the GPU's L2 as its copy engines move them
// (sim::CopyEngineRange, timing::CopyEngineLog): host memory pinned or
// managed is host memory here too, whichever call copies it.
void Device::copyToDevice(uint64_t destination, const void* source, uint64_t bytes) {
  checkRange(destination, bytes, "copy to device");
  writeBytes(destination, source, bytes);
  if (inDeviceMemory(destination))
    gpu_.copyEngineMoved({sim::CopyEngineRange::Kind::FromHost, destination, bytes});
}

void Device::copyToHost(void* destination, uint64_t source, uint64_t bytes) {
  checkRange(source, bytes, "copy to host");
  readBytes(source, destination, bytes);
  if (inDeviceMemory(source)) gpu_.copyEngineMoved({sim::CopyEngineRange::Kind::ToHost, source, bytes});
}

void Device::copyOnDevice(uint64_t destination, uint64_t source, uint64_t bytes) {
  checkRange(source, bytes, "device copy source");
  checkRange(destination, bytes, "device copy destination");
  std::vector<uint8_t> staging(bytes);
  readBytes(source, staging.data(), bytes);
  writeBytes(destination, staging.data(), bytes);
  using Kind = sim::CopyEngineRange::Kind;
  const bool fromDevice = inDeviceMemory(source), toDevice = inDeviceMemory(destination);
  if (fromDevice && toDevice)
    gpu_.copyEngineMoved({Kind::DeviceCopy, destination, bytes, source});
  else if (toDevice)
    gpu_.copyEngineMoved({Kind::FromHost, destination, bytes});
  else if (fromDevice)
    gpu_.copyEngineMoved({Kind::ToHost, source, bytes});
}

void Device::memset(uint64_t destination, uint8_t value, uint64_t bytes) {
  checkRange(destination, bytes, "memset");
  const memory::Allocation* a = allocationAt(destination);
  if (a != nullptr && a->host != nullptr) {
    std::memset(a->host + (destination - a->base), value, bytes);
  } else {
    gpu_.store().fill(destination, value, bytes);
    // A memset's bytes stay in the GPU's L2, dirty (the H200's
    // write_back_fate_probe: the launch after the memsets writes 27.5 MB of
    // them back).
    gpu_.copyEngineMoved({sim::CopyEngineRange::Kind::Fill, destination, bytes});
  }
}

uint64_t Device::symbolAddress(const sim::LoadedModule& module, std::string_view name, uint64_t* size) const {
  uint64_t address = 0, bytes = 0;
  if (!module.variable(name, address, bytes)) {
    throw Error("no module variable named '" + std::string(name) + "' in device memory");
  }
  if (size != nullptr) *size = bytes;
  return address;
}

sim::LaunchResult Device::launch(sim::LoadedModule& module, std::string_view kernel, sim::Dim3 grid,
                                 sim::Dim3 block, uint32_t dynamicSharedBytes, const KernelArgs& args,
                                 bool cooperative, sim::Dim3 cluster, bool nonPortableClusterSize) {
  const isa::Function* fn = module.module().findFunction(kernel);
  if (fn == nullptr || !fn->isKernel) throw Error("no kernel named '" + std::string(kernel) + "' in the module");
  if (args.values().size() != fn->params.size()) {
    throw Error("kernel " + fn->name + " takes " + std::to_string(fn->params.size()) + " arguments, " +
                std::to_string(args.values().size()) + " given");
  }
  sim::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = dynamicSharedBytes;
  config.cooperative = cooperative;
  config.cluster = cluster;
  config.nonPortableClusterSize = nonPortableClusterSize;
  config.parameters.assign(fn->paramBytes, 0);
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const isa::Parameter& p = fn->params[i];
    const std::vector<uint8_t>& value = args.values()[i];
    if (value.size() != p.size) {
      throw Error("argument " + std::to_string(i) + " of " + fn->name + " has " + std::to_string(value.size()) +
                  " bytes; parameter " + p.name + " takes " + std::to_string(p.size));
    }
    std::memcpy(config.parameters.data() + p.offset, value.data(), value.size());
  }
  sim::LaunchResult result = gpu_.launch(module, kernel, config, launchOptions_);
  pendingPrintf_ += result.printfOutput;
  stats_.push_back(result.stats);
  stats_.insert(stats_.end(), result.deviceLaunches.begin(), result.deviceLaunches.end());
  return result;
}

std::string Device::takePrintfOutput() {
  std::string out;
  out.swap(pendingPrintf_);
  return out;
}

void Device::synchronize() {
  if (pendingPrintf_.empty()) return;
  std::ostream& out = options_.printfOutput != nullptr ? *options_.printfOutput : std::cout;
  out << pendingPrintf_;
  out.flush();
  pendingPrintf_.clear();
}

}  // namespace ptxsim
