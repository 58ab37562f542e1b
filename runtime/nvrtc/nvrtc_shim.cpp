// ptxsim's libnvrtc.so.13: NVIDIA's NVRTC, with one addition. Every call is
// NVIDIA's (loaded from the CUDA toolkit), so a program sees NVRTC's own
// results, logs and cubins. But a cubin is machine code, which the
// simulator cannot run; so when a program compiles for a real architecture
// (sm_90), the same source is also compiled for the matching virtual one
// (compute_90), and the cubin the program takes (nvrtcGetCUBIN) is handed
// to ptxsim's driver with that PTX, which it runs when the cubin is loaded
// (cuModuleLoadData and the like).

#include <dlfcn.h>
#include <nvrtc.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nvidia_library.h"

#define NVRTC_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr char kNvrtc[] = "libnvrtc.so.13";
using Nvidia = ptxsim::forwarding::NvidiaLibrary<kNvrtc>;

#define NVIDIA(name) Nvidia::function<decltype(name)>(#name)

// What a program was created from, to compile it again for PTX.
struct ProgramRecord {
  std::string source, name;
  std::vector<std::string> headers, includeNames;
  std::vector<std::string> nameExpressions;
  std::optional<std::string> ptx;  // of the last compilation for a real architecture
};

struct Programs {
  std::mutex mutex;
  std::map<nvrtcProgram, ProgramRecord> records;
};

Programs& programs() {
  static Programs p;
  return p;
}

// The options with a real architecture (sm_NN[a|f]) turned into its
// virtual one (compute_NN...); nullopt when they name none.
std::optional<std::vector<std::string>> virtualOptions(int count, const char* const* options) {
  std::vector<std::string> out;
  bool real = false;
  for (int i = 0; i < count; ++i) {
    std::string o = options[i];
    for (const char* prefix : {"--gpu-architecture=", "-arch=", "--gpu-architecture", "-arch"}) {
      std::string p = prefix;
      bool joined = p.back() == '=';
      if (joined ? o.rfind(p, 0) == 0 : o == p) {
        std::string* value = &o;
        if (!joined && i + 1 < count) {
          out.push_back(o);
          o = options[++i];
          value = &o;
          p.clear();
        } else if (!joined) {
          break;
        }
        size_t at = value->find("sm_", joined ? p.size() : 0);
        if (at != std::string::npos) {
          value->replace(at, 3, "compute_");
          real = true;
        }
        break;
      }
    }
    out.push_back(o);
  }
  if (!real) return std::nullopt;
  return out;
}

// Compiles the program again for the virtual architecture; its PTX, or
// nullopt if that fails.
std::optional<std::string> compileToPtx(const ProgramRecord& r, const std::vector<std::string>& options) {
  std::vector<const char*> headers, includeNames, optionPointers;
  for (const std::string& h : r.headers) headers.push_back(h.c_str());
  for (const std::string& n : r.includeNames) includeNames.push_back(n.c_str());
  for (const std::string& o : options) optionPointers.push_back(o.c_str());
  nvrtcProgram twin = nullptr;
  if (NVIDIA(nvrtcCreateProgram)(&twin, r.source.c_str(), r.name.c_str(), static_cast<int>(headers.size()),
                                 headers.data(), includeNames.data()) != NVRTC_SUCCESS) {
    return std::nullopt;
  }
  std::optional<std::string> ptx;
  for (const std::string& e : r.nameExpressions) NVIDIA(nvrtcAddNameExpression)(twin, e.c_str());
  size_t size = 0;
  if (NVIDIA(nvrtcCompileProgram)(twin, static_cast<int>(optionPointers.size()), optionPointers.data()) ==
          NVRTC_SUCCESS &&
      NVIDIA(nvrtcGetPTXSize)(twin, &size) == NVRTC_SUCCESS) {
    std::string text(size, '\0');
    if (NVIDIA(nvrtcGetPTX)(twin, text.data()) == NVRTC_SUCCESS) ptx = std::move(text);
  }
  NVIDIA(nvrtcDestroyProgram)(&twin);
  return ptx;
}

}  // namespace

NVRTC_EXPORT nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char* src, const char* name,
                                            int numHeaders, const char* const* headers,
                                            const char* const* includeNames) {
  nvrtcResult r = NVIDIA(nvrtcCreateProgram)(prog, src, name, numHeaders, headers, includeNames);
  if (r != NVRTC_SUCCESS || prog == nullptr || src == nullptr) return r;
  ProgramRecord record;
  record.source = src;
  record.name = name != nullptr ? name : "default_program";
  for (int i = 0; i < numHeaders && headers != nullptr && includeNames != nullptr; ++i) {
    record.headers.emplace_back(headers[i] != nullptr ? headers[i] : "");
    record.includeNames.emplace_back(includeNames[i] != nullptr ? includeNames[i] : "");
  }
  std::lock_guard lock(programs().mutex);
  programs().records[*prog] = std::move(record);
  return r;
}

NVRTC_EXPORT nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) {
  if (prog != nullptr) {
    std::lock_guard lock(programs().mutex);
    programs().records.erase(*prog);
  }
  return NVIDIA(nvrtcDestroyProgram)(prog);
}

NVRTC_EXPORT nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char* const name_expression) {
  nvrtcResult r = NVIDIA(nvrtcAddNameExpression)(prog, name_expression);
  if (r == NVRTC_SUCCESS && name_expression != nullptr) {
    std::lock_guard lock(programs().mutex);
    if (auto it = programs().records.find(prog); it != programs().records.end()) {
      it->second.nameExpressions.emplace_back(name_expression);
    }
  }
  return r;
}

NVRTC_EXPORT nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char* const* options) {
  nvrtcResult r = NVIDIA(nvrtcCompileProgram)(prog, numOptions, options);
  std::lock_guard lock(programs().mutex);
  auto it = programs().records.find(prog);
  if (it == programs().records.end()) return r;
  it->second.ptx.reset();
  if (r != NVRTC_SUCCESS) return r;
  if (std::optional<std::vector<std::string>> twin = virtualOptions(numOptions, options)) {
    it->second.ptx = compileToPtx(it->second, *twin);
  }
  return r;
}

NVRTC_EXPORT nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char* cubin) {
  nvrtcResult r = NVIDIA(nvrtcGetCUBIN)(prog, cubin);
  size_t bytes = 0;
  if (r != NVRTC_SUCCESS || NVIDIA(nvrtcGetCUBINSize)(prog, &bytes) != NVRTC_SUCCESS) return r;
  std::lock_guard lock(programs().mutex);
  auto it = programs().records.find(prog);
  if (it != programs().records.end() && it->second.ptx)
    ptxsim::forwarding::registerCubinPtx(cubin, bytes, *it->second.ptx);
  return r;
}

// The rest, NVIDIA's as they are.

NVRTC_EXPORT const char* nvrtcGetErrorString(nvrtcResult result) {
  return NVIDIA(nvrtcGetErrorString)(result);
}
NVRTC_EXPORT nvrtcResult nvrtcVersion(int* major, int* minor) { return NVIDIA(nvrtcVersion)(major, minor); }
NVRTC_EXPORT nvrtcResult nvrtcGetNumSupportedArchs(int* numArchs) {
  return NVIDIA(nvrtcGetNumSupportedArchs)(numArchs);
}
NVRTC_EXPORT nvrtcResult nvrtcGetSupportedArchs(int* supportedArchs) {
  return NVIDIA(nvrtcGetSupportedArchs)(supportedArchs);
}
NVRTC_EXPORT nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t* ptxSizeRet) {
  return NVIDIA(nvrtcGetPTXSize)(prog, ptxSizeRet);
}
NVRTC_EXPORT nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char* ptx) { return NVIDIA(nvrtcGetPTX)(prog, ptx); }
NVRTC_EXPORT nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t* cubinSizeRet) {
  return NVIDIA(nvrtcGetCUBINSize)(prog, cubinSizeRet);
}
NVRTC_EXPORT nvrtcResult nvrtcGetLTOIRSize(nvrtcProgram prog, size_t* LTOIRSizeRet) {
  return NVIDIA(nvrtcGetLTOIRSize)(prog, LTOIRSizeRet);
}
NVRTC_EXPORT nvrtcResult nvrtcGetLTOIR(nvrtcProgram prog, char* LTOIR) {
  return NVIDIA(nvrtcGetLTOIR)(prog, LTOIR);
}
NVRTC_EXPORT nvrtcResult nvrtcGetOptiXIRSize(nvrtcProgram prog, size_t* optixirSizeRet) {
  return NVIDIA(nvrtcGetOptiXIRSize)(prog, optixirSizeRet);
}
NVRTC_EXPORT nvrtcResult nvrtcGetOptiXIR(nvrtcProgram prog, char* optixir) {
  return NVIDIA(nvrtcGetOptiXIR)(prog, optixir);
}
NVRTC_EXPORT nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t* logSizeRet) {
  return NVIDIA(nvrtcGetProgramLogSize)(prog, logSizeRet);
}
NVRTC_EXPORT nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char* log) {
  return NVIDIA(nvrtcGetProgramLog)(prog, log);
}
NVRTC_EXPORT nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char* const name_expression,
                                             const char** lowered_name) {
  return NVIDIA(nvrtcGetLoweredName)(prog, name_expression, lowered_name);
}
NVRTC_EXPORT nvrtcResult nvrtcGetPCHHeapSize(size_t* ret) { return NVIDIA(nvrtcGetPCHHeapSize)(ret); }
NVRTC_EXPORT nvrtcResult nvrtcSetPCHHeapSize(size_t size) { return NVIDIA(nvrtcSetPCHHeapSize)(size); }
NVRTC_EXPORT nvrtcResult nvrtcGetPCHCreateStatus(nvrtcProgram prog) {
  return NVIDIA(nvrtcGetPCHCreateStatus)(prog);
}
NVRTC_EXPORT nvrtcResult nvrtcGetPCHHeapSizeRequired(nvrtcProgram prog, size_t* size) {
  return NVIDIA(nvrtcGetPCHHeapSizeRequired)(prog, size);
}
NVRTC_EXPORT nvrtcResult nvrtcSetFlowCallback(nvrtcProgram prog, int (*callback)(void*, void*),
                                              void* payload) {
  return NVIDIA(nvrtcSetFlowCallback)(prog, callback, payload);
}

// NVRTC's private entry point (used by NVIDIA's own tools), whose signature
// is not published: passed on untouched, registers and stack as they are,
// by a jump through its address. A naked function can only read that from
// memory, so it is the one variable of this file, set when the library is
// loaded.
namespace {
void* nvidiaPrivateEntry = nullptr;
__attribute__((constructor)) void findPrivateEntry() {
  nvidiaPrivateEntry = dlsym(Nvidia::handle(), "__nvrtcCPEx");
}
}  // namespace

NVRTC_EXPORT __attribute__((naked)) void __nvrtcCPEx() {
  asm volatile("jmp *%0" : : "m"(nvidiaPrivateEntry));
}
