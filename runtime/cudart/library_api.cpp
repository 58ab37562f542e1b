// Device code loaded at run time (the programming guide's JIT path):
// cudaLibraryLoadData/LoadFromFile with PTX text or a fat binary, its
// kernels as cudaKernel_t handles that cudaLaunchKernel and the cudaFunc*
// calls accept, and its globals. The simulator runs PTX, so an image of
// machine code only (a cubin, or a fat binary without PTX) is refused.

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::FatbinRecord;
using ptxsim::cudart::LibraryRecord;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

constexpr unsigned char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};

// The architecture a PTX text targets (`.target sm_90a` -> 90); 0 if none.
uint32_t ptxTarget(const std::string& ptx) {
  size_t at = ptx.find(".target");
  if (at == std::string::npos) return 0;
  at = ptx.find("sm_", at);
  return at == std::string::npos ? 0 : static_cast<uint32_t>(std::strtoul(ptx.c_str() + at + 3, nullptr, 10));
}

// Byte by byte, so a short NUL-terminated text is not read past its end
// (no magic holds a zero byte).
bool startsWith(const uint8_t* image, size_t bytes, const void* magic, size_t magicBytes) {
  if (bytes < magicBytes) return false;
  for (size_t i = 0; i < magicBytes; ++i) {
    if (image[i] != static_cast<const uint8_t*>(magic)[i]) return false;
  }
  return true;
}

// The shared library whose memory holds `image` ("libcufft.so.12"), or
// empty when it is the program's own or the caller's buffer.
std::string libraryHolding(const void* image) {
  Dl_info info{};
  if (dladdr(image, &info) == 0 || info.dli_fname == nullptr) return {};
  std::string path = info.dli_fname;
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.find(".so") != std::string::npos ? name : std::string{};
}

// What to do about a fat binary of machine code only: rebuild a program;
// run a library, which picks its kernels by the GPU's compute capability,
// on the preset that makes it pick PTX.
std::string machineCodeOnlyAdvice(const void* image) {
  std::string library = libraryHolding(image);
  if (library.empty()) return "build it with PTX too (-gencode arch=compute_90,code=compute_90)";
  return library +
         " chose it for the simulated GPU's compute capability; NVIDIA's libraries carry PTX only "
         "for GPUs newer than their machine code: run with --config h100_forward (docs/libraries.md)";
}

// Reads the image CUDA accepts: a fat binary (its container, or the wrapper
// nvcc registers), an ELF cubin, or NUL-terminated PTX. `bytes` bounds what
// may be read (SIZE_MAX for memory whose size the caller does not give).
cudaError_t readImage(const void* code, size_t bytes, FatbinRecord& record) {
  const auto* data = static_cast<const uint8_t*>(code);
  const uint32_t containerMagic = ptxsim::runtime::kFatbinMagic;
  const uint32_t wrapperMagic = ptxsim::runtime::kFatbinWrapperMagic;
  bool linkable = false;
  if (startsWith(data, bytes, &wrapperMagic, 4)) {
    struct Wrapper {
      int magic;
      int version;
      const uint8_t* data;
      void* filenameOrFatbins;
    };
    const auto* wrapper = reinterpret_cast<const Wrapper*>(data);
    // A wrapper of -rdc=true code (version 2) names the units it linked,
    // whose PTX the shim links itself when the image has none (moduleOf).
    record.wrapper = wrapper;
    linkable = wrapper->version == 2 && wrapper->filenameOrFatbins != nullptr;
    data = wrapper->data;
    bytes = SIZE_MAX;
  }
  if (startsWith(data, bytes, &containerMagic, 4)) {
    record.fatbin = ptxsim::runtime::readFatbin(data, bytes, record.readError);
    if (!record.fatbin) {
      std::fprintf(stderr, "ptxsim: error: loading a module: %s\n", record.readError.c_str());
      return cudaErrorInvalidKernelImage;
    }
    if (!record.fatbin->hasPtx() && !linkable) {
      std::fprintf(
          stderr,
          "ptxsim: error: loading a module: the fat binary holds machine code only (%s); ptxsim runs "
          "PTX: %s\n",
          record.fatbin->architectures().c_str(), machineCodeOnlyAdvice(code).c_str());
      return cudaErrorNoKernelImageForDevice;
    }
    return cudaSuccess;
  }
  std::string ptx;
  if (startsWith(data, bytes, kElfMagic, sizeof kElfMagic)) {
    // A cubin ptxsim's NVRTC made runs as the PTX it compiled beside it.
    const std::string* known = shimState().ptxOfCubin(data);
    if (known == nullptr) {
      std::fprintf(
          stderr,
          "ptxsim: error: loading a module: the image is a cubin (machine code), which ptxsim cannot run: "
          "it simulates PTX; load the PTX (nvcc -ptx, or NVRTC for compute_90) or a fat binary that carries "
          "it "
          "(nvcc -gencode arch=compute_90,code=compute_90); cubins from NVRTC run under `ptxsim run`\n");
      return cudaErrorNoKernelImageForDevice;
    }
    ptx = *known;
  } else {
    // PTX text, NUL-terminated.
    ptx.assign(reinterpret_cast<const char*>(data), strnlen(reinterpret_cast<const char*>(data), bytes));
  }
  if (ptx.find(".version") == std::string::npos) {
    std::fprintf(
        stderr,
        "ptxsim: error: loading a module: the image is neither PTX text (no .version directive), a fat "
        "binary nor a cubin\n");
    return cudaErrorInvalidPtx;
  }
  ptxsim::runtime::FatbinEntry entry;
  entry.kind = ptxsim::runtime::FatbinEntryKind::Ptx;
  entry.arch = ptxTarget(ptx);
  entry.ptx = std::move(ptx);
  record.fatbin.emplace().entries.push_back(std::move(entry));
  return cudaSuccess;
}

// Options tune the JIT compiler and the loader; the simulator has neither,
// so they are checked for shape and otherwise accepted.
bool optionsWellFormed(const void* options, void* const* values, unsigned count) {
  return count == 0 || (options != nullptr && values != nullptr);
}

// Library options may come without values: CUDA 13's static runtime loads
// every fat binary with cudaLibraryBinaryIsPreserved and no value array.
bool libraryOptionsWellFormed(const cudaLibraryOption* options, unsigned count) {
  if (count == 0) return true;
  if (options == nullptr) return false;
  return std::all_of(options, options + count, [](cudaLibraryOption o) {
    return o == cudaLibraryHostUniversalFunctionAndDataTable || o == cudaLibraryBinaryIsPreserved;
  });
}

cudaError_t loadLibrary(cudaLibrary_t* library, const void* code, size_t bytes) {
  auto image = std::make_unique<FatbinRecord>();
  cudaError_t error = readImage(code, bytes, *image);
  if (error != cudaSuccess) return error;
  ptxsim::cudart::ShimState& s = shimState();
  FatbinRecord* record = s.addImage(std::move(image));
  // CUDA 13 loads lazily: a library of bad PTX loads, and the error comes
  // with the first use of its code (library_load.expected, H100). The PTX
  // is parsed now all the same; its error is kept for that use.
  auto handle = reinterpret_cast<cudaLibrary_t>(record);
  LibraryRecord& lib = s.libraries()[handle];
  lib.image = record;
  *library = handle;
  ptxsim::sim::LoadedModule* module = s.moduleOf(*record, error);
  if (module == nullptr) {
    lib.loadError = error;
    return cudaSuccess;
  }
  for (const ptxsim::isa::Function& f : module->module().functions) {
    if (f.isKernel && f.isDefined) lib.kernelNames.push_back(f.name);
  }
  lib.kernelHandles = std::make_unique<char[]>(std::max<size_t>(lib.kernelNames.size(), 1));
  for (size_t i = 0; i < lib.kernelNames.size(); ++i) {
    s.registerKernel(reinterpret_cast<void**>(record), reinterpret_cast<const void*>(lib.kernelHandle(i)),
                     lib.kernelNames[i].c_str());
  }
  return cudaSuccess;
}

LibraryRecord* libraryOf(cudaLibrary_t library) {
  auto it = shimState().libraries().find(library);
  return it == shimState().libraries().end() ? nullptr : &it->second;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code,
                                              cudaJitOption* jitOptions, void** jitOptionsValues,
                                              unsigned int numJitOptions, cudaLibraryOption* libraryOptions,
                                              void** /*libraryOptionValues*/,
                                              unsigned int numLibraryOptions) {
  std::lock_guard lock(shimState().mutex());
  if (library == nullptr || code == nullptr ||
      !optionsWellFormed(jitOptions, jitOptionsValues, numJitOptions) ||
      !libraryOptionsWellFormed(libraryOptions, numLibraryOptions)) {
    return result(cudaErrorInvalidValue);
  }
  return result(loadLibrary(library, code, SIZE_MAX));
}

CUDART_EXPORT cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t* library, const char* fileName,
                                                  cudaJitOption* jitOptions, void** jitOptionsValues,
                                                  unsigned int numJitOptions,
                                                  cudaLibraryOption* libraryOptions,
                                                  void** libraryOptionValues,
                                                  unsigned int numLibraryOptions) {
  std::lock_guard lock(shimState().mutex());
  if (library == nullptr || fileName == nullptr ||
      !optionsWellFormed(jitOptions, jitOptionsValues, numJitOptions) ||
      !optionsWellFormed(libraryOptions, libraryOptionValues, numLibraryOptions)) {
    return result(cudaErrorInvalidValue);
  }
  std::ifstream in(fileName, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ptxsim: error: cudaLibraryLoadFromFile: cannot open %s\n", fileName);
    return result(cudaErrorFileNotFound);
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  std::string image = contents.str();
  image.push_back('\0');  // PTX read from a file need not end in NUL
  return result(loadLibrary(library, image.data(), image.size()));
}

CUDART_EXPORT cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  std::lock_guard lock(shimState().mutex());
  LibraryRecord* lib = libraryOf(library);
  if (lib == nullptr) return result(cudaErrorInvalidResourceHandle);
  shimState().dropImage(lib->image);
  shimState().libraries().erase(library);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library,
                                               const char* name) {
  std::lock_guard lock(shimState().mutex());
  if (pKernel == nullptr || name == nullptr) return result(cudaErrorInvalidValue);
  LibraryRecord* lib = libraryOf(library);
  if (lib == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (lib->loadError != cudaSuccess) return result(lib->loadError);
  for (size_t i = 0; i < lib->kernelNames.size(); ++i) {
    if (lib->kernelNames[i] == name) {
      *pKernel = lib->kernelHandle(i);
      return cudaSuccess;
    }
  }
  return result(cudaErrorSymbolNotFound);
}

CUDART_EXPORT cudaError_t cudaLibraryGetKernelCount(unsigned int* count, cudaLibrary_t lib) {
  std::lock_guard lock(shimState().mutex());
  if (count == nullptr) return result(cudaErrorInvalidValue);
  LibraryRecord* record = libraryOf(lib);
  if (record == nullptr) return result(cudaErrorInvalidResourceHandle);
  // A lazily loaded library of bad code answers its count (none) without
  // an error on the H100; asking for a kernel reports the error.
  *count = static_cast<unsigned>(record->kernelNames.size());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t* kernels, unsigned int numKernels,
                                                      cudaLibrary_t lib) {
  std::lock_guard lock(shimState().mutex());
  if (kernels == nullptr) return result(cudaErrorInvalidValue);
  LibraryRecord* record = libraryOf(lib);
  if (record == nullptr) return result(cudaErrorInvalidResourceHandle);
  size_t n = std::min<size_t>(numKernels, record->kernelNames.size());
  for (size_t i = 0; i < n; ++i) kernels[i] = record->kernelHandle(i);
  return cudaSuccess;
}

namespace {

// A variable of the library: its address and size; `managed` asks for a
// __managed__ one, which lives in host memory (ShimState::moduleOf).
cudaError_t libraryVariable(void** dptr, size_t* bytes, cudaLibrary_t library, const char* name,
                            bool managed) {
  std::lock_guard lock(shimState().mutex());
  if ((dptr == nullptr && bytes == nullptr) || name == nullptr) return result(cudaErrorInvalidValue);
  LibraryRecord* lib = libraryOf(library);
  if (lib == nullptr) return result(cudaErrorInvalidResourceHandle);
  cudaError_t error = cudaSuccess;
  ptxsim::sim::LoadedModule* module = shimState().moduleOf(*lib->image, error);
  if (module == nullptr) return result(error);
  uint64_t address = 0, size = 0;
  if (!module->variable(name, address, size) ||
      (managed && shimState().hostAllocations().count(reinterpret_cast<void*>(address)) == 0)) {
    return result(cudaErrorSymbolNotFound);
  }
  if (dptr != nullptr) *dptr = reinterpret_cast<void*>(address);
  if (bytes != nullptr) *bytes = static_cast<size_t>(size);
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaLibraryGetGlobal(void** dptr, size_t* bytes, cudaLibrary_t library,
                                               const char* name) {
  return libraryVariable(dptr, bytes, library, name, false);
}

CUDART_EXPORT cudaError_t cudaLibraryGetManaged(void** dptr, size_t* bytes, cudaLibrary_t library,
                                                const char* name) {
  return libraryVariable(dptr, bytes, library, name, true);
}
