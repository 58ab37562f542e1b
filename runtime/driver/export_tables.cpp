// The private tables of the driver that NVIDIA's CUDA runtime uses when it
// is linked statically into a program. Each is an array of pointers; where
// the first entry is the table's size in bytes, the runtime checks it.
// ptxsim provides what the CUDA 13 runtime needs to start, register its
// fat binaries and launch: the runtime interface (its primary context and
// modules from the fat binaries nvcc embeds), the profiler hooks (no
// profiler: no-ops), the tools' current context, context-local storage,
// the context checks and the integrity check (integrity_check.h); and the
// part known of the context and stream table NVIDIA's libraries use.

#include "export_tables.h"

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <utility>

#include "driver_errors.h"
#include "driver_state.h"
#include "integrity_check.h"

namespace ptxsim::driver {

namespace {

ExportEntry sizeEntry(size_t entries) { return reinterpret_cast<ExportEntry>(entries * sizeof(ExportEntry)); }

// nvcc's wrapper around an embedded fat binary (__fatbinwrap).
struct FatbinWrapper {
  int magic;
  int version;
  const void* data;
  void* filenameOrFatbins;
};

// The runtime interface (6bd5fb6c-5bf4-e74a-8987-d93912fd9df9).

CUresult moduleFromWrapper(CUmodule* module, const FatbinWrapper* wrapper) {
  if (module == nullptr || wrapper == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return cuModuleLoadFatBinary(module, wrapper);
}

CUresult primaryContext(CUcontext* context, CUdevice device) {
  return cuDevicePrimaryCtxRetain(context, device);
}

CUresult moduleFromWrapperExt1(CUmodule* module, const FatbinWrapper* wrapper, void*, void*, unsigned) {
  return moduleFromWrapper(module, wrapper);
}

CUresult runtimeInterfaceSlot7(size_t) { return CUDA_SUCCESS; }

CUresult moduleFromFatbinExt2(const void* fatbin, CUmodule* module, void*, void*, unsigned) {
  if (module == nullptr || fatbin == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return cuModuleLoadFatBinary(module, fatbin);
}

// Asks the driver to load its JIT compilers; the simulator has none to load.
CUresult loadCompilers() { return CUDA_SUCCESS; }

// The profiler's callback hooks (a094798c-2e74-2e74-93f2-0800200c0a66):
// no profiler listens, so the callbacks do nothing; two entries hand the
// runtime scratch buffers of fixed sizes.
void toolsCallback(unsigned, void*) {}
void toolsSpan(void*, void*) {}
// The runtime calls the entries between them too (3 around managed-memory
// prefetches; 5 undocumented): nothing to do either.
void toolsNotify(void*, void*) {}

template <size_t Bytes>
void toolsBuffer(void** pointer, size_t* size) {
  static uint8_t buffer[Bytes] = {};
  if (pointer != nullptr) *pointer = buffer;
  if (size != nullptr) *size = Bytes;
}

// The tools' thread-local storage (42d85a81-23f6-cb47-8298-f6e78a3aecdc):
// the calling thread's current context.
CUresult toolsCurrentContext(CUcontext* context) {
  if (context == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *context = handle(driverState().current());
  return *context != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

// Context-local storage (c693336e-1121-df11-a8c3-68f355d89593): the
// runtime keeps its per-context state here. A null context is the current
// one.
const void* storageContext(CUcontext context) {
  return context != nullptr ? static_cast<const void*>(context) : driverState().current();
}

CUresult storagePut(CUcontext context, void* key, void* value, void*) {
  std::lock_guard lock(driverState().mutex());
  driverState().contextStorage()[{storageContext(context), key}] = value;
  return CUDA_SUCCESS;
}

CUresult storageDelete(CUcontext context, void* key) {
  std::lock_guard lock(driverState().mutex());
  driverState().contextStorage().erase({storageContext(context), key});
  return CUDA_SUCCESS;
}

CUresult storageGet(void** value, CUcontext context, void* key) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driverState().mutex());
  auto& storage = driverState().contextStorage();
  auto it = storage.find({storageContext(context), key});
  *value = it != storage.end() ? it->second : nullptr;
  return it != storage.end() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// Context checks (263e8860-7cd2-6143-92f6-bbd5006dfa7e): nothing to report
// (the second result is left as the caller set it).
CUresult contextCheck(CUcontext, unsigned* result, const void**) {
  if (result != nullptr) *result = 0;
  return CUDA_SUCCESS;
}
unsigned contextCheckFlags() { return 0; }

CUresult integrityCheck(unsigned version, uint64_t unixSeconds, uint64_t* result);

// The tables, built once.
struct Tables {
  ExportEntry runtimeInterface[13] = {sizeEntry(13),
                                      exportEntry(moduleFromWrapper),
                                      exportEntry(primaryContext),
                                      nullptr,
                                      nullptr,
                                      nullptr,
                                      exportEntry(moduleFromWrapperExt1),
                                      exportEntry(runtimeInterfaceSlot7),
                                      exportEntry(moduleFromFatbinExt2),
                                      nullptr,
                                      nullptr,
                                      nullptr,
                                      exportEntry(loadCompilers)};
  ExportEntry toolsHooks[7] = {sizeEntry(7),
                               exportEntry(toolsCallback),
                               exportEntry(toolsBuffer<1024>),
                               exportEntry(toolsNotify),
                               exportEntry(toolsSpan),
                               exportEntry(toolsNotify),
                               exportEntry(toolsBuffer<14>)};
  ExportEntry toolsThreadStorage[4] = {sizeEntry(4), nullptr, exportEntry(toolsCurrentContext), nullptr};
  ExportEntry contextStorage[4] = {exportEntry(storagePut), exportEntry(storageDelete),
                                   exportEntry(storageGet), nullptr};
  ExportEntry contextChecks[4] = {sizeEntry(4), nullptr, exportEntry(contextCheck),
                                  exportEntry(contextCheckFlags)};
  ExportEntry integrity[3] = {sizeEntry(3), exportEntry(integrityCheck), nullptr};
};

Tables& tables() {
  static Tables t;
  return t;
}

CUresult integrityCheck(unsigned version, uint64_t unixSeconds, uint64_t* result) {
  if (result == nullptr) return CUDA_ERROR_INVALID_VALUE;
  IntegrityInputs inputs;
  inputs.driverVersion = static_cast<uint32_t>(driverVersion());
  inputs.runtimeVersion = version;
  inputs.process = static_cast<uint32_t>(getpid());
  inputs.thread = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(reinterpret_cast<void*>(pthread_self())));
  inputs.cudartTable = tables().runtimeInterface;
  inputs.integrityTable = tables().integrity;
  inputs.function = reinterpret_cast<const void*>(&integrityCheck);
  inputs.unixSeconds = unixSeconds;
  int count = 0;
  if (CUresult r = cuDeviceGetCount(&count); r != CUDA_SUCCESS) return r;
  for (CUdevice d = 0; d < count; ++d) {
    DeviceIdentity identity;
    CUuuid uuid{};
    if (CUresult r = cuDeviceGetUuid_v2(&uuid, d); r != CUDA_SUCCESS) return r;
    std::memcpy(identity.uuid, uuid.bytes, sizeof identity.uuid);
    cuDeviceGetAttribute(&identity.pciDomain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
    cuDeviceGetAttribute(&identity.pciBus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
    cuDeviceGetAttribute(&identity.pciDevice, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
    inputs.devices.push_back(identity);
  }
  std::array<uint64_t, 2> words = integrityResponse(inputs);
  result[0] = words[0];
  result[1] = words[1];
  return CUDA_SUCCESS;
}

}  // namespace

const void* exportTable(const CUuuid& id) {
  struct Row {
    uint8_t id[16];
    const void* table;
  };
  Tables& t = tables();
  const Row rows[] = {
      {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
       t.runtimeInterface},
      {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
       t.toolsHooks},
      {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
       t.toolsThreadStorage},
      {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
       t.contextStorage},
      {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
       t.contextChecks},
      {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
       t.integrity},
      {{0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2},
       libraryContextTable()},
      {{0x6e, 0x16, 0x3f, 0xbe, 0xb9, 0x58, 0x44, 0x4d, 0x83, 0x5c, 0xe1, 0x82, 0xaf, 0xf1, 0x99, 0x1e},
       libraryFunctionTable()},
  };
  for (const Row& row : rows) {
    if (std::memcmp(row.id, id.bytes, sizeof row.id) == 0) return row.table;
  }
  return nullptr;
}

}  // namespace ptxsim::driver

DRIVER_EXPORT CUresult cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId) {
  if (ppExportTable == nullptr || pExportTableId == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = ptxsim::driver::exportTable(*pExportTableId);
  // Every static runtime asks for tables it can do without (f8cff951...).
  return *ppExportTable != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
