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

// The requests the LSU's pipeline passes for the executed lanes: a request
// serves 128 bytes of consecutive lanes (8 lanes of 16 bytes, 16 of 8, the
// warp for 4), and a group with no executed lane takes none. One lane's
// 16-byte cp.async is one request (texture_cp_async.out: eight in flight
// take 45 cycles more than one, not the 4 x 7 requests' 112).
inline uint32_t requestsOf(uint32_t accessBytes, uint32_t executed) {
  const uint32_t requests = requestsOf(accessBytes);
  if (requests == 1 || executed == 0) return 1;
  const uint32_t lanesPerRequest = 32 / requests;
  const uint32_t groupMask = (1u << lanesPerRequest) - 1;  // requests > 1: fewer than 32 lanes
  uint32_t used = 0;
  for (uint32_t group = 0; group < requests; ++group)
    used += (executed >> (group * lanesPerRequest)) & groupMask ? 1 : 0;
  return std::max<uint32_t>(1, used);
}

// The space a memory instruction's first executed lane resolved to.
inline AddressSpace resolvedSpace(const StepReport& r, const memory::GenericLayout& layout) {
  if (r.space != AddressSpace::Generic || r.executed == 0) return r.space;
  uint64_t first = r.addresses[static_cast<unsigned>(std::countr_zero(r.executed))];
  return memory::classify(layout, first) == memory::Window::Shared ? AddressSpace::Shared : AddressSpace::Global;
}

}  // namespace ptxsim::sim::timing
