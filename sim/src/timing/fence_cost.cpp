#include "fence_cost.h"

namespace ptxsim::sim::timing {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

uint32_t cyclesAtScope(Mod scope, const FenceTiming& timing) {
  switch (scope) {
    case Mod::Cta: return timing.ctaCycles;
    case Mod::Cluster: return timing.clusterCycles;
    case Mod::Sys: return timing.sysCycles;
    default: return timing.gpuCycles;
  }
}

}  // namespace

FenceEffect fenceOfFencingOpcode(const isa::Instruction& inst, const FenceTiming& timing) {
  const isa::ModifierSet& m = inst.modifiers;
  if (inst.opcode == Opcode::Membar) {
    // membar.proxy orders proxies, not this warp's accesses: no MEMBAR.
    if (m.hasGroup(ModGroup::Proxy)) return {true, 0};
    Mod level = m.get(ModGroup::MembarLevel);
    Mod scope = level == Mod::MembarCta ? Mod::Cta : level == Mod::MembarSys ? Mod::Sys : Mod::Gpu;
    return {true, cyclesAtScope(scope, timing)};
  }
  if (inst.opcode == Opcode::Fence) {
    // fence.proxy.* and fence.mbarrier_init: not a MEMBAR of a scope.
    if (m.hasGroup(ModGroup::Proxy)) return {true, 0};
    return {true, cyclesAtScope(m.get(ModGroup::Scope), timing)};
  }
  // mbarrier.arrive and arrive_drop: a release at cluster scope.
  if (m.get(ModGroup::Scope) == Mod::Cluster && !m.has(Mod::Relaxed)) return {true, timing.clusterCycles};
  return {};
}

}  // namespace ptxsim::sim::timing
