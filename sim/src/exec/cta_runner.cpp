#include "cta_runner.h"

#include <algorithm>
#include <cstring>

#include "barriers.h"
#include "executor.h"
#include "warp_control.h"

namespace ptxsim::sim::exec {

namespace {

void initCta(ExecContext& ctx, CtaState& cta, uint64_t linearId) {
  const LaunchConfig& launch = ctx.grid.launch;
  const PreparedKernel& kernel = ctx.grid.kernel;
  cta.linearId = linearId;
  uint64_t gx = launch.grid.x, gy = launch.grid.y;
  cta.ctaid = {static_cast<uint32_t>(linearId % gx), static_cast<uint32_t>(linearId / gx % gy),
               static_cast<uint32_t>(linearId / (gx * gy))};
  cta.threadCount = static_cast<uint32_t>(launch.block.count());
  cta.shared.assign(kernel.dynamicSharedOffset + launch.dynamicSharedBytes, 0);
  cta.printfOutput.clear();
  cta.instructions = 0;
  for (BarrierState& b : cta.barriers) b = BarrierState{};
  uint32_t warpCount = (cta.threadCount + kWarpSize - 1) / kWarpSize;
  cta.warps.resize(warpCount);
  for (uint32_t w = 0; w < warpCount; ++w) {
    Warp& warp = cta.warps[w];
    warp.index = w;
    uint32_t first = w * kWarpSize;
    uint32_t lanes = std::min<uint32_t>(kWarpSize, cta.threadCount - first);
    warp.existing = lanes == kWarpSize ? kFullMask : (LaneMask{1} << lanes) - 1;
    warp.exited = 0;
    warp.status = WarpStatus::Ready;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      uint32_t t = first + lane;
      warp.tid[lane] = {t % launch.block.x, t / launch.block.x % launch.block.y,
                        t / (launch.block.x * launch.block.y)};
    }
    warp.local.assign(ctx.grid.localBytesPerThread * kWarpSize, 0);
    enterKernel(warp, kernel.kernel(), launch.parameters.data(), launch.parameters.size());
  }
}

std::string deadlockReport(const ExecContext& ctx, const CtaState& cta) {
  std::string text = "deadlock: no warp of the block can make progress";
  for (const Warp& warp : cta.warps) {
    if (warp.done()) continue;
    const Frame& frame = *warp.frames[warp.depth - 1];
    const SimtEntry& entry = frame.stack.back();
    const isa::Instruction& inst = *frame.function->code[entry.pc].source;
    text += "; warp " + std::to_string(warp.index) + " waits at barrier " + std::to_string(warp.barrier) +
            " (PTX line " + std::to_string(inst.where.line) + ", lanes 0x";
    char mask[16];
    std::snprintf(mask, sizeof mask, "%08x", entry.mask);
    text += mask;
    text += ")";
  }
  (void)ctx;
  return text;
}

}  // namespace

void runCta(ExecContext& ctx, CtaState& cta, uint64_t linearId) {
  initCta(ctx, cta, linearId);
  ctx.cta = &cta;
  ctx.aborted = false;
  const uint32_t quantum = std::max<uint32_t>(1, ctx.grid.options.warpQuantum);
  const uint64_t limit = ctx.grid.options.maxWarpInstructions;
  while (true) {
    bool progress = false;
    bool allDone = true;
    for (Warp& warp : cta.warps) {
      if (warp.status == WarpStatus::Ready) {
        ctx.warp = &warp;
        uint32_t executed = runWarp(ctx, quantum);
        progress = progress || executed > 0;
        if (ctx.aborted) return;
        // A block-wide barrier counts the warps still running: one that
        // finished may have been the last one it waited for.
        if (warp.done()) releaseCompletedBarriers(ctx);
        uint64_t total = ctx.grid.warpInstructions.fetch_add(executed, std::memory_order_relaxed) + executed;
        if (total > limit) {
          ctx.fail(LaunchErrorKind::Timeout,
                   "the launch executed more than " + std::to_string(limit) +
                       " warp instructions (a kernel that never finishes?)",
                   0);
          return;
        }
      }
      allDone = allDone && warp.done();
    }
    if (allDone) return;
    // A lower-numbered CTA failed: this one's results no longer matter.
    if (ctx.grid.failedCta.load(std::memory_order_relaxed) < linearId) return;
    if (!progress) {
      ctx.warp = nullptr;
      ctx.frame = nullptr;
      ctx.current = nullptr;
      ctx.grid.fail(linearId, LaunchErrorKind::Deadlock, deadlockReport(ctx, cta) + " in " + ctx.where(0));
      ctx.aborted = true;
      return;
    }
  }
}

}  // namespace ptxsim::sim::exec
