// The driver's private tables that NVIDIA's libraries (cuFFT, cuBLAS) ask
// for through cuGetExportTable, beyond what the CUDA runtime itself needs
// (export_tables.cpp). No public documentation describes them; what is
// here was learnt from how the libraries call them (docs/lab-notes.md). An
// entry not understood reports itself and fails, so a library that needs
// one says so rather than going wrong quietly.

#include <array>
#include <cstdio>
#include <mutex>
#include <utility>
#include <vector>

#include "driver_state.h"
#include "export_tables.h"

namespace ptxsim::driver {

namespace {

constexpr char kContextTableName[] = "context and stream table (21318c60-...)";
constexpr char kFunctionTableName[] = "function table (6e163fbe-...)";

template <const char* Table, size_t Slot>
CUresult unknownSlot() {
  std::fprintf(stderr,
               "ptxsim: error: entry %zu of the driver's private %s that NVIDIA's libraries use is not "
               "supported yet\n",
               Slot, Table);
  return CUDA_ERROR_NOT_SUPPORTED;
}

// A table of `Entries` pointers whose first holds its size in bytes and the
// rest report themselves, for the known entries to be set over.
template <const char* Table, size_t Entries, size_t... Slots>
std::array<ExportEntry, Entries> tableOfUnknowns(std::index_sequence<Slots...>) {
  std::array<ExportEntry, Entries> table = {exportEntry(unknownSlot<Table, Slots>)...};
  table[0] = reinterpret_cast<ExportEntry>(Entries * sizeof(ExportEntry));
  return table;
}

// The libraries' context and stream table (21318c60-9714-3248-8ca6-
// 41ff7324c8f2): a context's key, and the driver's own handle of a stream
// and its identity.
CUresult contextKey(CUcontext context, uint64_t* key) {
  if (key == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* c = context != nullptr ? contextOf(context) : driverState().current();
  std::lock_guard lock(driverState().mutex());
  if (c == nullptr || !driverState().valid(handle(c))) return CUDA_ERROR_INVALID_CONTEXT;
  *key = c->id;
  return CUDA_SUCCESS;
}

// A stream's driver handle: the stream itself, the null stream as the
// legacy or per-thread stream it means.
CUresult streamFromPublic(CUcontext, CUstream stream, void** privateStream, int perThread) {
  if (privateStream == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *privateStream = stream != nullptr ? static_cast<void*>(stream)
                   : perThread != 0  ? static_cast<void*>(CU_STREAM_PER_THREAD)
                                     : static_cast<void*>(CU_STREAM_LEGACY);
  return CUDA_SUCCESS;
}

CUresult streamIdentity(CUcontext, const void* privateStream, uint64_t* identity) {
  if (privateStream == nullptr || identity == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *identity = reinterpret_cast<uintptr_t>(privateStream);
  return CUDA_SUCCESS;
}

constexpr size_t kContextTableEntries = 93;

std::array<ExportEntry, kContextTableEntries> contextTable() {
  auto table = tableOfUnknowns<kContextTableName, kContextTableEntries>(
      std::make_index_sequence<kContextTableEntries>());
  table[4] = exportEntry(contextKey);
  table[39] = exportEntry(streamIdentity);
  table[51] = exportEntry(streamFromPublic);
  return table;
}

// The function table (6e163fbe-b958-444d-835c-e182aff1991e). cuFFT loads
// each kernel it builds as a module of its own (cuModuleLoadData of a fat
// binary) and takes the kernel by walking the module's functions rather
// than by name: entry 7 calls back with each function, and cuFFT counts 1
// as success. The first argument (a context, as far as can be seen) is not
// needed: a module belongs to one.
using FunctionVisitor = void (*)(void* userData, CUfunction function);

int eachFunction(const void*, CUmodule module, FunctionVisitor visit, void* userData) {
  if (module == nullptr || visit == nullptr) return CUDA_ERROR_INVALID_VALUE;
  unsigned count = 0;
  if (CUresult r = cuModuleGetFunctionCount(&count, module); r != CUDA_SUCCESS) return r;
  std::vector<CUfunction> functions(count);
  if (CUresult r = cuModuleEnumerateFunctions(functions.data(), count, module); r != CUDA_SUCCESS) return r;
  for (CUfunction function : functions) visit(userData, function);
  return 1;
}

// cuFFT checks that the table reaches entry 7; the highest entry callers
// are known to use (a public list of its offsets) is 55.
constexpr size_t kFunctionTableEntries = 56;

std::array<ExportEntry, kFunctionTableEntries> functionTable() {
  auto table = tableOfUnknowns<kFunctionTableName, kFunctionTableEntries>(
      std::make_index_sequence<kFunctionTableEntries>());
  table[7] = exportEntry(eachFunction);
  return table;
}

}  // namespace

const void* libraryContextTable() {
  static const std::array<ExportEntry, kContextTableEntries> table = contextTable();
  return table.data();
}

const void* libraryFunctionTable() {
  static const std::array<ExportEntry, kFunctionTableEntries> table = functionTable();
  return table.data();
}

}  // namespace ptxsim::driver
