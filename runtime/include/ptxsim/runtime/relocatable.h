#pragma once

// The relocatable device code of programs built with -rdc=true: nvcc puts
// each translation unit's own fat binary (its PTX and a relocatable cubin)
// in the ELF section __nv_relfatbin, and only the nvlink-linked cubin in
// .nv_fatbin. The simulator links the units' PTX instead (ptx_linker.h).

#include <cstdint>
#include <string>
#include <vector>

#include "ptxsim/runtime/fatbin.h"
#include "ptxsim/runtime/ptx_linker.h"

namespace ptxsim::runtime {

// The containers laid back to back in `size` bytes at `data` (each 8-byte
// aligned, the padding between them zero).
bool readFatbinSequence(const uint8_t* data, uint64_t size, std::vector<Fatbin>& out, std::string& error);

// The containers of the __nv_relfatbin section of the ELF file at `path`;
// none when it has no such section. False with `error` when the file or
// a container cannot be read.
bool readRelocatableFatbins(const std::string& path, std::vector<Fatbin>& out, std::string& error);
// The same for any section (".nv_fatbin").
bool readElfFatbins(const std::string& path, const std::string& section, std::vector<Fatbin>& out,
                    std::string& error);
// The containers a library keeps in its data rather than in .nv_fatbin,
// one per kernel, to load them itself (cuModuleLoadData), as cuFFT does.
bool readEmbeddedFatbins(const std::string& path, std::vector<Fatbin>& out, std::string& error);

// Whether the unit is CUDA's device runtime (libcudadevrt, which nvcc links
// into every program built with -rdc=true): it defines the __cudaCDP2*
// functions device-side launches call, carries machine code and PTX only
// for a newer architecture, and the simulator provides those functions
// itself (sim/src/semantics/device_launch_runtime.cpp), so it stays out of
// the link.
bool isDeviceRuntime(const Fatbin& unit);

// Links the PTX each unit has for `sm` (Fatbin::bestPtx), leaving out the
// device runtime. A unit without such PTX is an error, as is everything
// linkPtx reports.
PtxLinkResult linkRelocatableFatbins(const std::vector<Fatbin>& units, uint32_t sm);

}  // namespace ptxsim::runtime
