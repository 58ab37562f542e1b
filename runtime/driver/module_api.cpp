// Modules, libraries, kernels and functions. A module is the runtime's
// library record (cudaLibraryLoadData's), so both APIs load code the same
// way: PTX text, a fat binary or nvcc's fat binary wrapper, parsed once and
// prepared kernel by kernel at first use (CUDA's lazy loading). A CUmodule
// is the same handle as its CUlibrary, and a CUfunction as its CUkernel:
// the address the runtime registered the kernel under, which the runtime's
// launch calls accept too.

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

#include "driver_api.h"
#include "driver_state.h"
#include "ptxsim/runtime/fatbin.h"
#include "shim_state.h"

using ptxsim::driver::viaRuntime;

namespace {

cudaLibrary_t library(CUmodule module) { return reinterpret_cast<cudaLibrary_t>(module); }
cudaLibrary_t library(CUlibrary lib) { return reinterpret_cast<cudaLibrary_t>(lib); }
const void* function(CUfunction f) { return reinterpret_cast<const void*>(f); }

// A module's code is checked when it is loaded (cuModuleLoad* compile
// their PTX then); a library's only when a kernel of it is first used. A
// module that fails is unloaded, its messages kept in `log`.
CUresult checkLoaded(cudaLibrary_t lib, std::string& log) {
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  auto it = s.libraries().find(lib);
  if (it == s.libraries().end() || it->second.loadError == cudaSuccess) return CUDA_SUCCESS;
  cudaError_t error = it->second.loadError;
  log = it->second.image->loadError;
  s.dropImage(it->second.image);
  s.libraries().erase(it);
  return ptxsim::driver::toDriverResult(error);
}

// The JIT's logs, as cuModuleLoadDataEx's options ask for them: the
// simulator's messages about the module go to the error log, truncated to
// the buffer (the size option then says how much was written).
void writeLogs(const std::string& errors, unsigned numOptions, const CUjit_option* options, void** values) {
  for (unsigned i = 0; i < numOptions; ++i) {
    bool errorLog = options[i] == CU_JIT_ERROR_LOG_BUFFER, infoLog = options[i] == CU_JIT_INFO_LOG_BUFFER;
    if (!errorLog && !infoLog) continue;
    CUjit_option sizeOption = errorLog ? CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES : CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    for (unsigned j = 0; j < numOptions; ++j) {
      if (options[j] != sizeOption || values[i] == nullptr) continue;
      auto capacity = static_cast<size_t>(reinterpret_cast<uintptr_t>(values[j]));
      if (capacity == 0) continue;
      const std::string& text = errorLog ? errors : std::string();
      size_t n = std::min(text.size(), capacity - 1);
      std::memcpy(values[i], text.data(), n);
      static_cast<char*>(values[i])[n] = '\0';
      values[j] = reinterpret_cast<void*>(static_cast<uintptr_t>(n));
    }
  }
}

// Whether the image is of a kind a module is loaded from: a fat binary (or
// nvcc's wrapper of one), an ELF file, or text with a .version directive.
// Anything else the driver refuses as CUDA_ERROR_INVALID_IMAGE, where PTX
// that does not compile is CUDA_ERROR_INVALID_PTX (measured on an H100).
bool recognizedImage(const void* image) {
  const auto* bytes = static_cast<const uint8_t*>(image);
  const uint32_t magics[] = {ptxsim::runtime::kFatbinMagic, ptxsim::runtime::kFatbinWrapperMagic, 0x464c457fu};
  uint32_t first = 0;
  for (int i = 0; i < 4 && bytes[i] != 0; ++i) first |= static_cast<uint32_t>(bytes[i]) << (8 * i);
  if (std::find(std::begin(magics), std::end(magics), first) != std::end(magics)) return true;
  return std::strstr(static_cast<const char*>(image), ".version") != nullptr;
}

// A module from the runtime's library load `load` makes: checked now, as
// a module's code is, its messages kept in `log`.
template <typename Load>
CUresult moduleFrom(Load&& load, CUmodule* module, std::string& log) {
  cudaLibrary_t lib = nullptr;
  CUresult r = viaRuntime([&] { return load(&lib); });
  if (r == CUDA_SUCCESS) r = checkLoaded(lib, log);
  if (r == CUDA_SUCCESS) *module = reinterpret_cast<CUmodule>(lib);
  return r;
}

CUresult loadModule(CUmodule* module, const void* image, unsigned numOptions = 0, CUjit_option* options = nullptr,
                    void** optionValues = nullptr) {
  if (module == nullptr || image == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!recognizedImage(image)) return CUDA_ERROR_INVALID_IMAGE;
  // JIT options tune ptxas, which the simulator does not run; only the
  // log buffers are filled.
  if (numOptions != 0 && (options == nullptr || optionValues == nullptr)) return CUDA_ERROR_INVALID_VALUE;
  std::string log;
  CUresult r = moduleFrom(
      [&](cudaLibrary_t* lib) { return cudaLibraryLoadData(lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0); },
      module, log);
  writeLogs(log, numOptions, options, optionValues);
  return r;
}

}  // namespace

DRIVER_EXPORT CUresult cuModuleLoadData(CUmodule* module, const void* image) { return loadModule(module, image); }

DRIVER_EXPORT CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions,
                                          CUjit_option* options, void** optionValues) {
  return loadModule(module, image, numOptions, options, optionValues);
}

DRIVER_EXPORT CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  return loadModule(module, fatCubin);
}

DRIVER_EXPORT CUresult cuModuleLoad(CUmodule* module, const char* fname) {
  if (module == nullptr || fname == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::string log;
  return moduleFrom(
      [&](cudaLibrary_t* lib) {
        return cudaLibraryLoadFromFile(lib, fname, nullptr, nullptr, 0, nullptr, nullptr, 0);
      },
      module, log);
}

DRIVER_EXPORT CUresult cuModuleUnload(CUmodule hmod) {
  return viaRuntime([&] { return cudaLibraryUnload(library(hmod)); });
}

DRIVER_EXPORT CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  if (hfunc == nullptr || name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime(
      [&] { return cudaLibraryGetKernel(reinterpret_cast<cudaKernel_t*>(hfunc), library(hmod), name); });
}

DRIVER_EXPORT CUresult cuModuleGetFunctionCount(unsigned int* count, CUmodule mod) {
  return viaRuntime([&] { return cudaLibraryGetKernelCount(count, library(mod)); });
}

DRIVER_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction* functions, unsigned int numFunctions, CUmodule mod) {
  return viaRuntime([&] {
    return cudaLibraryEnumerateKernels(reinterpret_cast<cudaKernel_t*>(functions), numFunctions, library(mod));
  });
}

DRIVER_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name) {
  void* address = nullptr;
  CUresult r = viaRuntime([&] { return cudaLibraryGetGlobal(&address, bytes, library(hmod), name); });
  if (r == CUDA_SUCCESS && dptr != nullptr) *dptr = ptxsim::driver::devicePointer(address);
  return r;
}

DRIVER_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  if (mode == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char* setting = std::getenv("CUDA_MODULE_LOADING");
  *mode = setting != nullptr && std::strcmp(setting, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING
                                                                    : CU_MODULE_LAZY_LOADING;
  return CUDA_SUCCESS;
}

// Libraries (context-independent modules).

DRIVER_EXPORT CUresult cuLibraryLoadData(CUlibrary* lib, const void* code, CUjit_option* jitOptions,
                                         void** jitOptionsValues, unsigned int numJitOptions,
                                         CUlibraryOption* libraryOptions, void** libraryOptionValues,
                                         unsigned int numLibraryOptions) {
  return viaRuntime([&] {
    return cudaLibraryLoadData(reinterpret_cast<cudaLibrary_t*>(lib), code,
                               reinterpret_cast<cudaJitOption*>(jitOptions), jitOptionsValues, numJitOptions,
                               reinterpret_cast<cudaLibraryOption*>(libraryOptions), libraryOptionValues,
                               numLibraryOptions);
  });
}

DRIVER_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary* lib, const char* fileName, CUjit_option* jitOptions,
                                             void** jitOptionsValues, unsigned int numJitOptions,
                                             CUlibraryOption* libraryOptions, void** libraryOptionValues,
                                             unsigned int numLibraryOptions) {
  return viaRuntime([&] {
    return cudaLibraryLoadFromFile(reinterpret_cast<cudaLibrary_t*>(lib), fileName,
                                   reinterpret_cast<cudaJitOption*>(jitOptions), jitOptionsValues, numJitOptions,
                                   reinterpret_cast<cudaLibraryOption*>(libraryOptions), libraryOptionValues,
                                   numLibraryOptions);
  });
}

DRIVER_EXPORT CUresult cuLibraryUnload(CUlibrary lib) {
  return viaRuntime([&] { return cudaLibraryUnload(library(lib)); });
}

DRIVER_EXPORT CUresult cuLibraryGetKernel(CUkernel* pKernel, CUlibrary lib, const char* name) {
  return viaRuntime(
      [&] { return cudaLibraryGetKernel(reinterpret_cast<cudaKernel_t*>(pKernel), library(lib), name); });
}

DRIVER_EXPORT CUresult cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  return viaRuntime([&] { return cudaLibraryGetKernelCount(count, library(lib)); });
}

DRIVER_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel* kernels, unsigned int numKernels, CUlibrary lib) {
  return viaRuntime([&] {
    return cudaLibraryEnumerateKernels(reinterpret_cast<cudaKernel_t*>(kernels), numKernels, library(lib));
  });
}

DRIVER_EXPORT CUresult cuLibraryGetModule(CUmodule* pMod, CUlibrary lib) {
  if (pMod == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  auto it = s.libraries().find(library(lib));
  if (it == s.libraries().end()) return CUDA_ERROR_INVALID_HANDLE;
  if (it->second.loadError != cudaSuccess) return ptxsim::driver::toDriverResult(it->second.loadError);
  *pMod = reinterpret_cast<CUmodule>(lib);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary lib, const char* name) {
  void* address = nullptr;
  CUresult r = viaRuntime([&] { return cudaLibraryGetGlobal(&address, bytes, library(lib), name); });
  if (r == CUDA_SUCCESS && dptr != nullptr) *dptr = ptxsim::driver::devicePointer(address);
  return r;
}

DRIVER_EXPORT CUresult cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  if (pFunc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(ptxsim::cudart::shimState().mutex());
  if (ptxsim::cudart::shimState().kernel(kernel) == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  *pFunc = reinterpret_cast<CUfunction>(kernel);
  return CUDA_SUCCESS;
}

// Functions (and kernels: the same handle).

DRIVER_EXPORT CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  if (pi == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaFuncAttributes attributes{};
  CUresult r = viaRuntime([&] { return cudaFuncGetAttributes(&attributes, function(hfunc)); });
  if (r != CUDA_SUCCESS) return r;
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = attributes.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = static_cast<int>(attributes.sharedSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = static_cast<int>(attributes.constSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = static_cast<int>(attributes.localSizeBytes); break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = attributes.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = attributes.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = attributes.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = attributes.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = attributes.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = attributes.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = attributes.clusterDimMustBeSet; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = attributes.requiredClusterWidth; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = attributes.requiredClusterHeight; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = attributes.requiredClusterDepth; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = attributes.nonPortableClusterSizeAllowed; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      *pi = attributes.clusterSchedulingPolicyPreference;
      break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  // The settable attributes number alike in both APIs (cudaFuncAttribute starts at 8).
  return viaRuntime(
      [&] { return cudaFuncSetAttribute(function(hfunc), static_cast<cudaFuncAttribute>(attrib), value); });
}

DRIVER_EXPORT CUresult cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncGetAttribute(pi, attrib, reinterpret_cast<CUfunction>(kernel));
}

DRIVER_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetAttribute(reinterpret_cast<CUfunction>(kernel), attrib, val);
}

DRIVER_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  return viaRuntime([&] { return cudaFuncSetCacheConfig(function(hfunc), static_cast<cudaFuncCache>(config)); });
}

DRIVER_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(kernel), config);
}

DRIVER_EXPORT CUresult cuFuncGetName(const char** name, CUfunction hfunc) {
  return viaRuntime([&] { return cudaFuncGetName(name, function(hfunc)); });
}

DRIVER_EXPORT CUresult cuKernelGetName(const char** name, CUkernel hfunc) {
  return cuFuncGetName(name, reinterpret_cast<CUfunction>(hfunc));
}

DRIVER_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset,
                                          size_t* paramSize) {
  return viaRuntime([&] { return cudaFuncGetParamInfo(function(func), paramIndex, paramOffset, paramSize); });
}

DRIVER_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset,
                                            size_t* paramSize) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(kernel), paramIndex, paramOffset, paramSize);
}

DRIVER_EXPORT CUresult cuFuncGetModule(CUmodule* hmod, CUfunction hfunc) {
  if (hmod == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
  std::lock_guard lock(s.mutex());
  const ptxsim::cudart::KernelRecord* k = s.kernel(function(hfunc));
  if (k == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  for (const auto& [handle, lib] : s.libraries()) {
    if (lib.image == k->fatbin) {
      *hmod = reinterpret_cast<CUmodule>(handle);
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_NOT_FOUND;  // a kernel the runtime registered, of no module
}

DRIVER_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction function) {
  if (state == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(ptxsim::cudart::shimState().mutex());
  if (ptxsim::cudart::shimState().kernel(function) == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  *state = CU_FUNCTION_LOADING_STATE_LOADED;  // its module was read when it was loaded
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuFuncLoad(CUfunction function) {
  CUfunctionLoadingState state{};
  return cuFuncIsLoaded(&state, function);
}

DRIVER_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary lib, const char* name) {
  void* address = nullptr;
  CUresult r = viaRuntime([&] { return cudaLibraryGetManaged(&address, bytes, library(lib), name); });
  if (r == CUDA_SUCCESS && dptr != nullptr) *dptr = ptxsim::driver::devicePointer(address);
  return r;
}
