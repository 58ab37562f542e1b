#pragma once

// Links the PTX of several translation units compiled with -rdc=true into
// one module, as nvlink links their cubins: one .version/.target/
// .address_size header; .extern declarations resolved against the other
// modules' .visible/.weak definitions; module-internal names that collide
// across modules (static functions, "$str" literals, internal variables)
// renamed within their module; .file/.loc indices renumbered. The result is
// PTX text that the simulator loads like any module.

#include <string>
#include <vector>

namespace ptxsim::runtime {

struct PtxLinkInput {
  std::string name;  // how messages name the module ("a.cu", "TU 2")
  std::string ptx;
};

struct PtxLinkResult {
  std::string ptx;                  // the linked module; empty when errors is not
  std::vector<std::string> errors;  // "undefined reference to device symbol 'X' (declared in TU a.cu)"
  bool ok() const { return errors.empty(); }
};

// Functions that CUDA's own libraries provide to every link (the printf,
// malloc and assert system calls, the device runtime's cuda*/__cuda*
// entry points): an .extern declaration of one that no module defines is
// kept for the simulator to resolve (or refuse) at load.
bool isSystemFunction(const std::string& name);

PtxLinkResult linkPtx(const std::vector<PtxLinkInput>& modules);

// "TU 2 (b.cu)": the module's name with the first .file path in its PTX, if
// any (nvcc writes them with -lineinfo and -G).
std::string describeModule(size_t index, const std::string& ptx);

}  // namespace ptxsim::runtime
