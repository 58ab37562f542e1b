// ptxsim's libnvJitLink.so.13: NVIDIA's nvJitLink, with one addition, as
// ptxsim's NVRTC does. Every call is NVIDIA's, so a program sees its own
// results, logs and cubins. But a cubin is machine code, which the
// simulator cannot run: so when a link of LTO IR (-lto) completes, the same
// inputs are linked again with -ptx, and the cubin the program takes
// (nvJitLinkGetLinkedCubin) is handed to ptxsim's driver with that PTX,
// which it runs when the cubin is loaded. This is how cuFFT builds the
// kernels of plans with LTO callbacks (cufftXtSetJITCallback), and how
// programs link LTO IR at run time. A link of machine code or PTX without
// -lto has no PTX to give: loading its cubin is refused with a message.
//
// The header's inline functions call the versioned names
// (__nvJitLinkCreate_13_0); the plain names are exported too, as NVIDIA's
// library does.

// The plain names are defined below, not as the header's inline functions.
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nvidia_library.h"

#define NVJITLINK_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr char kNvJitLink[] = "libnvJitLink.so.13";
using Nvidia = ptxsim::forwarding::NvidiaLibrary<kNvJitLink>;

#define NVIDIA(name) Nvidia::function<decltype(name)>(#name)

// What a link was given, to link it again for PTX.
struct LinkRecord {
  std::vector<std::string> options;
  struct Input {
    nvJitLinkInputType type;
    std::string bytes;
    std::string name;
  };
  std::vector<Input> inputs;
  std::optional<std::string> ptx;  // of the completed link, when it could be made
};

struct Links {
  std::mutex mutex;
  std::map<nvJitLinkHandle, LinkRecord> records;
};

Links& links() {
  static Links l;
  return l;
}

bool hasOption(const std::vector<std::string>& options, const std::string& option) {
  return std::find(options.begin(), options.end(), option) != options.end();
}

// Links the inputs again, asking for PTX; nullopt when nvJitLink cannot
// (inputs of machine code, or no -lto).
std::optional<std::string> linkToPtx(const LinkRecord& r) {
  if (!hasOption(r.options, "-lto") || hasOption(r.options, "-ptx")) return std::nullopt;
  std::vector<const char*> options;
  for (const std::string& o : r.options) options.push_back(o.c_str());
  options.push_back("-ptx");
  nvJitLinkHandle twin = nullptr;
  if (NVIDIA(__nvJitLinkCreate_13_0)(&twin, static_cast<uint32_t>(options.size()), options.data()) !=
      NVJITLINK_SUCCESS) {
    return std::nullopt;
  }
  std::optional<std::string> ptx;
  bool added = true;
  for (const LinkRecord::Input& in : r.inputs) {
    added = added && NVIDIA(__nvJitLinkAddData_13_0)(twin, in.type, in.bytes.data(), in.bytes.size(),
                                                     in.name.c_str()) == NVJITLINK_SUCCESS;
  }
  size_t size = 0;
  if (added && NVIDIA(__nvJitLinkComplete_13_0)(twin) == NVJITLINK_SUCCESS &&
      NVIDIA(__nvJitLinkGetLinkedPtxSize_13_0)(twin, &size) == NVJITLINK_SUCCESS) {
    std::string text(size, '\0');
    if (NVIDIA(__nvJitLinkGetLinkedPtx_13_0)(twin, text.data()) == NVJITLINK_SUCCESS) ptx = std::move(text);
  }
  NVIDIA(__nvJitLinkDestroy_13_0)(&twin);
  return ptx;
}

void recordInput(nvJitLinkHandle handle, nvJitLinkInputType type, std::string bytes, const char* name) {
  std::lock_guard lock(links().mutex);
  auto it = links().records.find(handle);
  if (it != links().records.end())
    it->second.inputs.push_back({type, std::move(bytes), name != nullptr ? name : ""});
}

}  // namespace

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle* handle, uint32_t numOptions,
                                                        const char* const* options) {
  nvJitLinkResult r = NVIDIA(__nvJitLinkCreate_13_0)(handle, numOptions, options);
  if (r != NVJITLINK_SUCCESS || handle == nullptr) return r;
  LinkRecord record;
  for (uint32_t i = 0; i < numOptions && options != nullptr; ++i) {
    if (options[i] != nullptr) record.options.emplace_back(options[i]);
  }
  std::lock_guard lock(links().mutex);
  links().records[*handle] = std::move(record);
  return r;
}

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle* handle) {
  if (handle != nullptr) {
    std::lock_guard lock(links().mutex);
    links().records.erase(*handle);
  }
  return NVIDIA(__nvJitLinkDestroy_13_0)(handle);
}

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                         const void* data, size_t size, const char* name) {
  nvJitLinkResult r = NVIDIA(__nvJitLinkAddData_13_0)(handle, inputType, data, size, name);
  if (r == NVJITLINK_SUCCESS && data != nullptr) {
    recordInput(handle, inputType, std::string(static_cast<const char*>(data), size), name);
  }
  return r;
}

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                         const char* fileName) {
  nvJitLinkResult r = NVIDIA(__nvJitLinkAddFile_13_0)(handle, inputType, fileName);
  if (r == NVJITLINK_SUCCESS && fileName != nullptr) {
    std::ifstream file(fileName, std::ios::binary);
    recordInput(handle, inputType, std::string(std::istreambuf_iterator<char>(file), {}), fileName);
  }
  return r;
}

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle handle) {
  nvJitLinkResult r = NVIDIA(__nvJitLinkComplete_13_0)(handle);
  if (r != NVJITLINK_SUCCESS) return r;
  std::lock_guard lock(links().mutex);
  auto it = links().records.find(handle);
  if (it != links().records.end()) it->second.ptx = linkToPtx(it->second);
  return r;
}

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle handle, void* cubin) {
  nvJitLinkResult r = NVIDIA(__nvJitLinkGetLinkedCubin_13_0)(handle, cubin);
  size_t bytes = 0;
  if (r != NVJITLINK_SUCCESS ||
      NVIDIA(__nvJitLinkGetLinkedCubinSize_13_0)(handle, &bytes) != NVJITLINK_SUCCESS) {
    return r;
  }
  std::lock_guard lock(links().mutex);
  auto it = links().records.find(handle);
  if (it != links().records.end() && it->second.ptx)
    ptxsim::forwarding::registerCubinPtx(cubin, bytes, *it->second.ptx);
  return r;
}

// The rest, NVIDIA's as they are.

NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle handle, size_t* size) {
  return NVIDIA(__nvJitLinkGetLinkedCubinSize_13_0)(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle handle, size_t* size) {
  return NVIDIA(__nvJitLinkGetLinkedPtxSize_13_0)(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle handle, char* ptx) {
  return NVIDIA(__nvJitLinkGetLinkedPtx_13_0)(handle, ptx);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle handle, size_t* size) {
  return NVIDIA(__nvJitLinkGetErrorLogSize_13_0)(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle handle, char* log) {
  return NVIDIA(__nvJitLinkGetErrorLog_13_0)(handle, log);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle handle, size_t* size) {
  return NVIDIA(__nvJitLinkGetInfoLogSize_13_0)(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle handle, char* log) {
  return NVIDIA(__nvJitLinkGetInfoLog_13_0)(handle, log);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkVersion(unsigned int* major, unsigned int* minor) {
  return NVIDIA(nvJitLinkVersion)(major, minor);
}

// The unversioned names, as NVIDIA's library exports them (the header
// makes them inline functions over the versioned ones, so only programs
// built against other headers call these).

NVJITLINK_EXPORT nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle* handle, uint32_t numOptions,
                                                 const char* const* options) {
  return __nvJitLinkCreate_13_0(handle, numOptions, options);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle* handle) {
  return __nvJitLinkDestroy_13_0(handle);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                  const void* data, size_t size, const char* name) {
  return __nvJitLinkAddData_13_0(handle, inputType, data, size, name);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle handle, nvJitLinkInputType inputType,
                                                  const char* fileName) {
  return __nvJitLinkAddFile_13_0(handle, inputType, fileName);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle handle) {
  return __nvJitLinkComplete_13_0(handle);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle handle, size_t* size) {
  return __nvJitLinkGetLinkedCubinSize_13_0(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle handle, void* cubin) {
  return __nvJitLinkGetLinkedCubin_13_0(handle, cubin);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle handle, size_t* size) {
  return __nvJitLinkGetLinkedPtxSize_13_0(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle handle, char* ptx) {
  return __nvJitLinkGetLinkedPtx_13_0(handle, ptx);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle handle, size_t* size) {
  return __nvJitLinkGetErrorLogSize_13_0(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle handle, char* log) {
  return __nvJitLinkGetErrorLog_13_0(handle, log);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle handle, size_t* size) {
  return __nvJitLinkGetInfoLogSize_13_0(handle, size);
}
NVJITLINK_EXPORT nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle handle, char* log) {
  return __nvJitLinkGetInfoLog_13_0(handle, log);
}

// nvJitLink's private entry point, whose signature is not published:
// passed on untouched, registers and stack as they are, by a jump through
// its address. A naked function can only read that from memory, so it is
// the one variable of this file, set when the library is loaded.
namespace {
void* nvidiaPrivateEntry = nullptr;
__attribute__((constructor)) void findPrivateEntry() {
  nvidiaPrivateEntry = dlsym(Nvidia::handle(), "__nvJitLinkAPI");
}
}  // namespace

NVJITLINK_EXPORT __attribute__((naked)) void __nvJitLinkAPI() {
  asm volatile("jmp *%0" : : "m"(nvidiaPrivateEntry));
}
