#pragma once

// Turns a module's IR into prepared functions for one kernel: resolves
// operands to rows, lays out shared, local and parameter memory, and binds
// each instruction to its handler through the semantics table.

#include <memory>
#include <string>
#include <vector>

#include "grid_context.h"
#include "ptxsim/isa/module.h"

namespace ptxsim::sim::exec {

// Function "addresses" (mov.u64 %rd, func; indirect calls) are this base
// plus 16 times the function's index: outside every memory window, so a
// program that dereferences one gets a memory fault.
inline constexpr uint64_t kFunctionAddressBase = 0x0000'0100'0000'0000ull;

// The function at such an address: its Module::functions index, or
// UINT32_MAX for an address that is not a function.
inline uint32_t functionAt(uint64_t address, size_t functionCount) {
  if (address < kFunctionAddressBase || (address - kFunctionAddressBase) % 16 != 0) return UINT32_MAX;
  uint64_t index = (address - kFunctionAddressBase) / 16;
  return index < functionCount ? static_cast<uint32_t>(index) : UINT32_MAX;
}

// Where the loader placed the module's global and constant variables.
struct ModulePlacement {
  std::vector<uint64_t> globalAddresses;  // by Module::globals index; 0 when not in device memory
};

// Prepares every defined function of the module for `kernelIndex`. On
// failure returns null and sets `errors` to one line per unsupported
// instruction: "unsupported instruction X at PTX line N: why".
std::unique_ptr<PreparedKernel> prepareKernel(const isa::Module& module, uint32_t kernelIndex,
                                              const ModulePlacement& placement, std::vector<std::string>& errors);

// Which kind of thread synchronisation an instruction is, if any.
SyncKind syncKindOf(const isa::Instruction& inst);

// Checks that every instruction of every function can be prepared, without
// keeping the result: what a module load runs.
std::vector<std::string> findUnsupported(const isa::Module& module, const ModulePlacement& placement);

}  // namespace ptxsim::sim::exec
