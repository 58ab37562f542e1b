#include "warp_control.h"

#include <algorithm>
#include <cstring>

namespace ptxsim::sim::exec {

namespace {

void popReconverged(Frame& frame) {
  while (frame.stack.size() > 1 && frame.stack.back().pc == frame.stack.back().reconvergence) frame.stack.pop_back();
}

Frame& pushFrame(Warp& warp) {
  if (warp.depth == warp.frames.size()) warp.frames.push_back(std::make_unique<Frame>());
  Frame& frame = *warp.frames[warp.depth++];
  return frame;
}

void initFrame(Frame& frame, const PreparedFunction& fn, LaneMask lanes) {
  frame.function = &fn;
  // Registers start at zero so a program that reads one before writing it
  // sees the same value on every run, whatever ran on this host thread before.
  frame.registers.assign(uint64_t{fn.frameRows()} * kWarpSize, 0);
  frame.params.assign(fn.paramAreaBytes * kWarpSize, 0);
  frame.stack.clear();
  frame.stack.push_back({0, isa::kNone, lanes});
  frame.entryMask = lanes;
  frame.returned = 0;
  frame.dynamicLocal = 0;
  frame.kernelParams = nullptr;
  frame.kernelParamBytes = 0;
}

// Copies the callee's return values to the caller's .param variables for
// the lanes that returned, and moves those lanes past the call.
void finishCall(Warp& warp, Frame& callee, Frame& caller) {
  const PreparedInstruction& call = caller.function->code[caller.stack.back().pc];
  const CallBinding& binding = caller.function->calls[call.aux];
  const isa::Function& calleeFn = *callee.function->function;
  LaneMask lanes = callee.returned & ~warp.exited;
  for (size_t i = 0; i < binding.results.size() && i < calleeFn.returns.size(); ++i) {
    uint64_t from = callee.function->returnsOffset + calleeFn.returns[i].offset;
    uint64_t size = std::min(binding.results[i].size, calleeFn.returns[i].size);
    forLanes(lanes, [&](unsigned l) {
      std::memcpy(caller.paramsOf(l) + binding.results[i].callerOffset, callee.paramsOf(l) + from, size);
    });
  }
  advance(caller);
}

}  // namespace

void advance(Frame& frame) {
  ++frame.stack.back().pc;
  popReconverged(frame);
}

void branch(Frame& frame, LaneMask taken, uint32_t target, uint32_t reconvergence) {
  SimtEntry& top = frame.stack.back();
  LaneMask notTaken = top.mask & ~taken;
  uint32_t fallThrough = top.pc + 1;
  if (notTaken == 0 || taken == 0) {
    top.pc = notTaken == 0 ? target : fallThrough;
    popReconverged(frame);
    return;
  }
  // Divergence: the current entry waits at the reconvergence point with all
  // its lanes; each side runs as its own entry until it gets there. The
  // fall-through side runs first. A side that starts at the reconvergence
  // point itself needs no entry.
  top.pc = reconvergence;
  if (target != reconvergence) frame.stack.push_back({target, reconvergence, taken});
  if (fallThrough != reconvergence) frame.stack.push_back({fallThrough, reconvergence, notTaken});
  popReconverged(frame);
}

void exitLanes(ExecContext& ctx, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  warp.exited |= lanes;
  for (uint32_t d = 0; d < warp.depth; ++d) {
    for (SimtEntry& e : warp.frames[d]->stack) e.mask &= ~lanes;
  }
  settle(ctx);
}

void returnLanes(ExecContext& ctx, LaneMask lanes) {
  Frame& frame = ctx.warp->top();
  frame.returned |= lanes;
  for (SimtEntry& e : frame.stack) e.mask &= ~lanes;
  settle(ctx);
}

void settle(ExecContext& ctx) {
  Warp& warp = *ctx.warp;
  while (warp.depth > 0) {
    Frame& frame = warp.top();
    while (!frame.stack.empty() && frame.stack.back().mask == 0) frame.stack.pop_back();
    if (!frame.stack.empty()) {
      popReconverged(frame);
      break;
    }
    --warp.depth;
    if (warp.depth == 0) break;
    finishCall(warp, frame, warp.top());
  }
  if (warp.depth == 0) {
    warp.status = WarpStatus::Done;
    ctx.frame = nullptr;
  } else {
    ctx.frame = &warp.top();
  }
}

bool enterFunction(ExecContext& ctx, const PreparedFunction& callee, const CallBinding& binding, LaneMask lanes) {
  Warp& warp = *ctx.warp;
  Frame& caller = warp.top();
  uint64_t base = caller.localBase + caller.function->localFrameBytes + caller.dynamicLocal;
  if (base + callee.localFrameBytes > ctx.grid.localBytesPerThread || warp.depth >= 4096) {
    ctx.fail(LaunchErrorKind::StackOverflow,
             "call stack overflow calling " + callee.function->name + " (" + std::to_string(warp.depth) +
                 " frames, " + std::to_string(base + callee.localFrameBytes) + " bytes of local memory per thread; " +
                 "cudaLimitStackSize allows " + std::to_string(ctx.grid.localBytesPerThread) + ")",
             static_cast<unsigned>(std::countr_zero(lanes)));
    return false;
  }
  Frame& frame = pushFrame(warp);
  initFrame(frame, callee, lanes);
  frame.localBase = base;
  Frame& callerFrame = *warp.frames[warp.depth - 2];  // pushFrame may have moved nothing: frames are pointers
  const isa::Function& calleeFn = *callee.function;
  for (size_t i = 0; i < binding.arguments.size() && i < calleeFn.params.size(); ++i) {
    uint64_t size = std::min(binding.arguments[i].size, calleeFn.params[i].size);
    forLanes(lanes, [&](unsigned l) {
      std::memcpy(frame.paramsOf(l) + calleeFn.params[i].offset,
                  callerFrame.paramsOf(l) + binding.arguments[i].callerOffset, size);
    });
  }
  ctx.frame = &frame;
  return true;
}

void enterKernel(Warp& warp, const PreparedFunction& kernel, const uint8_t* params, uint64_t paramBytes) {
  warp.depth = 0;
  Frame& frame = pushFrame(warp);
  initFrame(frame, kernel, warp.existing);
  frame.localBase = 0;
  frame.kernelParams = params;
  frame.kernelParamBytes = paramBytes;
}

}  // namespace ptxsim::sim::exec

namespace ptxsim::sim::exec {

bool splitOnGuard(ExecContext& ctx) {
  if (ctx.mask == ctx.active) return false;
  Frame& frame = *ctx.frame;
  if (ctx.mask == 0) {
    advance(frame);
    return true;
  }
  SimtEntry& top = frame.stack.back();
  uint32_t pc = top.pc;
  top.pc = pc + 1;
  frame.stack.push_back({pc, pc + 1, ctx.mask});
  return true;
}

}  // namespace ptxsim::sim::exec
