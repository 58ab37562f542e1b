#pragma once

// Runs a cooperative grid (cudaLaunchCooperativeKernel): every CTA is
// resident at once, as the hardware guarantees for such a launch, so CTAs
// may wait for each other through memory (grid.sync()). The CTAs take turns
// on the calling host thread, one scheduling round each in CTA order, which
// makes the interleaving, the results and the statistics the same whatever
// the host thread count.
//
// Deadlock detection covers the whole grid: a CTA spinning on memory that
// other CTAs still write is waiting, not stuck; once every unfinished CTA
// repeats its state with no memory written anywhere (a grid.sync() that some
// CTA never reaches), the launch fails with a deadlock report naming the
// lowest waiting CTA's threads and where they spin.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device_launch.h"
#include "exec_context.h"

namespace ptxsim::sim::exec {

// Runs every CTA of ctx.grid's launch to completion or to the launch's
// first fault. Device printf output is appended to `printfOutput` in the
// order the CTAs produced it.
// Device-side launches of each CTA are appended to `launchesByCta`.
void runCooperativeGrid(ExecContext& ctx, std::string& printfOutput,
                        std::map<uint64_t, std::vector<DeviceLaunch>>& launchesByCta);

}  // namespace ptxsim::sim::exec
