// cuGetProcAddress: every driver function by name and CUDA version, as the
// CUDA runtime (static or shared) and libraries look them up. Which
// exported symbol answers a name at a version comes from the CUDA headers
// (generate_proc_table.py); the address is that of the symbol this library
// exports, implemented or a stub, so the two can never disagree.

#include <dlfcn.h>

#include <cstring>
#include <string_view>

#include "driver_api.h"
#include "ptxsim/runtime/logging.h"

namespace {

struct ProcEntry {
  const char* name;
  int version;               // the CUDA version that introduced this signature
  const char* symbol;        // the exported symbol with it
  const char* perThreadSymbol;  // its per-thread default stream form, or null
};

constexpr ProcEntry kProcTable[] = {
#include "proc_address_table.inc"
};

// This library, to look its own symbols up.
void* self() {
  static void* handle = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuGetProcAddress_v2), &info) == 0) return static_cast<void*>(nullptr);
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return handle;
}

}  // namespace

DRIVER_EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                                           CUdriverProcAddressQueryResult* symbolStatus) {
  if (symbol == nullptr || pfn == nullptr) return CUDA_ERROR_INVALID_VALUE;
  constexpr cuuint64_t kKnownFlags = CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  if ((flags & ~kKnownFlags) != 0) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const ProcEntry* best = nullptr;
  bool known = false;
  for (const ProcEntry& e : kProcTable) {
    if (std::string_view(e.name) != symbol) continue;
    known = true;
    if (e.version <= cudaVersion && (best == nullptr || e.version > best->version)) best = &e;
  }
  // A symbol not found is an error only to a caller that asks for no
  // status; with one, the status says so and the call succeeds (the
  // runtime's cudaGetDriverEntryPoint reports cudaSuccess, measured).
  if (best == nullptr) {
    // What a library looks for and does not find is often why it fails.
    ptxsim::runtime::logger("driver")->debug("cuGetProcAddress: {} (CUDA {}) not found{}", symbol, cudaVersion,
                                             known ? ": only in a newer CUDA version" : "");
    if (symbolStatus == nullptr) return CUDA_ERROR_NOT_FOUND;
    *symbolStatus = known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_SUCCESS;
  }
  const char* name = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0 && best->perThreadSymbol != nullptr
                         ? best->perThreadSymbol
                         : best->symbol;
  *pfn = self() != nullptr ? dlsym(self(), name) : nullptr;
  if (*pfn == nullptr) {
    if (symbolStatus == nullptr) return CUDA_ERROR_NOT_FOUND;
    *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_SUCCESS;
  }
  if (symbolStatus != nullptr) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, nullptr);
}
