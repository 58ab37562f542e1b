#pragma once

// The shape of the memory access the executor just reported, as both the
// issue logic (sm_model.cpp) and the memory path (sm_memory_path.cpp) see it.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "ptxsim/memory/generic_address.h"
#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::timing {

// A 64- or 128-bit access by each lane is 2 or 4 requests of the LSU.
inline uint32_t requestsOf(uint32_t accessBytes) { return std::max<uint32_t>(1, accessBytes / 4); }

// The space a memory instruction's first executed lane resolved to.
inline AddressSpace resolvedSpace(const StepReport& r, const memory::GenericLayout& layout) {
  if (r.space != AddressSpace::Generic || r.executed == 0) return r.space;
  uint64_t first = r.addresses[static_cast<unsigned>(std::countr_zero(r.executed))];
  return memory::classify(layout, first) == memory::Window::Shared ? AddressSpace::Shared : AddressSpace::Global;
}

}  // namespace ptxsim::sim::timing
