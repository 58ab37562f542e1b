#pragma once

// Gives PTX registers whose values are never live at the same time the same
// register row, as ptxas gives them the same machine register. nvcc's PTX
// declares a fresh virtual register for nearly every value (n-body's step
// declares 327), and a warp keeps each as a 256-byte row (lanes.h), so a
// warp's frame of declared registers outgrows the host's L1 and L2 caches
// (n-body: 83 kB a warp, 5.3 MB for its 64 warps) while only a few dozen
// hold a live value at any point.
//
// Liveness is per thread, on the function's control-flow graph: a lane
// runs the instructions of one path, and a handler writes only the lanes
// that execute it, so two registers never live together on any path may
// share a row whatever the warp's divergence. Conservatively:
// - a guarded write may leave a lane's old value, so it does not end the
//   register's earlier value (nor does a write through a video selector,
//   which keeps the other parts);
// - a destination never shares a row with a source of its own instruction
//   (handlers read other lanes' sources, or a vector's elements, after
//   writing some of the destination);
// What an instruction reads and writes comes from its operands' roles
// (operand_access.h): an instruction that also reads a destination (an
// accumulator written in place, as wgmma's) says so there
// (destinationIsRead), or its old value would count as dead.
//
// A register read before any write on some path is live from the entry
// (where a frame's rows start at zero, warp_control.cpp) to that read, so
// no other register writes its row before: it reads zero as before.
//
// Only the rows handlers use are renumbered: the dependence rows
// (PreparedFunction::dependenceRows) keep the declared numbering, so the
// timing model's scoreboard, and every cycle it gives, is unchanged.

#include "prepared.h"

namespace ptxsim::sim::exec {

// Renumbers `fn`'s register rows (fn.registerCount shrinks; scratch and
// constant rows move down after them). Leaves a function it cannot analyse
// (a register row it does not see in the IR, or more than
// kMaxCompactedRegisters registers) as it is.
void compactRegisterRows(PreparedFunction& fn);

inline constexpr size_t kMaxCompactedRegisters = 8192;

}  // namespace ptxsim::sim::exec
