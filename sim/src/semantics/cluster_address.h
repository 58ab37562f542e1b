#pragma once

// Distributed shared memory addressing (sm_90): mapa and getctarank over
// the .shared::cluster window (ptxsim/memory/cluster_shared_address.h).
// Registered with the data-movement family (data_movement.cpp).

#include "semantics.h"

namespace ptxsim::sim::semantics {

void registerClusterAddressSemantics(SemanticsTable& table);

// The CTAs in the executing CTA's cluster (1 without clusters).
uint64_t clusterSizeOf(const ExecContext& ctx);

}  // namespace ptxsim::sim::semantics
