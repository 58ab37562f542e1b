// What a deadlock report says about the threads that cannot go on: each
// group's lanes, PC and PTX line (and CUDA line where the PTX has .loc),
// and what it waits for.

#include <cstdio>

#include "executor.h"

namespace ptxsim::sim::exec {

namespace {

std::string_view reason(GroupWait wait) {
  switch (wait) {
    case GroupWait::None: return "running, without progress";
    case GroupWait::Reconvergence: return "waiting to reconverge";
    case GroupWait::WarpSync: return "waiting at bar.warp.sync for its member mask";
    case GroupWait::Collective: return "waiting at a .sync collective for its member mask";
    case GroupWait::Barrier: return "waiting at a CTA barrier";
  }
  return "?";
}

}  // namespace

std::string describeWarp(const Warp& warp) {
  std::string text;
  for (const ThreadGroup& g : warp.groups) {
    if (g.mask == 0) continue;
    const isa::Instruction& inst = *g.frame->function->code[g.pc].source;
    char line[160];
    std::snprintf(line, sizeof line, "\n  warp %u lanes 0x%08x at PC %u (PTX line %u", warp.index, g.mask, g.pc,
                  inst.where.line);
    text += line;
    if (inst.debug.file != 0) text += ", CUDA line " + std::to_string(inst.debug.line);
    text += ") in " + g.frame->function->function->name + ": ";
    text += reason(g.wait);
  }
  return text;
}

void reportStuckWarp(ExecContext& ctx) {
  ctx.grid.fail(ctx.cta->linearId, LaunchErrorKind::Deadlock,
                "deadlock: the threads of warp " + std::to_string(ctx.warp->index) + " of block (" +
                    std::to_string(ctx.cta->ctaid.x) + "," + std::to_string(ctx.cta->ctaid.y) + "," +
                    std::to_string(ctx.cta->ctaid.z) + ") of kernel " + ctx.grid.kernel.kernel().function->name +
                    " wait for each other (simt " + std::string(nameOf(ctx.warp->mode)) + ")" +
                    describeWarp(*ctx.warp));
  ctx.aborted = true;
}

}  // namespace ptxsim::sim::exec
