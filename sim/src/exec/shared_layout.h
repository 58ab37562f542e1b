#pragma once

// What a kernel reaches of its module (the functions it may run, the
// module-scope variables they name) and where its shared variables lie.

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "../align_up.h"
#include "ptxsim/isa/module.h"

namespace ptxsim::sim::exec {

// Shared memory of one kernel: module-scope variables first, then the
// .shared variables that functions declare in their bodies, then the
// dynamic (extern, unsized) arrays, which all alias one offset.
struct SharedLayout {
  std::vector<uint64_t> moduleOffsets;                      // by Module::globals index
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> local;  // (function, local index) -> offset
  uint64_t staticBytes = 0;
  uint64_t dynamicOffset = 0;
};

// The functions whose address is taken: in data, and outside call targets
// in code (a pointer may reach them through memory). The same for every
// kernel of a module, so found once per module: a scan of the whole module
// per kernel made checking a module of 1400 kernels quadratic
// (parse_lower_benchmark, prepareAll: 7.1 s, then 0.14 s).
std::vector<uint32_t> addressTakenFunctions(const isa::Module& module);

// What a kernel can touch: the functions it may run (those it calls,
// directly or through calls, and every function whose address is taken
// anywhere, as a pointer may reach it through memory) and the module-scope
// variables they name. As ptxas, a kernel's static shared memory is only
// the variables it can reach: a module's other kernels' arrays take none.
struct KernelReach {
  std::vector<bool> functions;  // by Module::functions index
  std::vector<bool> globals;    // by Module::globals index
};

// What kernel `kernelIndex` reaches (UINT32_MAX: outside any kernel, as
// findUnsupported prepares a device function; then only the address-taken
// functions and what they name).
KernelReach reachOf(const isa::Module& module, uint32_t kernelIndex,
                    const std::vector<uint32_t>& addressTaken);

// The shared layout of the kernel that reaches `reach`.
SharedLayout layOutShared(const isa::Module& module, const KernelReach& reach);

}  // namespace ptxsim::sim::exec
