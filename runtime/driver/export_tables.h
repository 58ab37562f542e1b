#pragma once

#include "driver_api.h"

namespace ptxsim::driver {

// cuGetExportTable: the private tables NVIDIA's CUDA runtime asks the
// driver for when it is linked into a program (nvcc's default). Their
// layouts are undocumented; public reimplementations of the driver record
// them. Null for a table ptxsim does not provide (CUDA_ERROR_NOT_FOUND:
// the runtime then takes its ordinary path).
const void* exportTable(const CUuuid& id);

// A table's entries: pointers to functions of any signature, or the
// table's size in bytes.
using ExportEntry = const void*;
template <typename F>
ExportEntry exportEntry(F* f) {
  return reinterpret_cast<ExportEntry>(f);
}

// The tables of NVIDIA's libraries (library_tables.cpp): the context and
// stream table (21318c60-...) and the function table (6e163fbe-...).
const void* libraryContextTable();
const void* libraryFunctionTable();

}  // namespace ptxsim::driver
