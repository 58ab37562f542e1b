#pragma once

// Metrics `ptxsim compare` derives from others on both sides.
//
// Hit rates, where Nsight Compute has counts but no rate: for every
// `<P>_lookup_hit.sum` with its `<P>_lookup_miss.sum`, the launch gets
// `<P>_lookup_hit_rate.pct` = 100 hit / (hit + miss), compared in points
// like ncu's own rates. What it is for: the H100's
// lts__t_sector_hit_rate.pct comes from another replay pass than the
// counts and also counts units the model has no part of, so the SMs' own
// L2 hit rate is lts__t_sectors_srcunit_tex_lookup_hit_rate.pct, and every
// unit's, less an idle launch's (--background), is
// lts__t_sectors_lookup_hit_rate.pct.

#include <vector>

#include "ptxsim/runtime/compare/launch_metrics.h"

namespace ptxsim::runtime::compare {

void addDerivedHitRates(std::vector<LaunchMetrics>& launches);

// DRAM traffic in all: a launch with dram__bytes_read.sum and
// dram__bytes_write.sum and no dram__bytes.sum gets their sum under that
// name (ncu's own, which a recording may leave out). What it is for: the
// bytes a kernel moves, which a model can match while it splits them
// between reads and write-backs differently (the L2's write-back of dirty
// lines under random reads, README "Stores and write-back").
void addDerivedDramBytes(std::vector<LaunchMetrics>& launches);

}  // namespace ptxsim::runtime::compare
