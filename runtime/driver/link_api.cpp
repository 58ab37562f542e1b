// The JIT linker (cuLink*): PTX, and the PTX of fat binaries, linked into
// one module as nvlink links cubins (runtime/src/ptx_linker.cpp). The
// "cubin" cuLinkComplete hands back is the linked PTX text, which every
// loading call accepts; a program that only passes it to cuModuleLoadData
// cannot tell. Machine code without PTX cannot be linked.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver_api.h"
#include "ptxsim/runtime/fatbin.h"
#include "ptxsim/runtime/ptx_linker.h"
#include "shim_state.h"

namespace {

// A CUlinkState is the address of one of these.
struct LinkState {
  std::vector<ptxsim::runtime::PtxLinkInput> inputs;
  std::string output;  // the linked module, NUL-terminated, once complete
  std::string log;     // errors, for the error log buffer
  char* errorLog = nullptr;
  size_t errorLogBytes = 0;
  size_t* errorLogWritten = nullptr;  // the size option's slot, rewritten with what was written
};

struct LinkStates {
  std::mutex mutex;
  std::set<LinkState*> live;
};

LinkStates& linkStates() {
  static LinkStates states;
  return states;
}

LinkState* stateOf(CUlinkState handle) {
  auto* state = reinterpret_cast<LinkState*>(handle);
  std::lock_guard lock(linkStates().mutex);
  return linkStates().live.count(state) != 0 ? state : nullptr;
}

void writeLog(LinkState& s) {
  if (s.errorLog == nullptr || s.errorLogBytes == 0) return;
  size_t n = std::min(s.log.size(), s.errorLogBytes - 1);
  std::memcpy(s.errorLog, s.log.data(), n);
  s.errorLog[n] = '\0';
}

// The PTX of a fat binary for the simulated GPU.
CUresult fatbinPtx(const void* data, size_t size, std::string& ptx, std::string& error) {
  std::optional<ptxsim::runtime::Fatbin> fatbin =
      ptxsim::runtime::readFatbin(static_cast<const uint8_t*>(data), size != 0 ? size : UINT64_MAX, error);
  if (!fatbin) return CUDA_ERROR_INVALID_IMAGE;
  uint32_t sm = 0;
  {
    ptxsim::cudart::ShimState& s = ptxsim::cudart::shimState();
    std::lock_guard lock(s.mutex());
    sm = s.device().config().smVersion;
  }
  const ptxsim::runtime::FatbinEntry* entry = fatbin->bestPtx(sm);
  if (entry == nullptr) {
    error = "the fat binary holds no PTX for sm_" + std::to_string(sm) + " (it has " + fatbin->architectures() + ")";
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  ptx = entry->ptx;
  return CUDA_SUCCESS;
}

CUresult addData(LinkState& s, CUjitInputType type, const void* data, size_t size, const std::string& name) {
  std::string ptx, error;
  switch (type) {
    case CU_JIT_INPUT_PTX:
      ptx.assign(static_cast<const char*>(data), size != 0 ? strnlen(static_cast<const char*>(data), size)
                                                             : std::strlen(static_cast<const char*>(data)));
      break;
    case CU_JIT_INPUT_FATBINARY:
      if (CUresult r = fatbinPtx(data, size, ptx, error); r != CUDA_SUCCESS) {
        s.log += name + ": " + error + "\n";
        return r;
      }
      break;
    case CU_JIT_INPUT_CUBIN: {
      ptxsim::cudart::ShimState& state = ptxsim::cudart::shimState();
      std::lock_guard lock(state.mutex());
      if (const std::string* known = state.ptxOfCubin(data)) {
        ptx = *known;
        break;
      }
      s.log += name + ": a cubin (machine code) cannot be linked by ptxsim, which runs PTX: add the PTX instead\n";
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    default:
      // Host objects and archives (CU_JIT_INPUT_OBJECT, _LIBRARY) and LTO
      // IR (CU_JIT_INPUT_NVVM) carry no PTX the linker can read.
      s.log += name + ": ptxsim links PTX, fat binaries with PTX and NVRTC's cubins; this input kind (" +
               std::to_string(type) + ") is not supported\n";
      return CUDA_ERROR_NOT_SUPPORTED;
  }
  s.inputs.push_back({name.empty() ? ptxsim::runtime::describeModule(s.inputs.size(), ptx) : name, std::move(ptx)});
  return CUDA_SUCCESS;
}

}  // namespace

DRIVER_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option* options, void** optionValues,
                                       CUlinkState* stateOut) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (stateOut == nullptr || (numOptions != 0 && (options == nullptr || optionValues == nullptr))) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  auto state = std::make_unique<LinkState>();
  // JIT options tune ptxas; only the error log is kept, to be written at
  // the end.
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER) state->errorLog = static_cast<char*>(optionValues[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
      state->errorLogBytes = static_cast<size_t>(reinterpret_cast<uintptr_t>(optionValues[i]));
    }
  }
  std::lock_guard lock(linkStates().mutex);
  linkStates().live.insert(state.get());
  *stateOut = reinterpret_cast<CUlinkState>(state.release());
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuLinkAddData_v2(CUlinkState handle, CUjitInputType type, void* data, size_t size,
                                        const char* name, unsigned int, CUjit_option*, void**) {
  LinkState* state = stateOf(handle);
  if (state == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  if (data == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = addData(*state, type, data, size, name != nullptr ? name : "");
  writeLog(*state);
  return r;
}

DRIVER_EXPORT CUresult cuLinkAddFile_v2(CUlinkState handle, CUjitInputType type, const char* path, unsigned int,
                                        CUjit_option*, void**) {
  LinkState* state = stateOf(handle);
  if (state == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  if (path == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream in(path, std::ios::binary);
  if (!in) return CUDA_ERROR_FILE_NOT_FOUND;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes.push_back('\0');
  CUresult r = addData(*state, type, bytes.data(), bytes.size(), path);
  writeLog(*state);
  return r;
}

DRIVER_EXPORT CUresult cuLinkComplete(CUlinkState handle, void** cubinOut, size_t* sizeOut) {
  LinkState* state = stateOf(handle);
  if (state == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  if (cubinOut == nullptr || sizeOut == nullptr) return CUDA_ERROR_INVALID_VALUE;
  ptxsim::runtime::PtxLinkResult linked = ptxsim::runtime::linkPtx(state->inputs);
  if (!linked.ok()) {
    for (const std::string& e : linked.errors) state->log += e + "\n";
    writeLog(*state);
    std::fprintf(stderr, "ptxsim: error: cuLinkComplete: %s", state->log.c_str());
    return CUDA_ERROR_INVALID_SOURCE;  // an undefined function, as an H100's driver reports it
  }
  state->output = std::move(linked.ptx);
  *cubinOut = state->output.data();
  *sizeOut = state->output.size() + 1;  // with its NUL
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuLinkDestroy(CUlinkState handle) {
  LinkState* state = stateOf(handle);
  if (state == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  {
    std::lock_guard lock(linkStates().mutex);
    linkStates().live.erase(state);
  }
  delete state;
  return CUDA_SUCCESS;
}

// The forms before CUDA 12 (the same, under their first names).
DRIVER_ALIAS(cuLinkCreate, cuLinkCreate_v2);
DRIVER_ALIAS(cuLinkAddData, cuLinkAddData_v2);
DRIVER_ALIAS(cuLinkAddFile, cuLinkAddFile_v2);
