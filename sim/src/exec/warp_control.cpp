#include "warp_control.h"

#include <algorithm>
#include <cstring>

#include "simt_policy.h"

namespace ptxsim::sim::exec {

namespace {

Frame& newFrame(Warp& warp) {
  if (warp.freeFrames.empty()) {
    warp.framePool.push_back(std::make_unique<Frame>());
    return *warp.framePool.back();
  }
  Frame* frame = warp.freeFrames.back();
  warp.freeFrames.pop_back();
  return *frame;
}

void initFrame(Frame& frame, const PreparedFunction& fn, LaneMask lanes) {
  frame.function = &fn;
  frame.caller = nullptr;
  frame.callSite = 0;
  frame.lanes = lanes;
  // Registers start at zero so a program that reads one before writing it
  // sees the same value on every run, whatever ran on this host thread before.
  frame.registers.assign(uint64_t{fn.frameRows()} * kWarpSize, 0);
  frame.params.assign(fn.paramAreaBytes * kWarpSize, 0);
  frame.dynamicLocal = 0;
  frame.kernelParams = nullptr;
  frame.kernelParamBytes = 0;
}

// `lanes` no longer run in `frame` (they returned from it or exited); a
// frame no lane runs in goes back to the pool.
void leaveFrame(Warp& warp, Frame& frame, LaneMask lanes) {
  frame.lanes &= ~lanes;
  if (frame.lanes == 0) warp.freeFrames.push_back(&frame);
}

// Copies the callee's return values to the caller's .param variables for
// `lanes`.
void copyResults(Frame& callee, Frame& caller, LaneMask lanes) {
  const PreparedInstruction& call = caller.function->code[callee.callSite];
  const CallBinding& binding = caller.function->calls[call.aux];
  const isa::Function& calleeFn = *callee.function->function;
  for (size_t i = 0; i < binding.results.size() && i < calleeFn.returns.size(); ++i) {
    uint64_t from = callee.function->returnsOffset + calleeFn.returns[i].offset;
    uint64_t size = std::min(binding.results[i].size, calleeFn.returns[i].size);
    forLanes(lanes, [&](unsigned l) {
      std::memcpy(caller.paramsOf(l) + binding.results[i].callerOffset, callee.paramsOf(l) + from, size);
    });
  }
}

}  // namespace

void advance(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  ++warp.group().pc;
  groupMoved(warp, warp.current);
}

void branch(ExecContext& ctx, LaneMask taken, uint32_t target, uint32_t reconvergence) {
  Warp& warp = *ctx.warp;
  ThreadGroup& g = warp.group();
  LaneMask notTaken = g.mask & ~taken;
  uint32_t fallThrough = g.pc + 1;
  if (notTaken == 0 || taken == 0) {
    g.pc = notTaken == 0 ? target : fallThrough;
    groupMoved(warp, warp.current);
    return;
  }
  // The fall-through side is the last part: it runs first under the stack,
  // as the hardware's reconvergence stack does.
  diverge(ctx, {{target, taken}, {fallThrough, notTaken}}, reconvergence);
}

void diverge(ExecContext& ctx, const std::vector<std::pair<uint32_t, LaneMask>>& allParts, uint32_t meet) {
  Warp& warp = *ctx.warp;
  std::vector<std::pair<uint32_t, LaneMask>> parts;
  for (const auto& part : allParts) {
    if (part.second != 0) parts.push_back(part);
  }
  uint32_t id = openDivergence(warp, warp.group().frame, meet, warp.group().mask);
  uint32_t first = warp.current;
  for (size_t i = 0; i < parts.size(); ++i) {
    uint32_t index = first;
    if (i > 0) {
      ThreadGroup copy = warp.groups[first];  // before push_back invalidates references
      warp.groups.push_back(std::move(copy));
      index = static_cast<uint32_t>(warp.groups.size() - 1);
    }
    ThreadGroup& g = warp.groups[index];
    g.mask = parts[i].second;
    g.pc = parts[i].first;
    g.wait = GroupWait::None;
    g.waited = 0;
    if (i == 0) g.splits.push_back(id);
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    groupMoved(warp, i == 0 ? first : static_cast<uint32_t>(warp.groups.size() - parts.size() + i));
  }
}

void exitLanes(ExecContext& ctx, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  ThreadGroup& g = warp.group();
  warp.exited |= lanes;
  for (Frame* f = g.frame; f != nullptr; f = f->caller) leaveFrame(warp, *f, lanes);
  removeLanes(warp, warp.current, lanes);
  if (ctx.warp->done()) ctx.frame = nullptr;
}

void returnLanes(ExecContext& ctx, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  if (lanes != warp.group().mask) {
    // Part of the group returns: it becomes a group of its own; the rest
    // stays in the callee.
    ThreadGroup returning = warp.group();
    returning.mask = lanes;
    warp.group().mask &= ~lanes;
    warp.groups.push_back(std::move(returning));
    warp.current = static_cast<uint32_t>(warp.groups.size() - 1);
  }
  ThreadGroup& r = warp.group();
  Frame& callee = *r.frame;
  Frame& caller = *callee.caller;
  copyResults(callee, caller, lanes);
  // Divergences inside the callee no longer concern these lanes.
  leaveDivergencesIn(warp, warp.current, &callee);
  r.frame = &caller;
  r.pc = callee.callSite + 1;
  leaveFrame(warp, callee, lanes);
  ctx.frame = &caller;
  groupMoved(warp, warp.current);
}

bool enterFunction(ExecContext& ctx, const PreparedFunction& callee, const CallBinding& binding, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  Frame& caller = *warp.group().frame;
  uint64_t base = caller.localBase + caller.function->localFrameBytes + caller.dynamicLocal;
  uint32_t depth = 0;
  for (const Frame* f = &caller; f != nullptr; f = f->caller) ++depth;
  if (base + callee.localFrameBytes > ctx.grid.localBytesPerThread || depth >= 4096) {
    ctx.fail(LaunchErrorKind::StackOverflow,
             "call stack overflow calling " + callee.function->name + " (" + std::to_string(depth) +
                 " frames, " + std::to_string(base + callee.localFrameBytes) + " bytes of local memory per thread; " +
                 "cudaLimitStackSize allows " + std::to_string(ctx.grid.localBytesPerThread) + ")",
             static_cast<unsigned>(std::countr_zero(lanes)));
    return false;
  }
  Frame& frame = newFrame(warp);
  initFrame(frame, callee, lanes);
  frame.caller = &caller;
  frame.callSite = warp.group().pc;
  frame.localBase = base;
  const isa::Function& calleeFn = *callee.function;
  for (size_t i = 0; i < binding.arguments.size() && i < calleeFn.params.size(); ++i) {
    uint64_t size = std::min(binding.arguments[i].size, calleeFn.params[i].size);
    forLanes(lanes, [&](unsigned l) {
      std::memcpy(frame.paramsOf(l) + calleeFn.params[i].offset,
                  caller.paramsOf(l) + binding.arguments[i].callerOffset, size);
    });
  }
  // The lanes meet again after the call: under the stack, lanes that return
  // early wait there for the others.
  ThreadGroup& g = warp.group();
  uint32_t id = openDivergence(warp, &caller, frame.callSite + 1, lanes);
  g.splits.push_back(id);
  g.frame = &frame;
  g.pc = 0;
  ctx.frame = &frame;
  groupMoved(warp, warp.current);
  return true;
}

void enterKernel(Warp& warp, const PreparedFunction& kernel, const uint8_t* params, uint64_t paramBytes) {
  warp.freeFrames.clear();
  for (auto& f : warp.framePool) warp.freeFrames.push_back(f.get());
  warp.divergences.clear();
  warp.freeDivergences.clear();
  Frame& frame = newFrame(warp);
  initFrame(frame, kernel, warp.existing);
  frame.localBase = 0;
  frame.kernelParams = params;
  frame.kernelParamBytes = paramBytes;
  warp.groups.assign(1, ThreadGroup{});
  ThreadGroup& g = warp.groups[0];
  g.mask = warp.existing;
  g.pc = 0;
  g.frame = &frame;
  warp.current = 0;
  warp.slice = 0;
}

bool splitOnGuard(ExecContext& ctx) {
  if (ctx.mask == ctx.active) return false;
  Warp& warp = *ctx.warp;
  uint32_t pc = warp.group().pc;
  if (ctx.mask == 0) {
    advance(ctx);
    return true;
  }
  diverge(ctx, {{pc + 1, ctx.active & ~ctx.mask}, {pc, ctx.mask}}, pc + 1);
  return true;
}

}  // namespace ptxsim::sim::exec
