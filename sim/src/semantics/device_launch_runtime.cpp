// The CDP2 device runtime: what nvcc's code for `kernel<<<g, b, s, stream>>>`
// in device code calls (__cudaCDP2GetParameterBufferV2, then
// __cudaCDP2LaunchDeviceV2 with the filled buffer), device-side streams and
// events, and the per-thread last error. Launches are recorded in the CTA
// (exec/device_launch.h); the driver runs them after the grid (gpu.cpp).
//
// Events need no state beyond their handles: launches from a CTA run in
// program order, so work recorded before an event always completes before
// work launched after a wait on it.

#include <algorithm>
#include <cstring>

#include "../exec/device_launch.h"
#include "../exec/preparer.h"
#include "device_runtime.h"
#include "ptxsim/sim/device_heap.h"

namespace ptxsim::sim::semantics {

namespace {

namespace error = exec::device_error;
using exec::DeviceRuntimeState;

// cudaStreamNonBlocking, the only flag device-side streams accept, and
// cudaErrorMemoryAllocation.
constexpr uint32_t kStreamNonBlocking = 1;
constexpr int32_t kMemoryAllocation = 2;

DeviceRuntimeState& runtimeOf(ExecContext& ctx) { return ctx.cta->deviceRuntime; }

uint32_t threadIndex(const ExecContext& ctx, unsigned lane) {
  return ctx.warp->index * exec::kWarpSize + lane;
}

// Returns `code` to the lane and, if it is an error, makes it the thread's
// last error (what the device-side cudaGetLastError returns).
void finish(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, int32_t code) {
  if (code != error::kSuccess) {
    DeviceRuntimeState& rt = runtimeOf(ctx);
    if (rt.lastErrors.empty()) rt.lastErrors.assign(ctx.cta->threadCount, error::kSuccess);
    rt.lastErrors[threadIndex(ctx, lane)] = code;
  }
  setResult(ctx, binding, lane, static_cast<uint64_t>(static_cast<uint32_t>(code)));
}

// Stores `size` bytes through a generic pointer argument; false after the
// fault was reported.
bool store(ExecContext& ctx, unsigned lane, uint64_t address, const void* value, unsigned size) {
  uint8_t* target = ctx.access(exec::AddressSpace::Generic, address, size, lane, exec::AccessKind::Store);
  if (target == nullptr) return false;
  std::memcpy(target, value, size);
  return true;
}

// Why a launch of `function` with this configuration cannot be made now;
// kSuccess if it can. Waits for the CTA's turn before counting pending
// launches (exec/launch_turns.h).
int32_t launchRefusal(ExecContext& ctx, uint32_t function, Dim3 grid, Dim3 block) {
  const isa::Module& module = *ctx.grid.kernel.module;
  if (function == UINT32_MAX || !module.functions[function].isKernel ||
      !module.functions[function].isDefined) {
    return error::kInvalidDeviceFunction;
  }
  if (ctx.grid.depth >= exec::kMaxLaunchDepth) return error::kLaunchMaxDepthExceeded;
  if (!checkLaunchGeometry(module.functions[function], grid, block, ctx.grid.config.limits).empty()) {
    return error::kInvalidConfiguration;
  }
  DeviceRuntimeState& rt = runtimeOf(ctx);
  // A co-resident grid runs on one host thread in block order: no turns.
  if (!rt.hasLaunchTurn && ctx.grid.launchTurns != nullptr) {
    ctx.grid.launchTurns->waitFor(ctx.cta->linearId);
    rt.hasLaunchTurn = true;
  }
  if (ctx.grid.pendingBefore + ctx.grid.launchesRecorded >= ctx.grid.pendingLaunchLimit) {
    return error::kLaunchPendingCountExceeded;
  }
  return error::kSuccess;
}

// (function, dim3 grid, dim3 block, unsigned sharedBytes) -> parameter
// buffer, or null when the launch cannot be made (the reason becomes the
// thread's last error; nvcc's code then skips the launch).
void getParameterBuffer(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  exec::ParameterBuffer buffer;
  const isa::Module& module = *ctx.grid.kernel.module;
  buffer.function = exec::functionAt(argument64(ctx, binding, 0, lane), module.functions.size());
  uint32_t dims[3];
  argumentBytes(ctx, binding, 1, lane, dims, sizeof dims);
  buffer.grid = {dims[0], dims[1], dims[2]};
  argumentBytes(ctx, binding, 2, lane, dims, sizeof dims);
  buffer.block = {dims[0], dims[1], dims[2]};
  buffer.dynamicSharedBytes = static_cast<uint32_t>(argument64(ctx, binding, 3, lane));
  int32_t refusal = launchRefusal(ctx, buffer.function, buffer.grid, buffer.block);
  if (refusal == error::kSuccess) {
    buffer.address =
        ctx.grid.heap.allocate(std::max<uint64_t>(module.functions[buffer.function].paramBytes, 16));
    if (buffer.address == 0) refusal = error::kLaunchOutOfResources;
  }
  if (refusal != error::kSuccess) {
    finish(ctx, binding, lane, refusal);
    setResult(ctx, binding, lane, 0);
    return;
  }
  runtimeOf(ctx).buffers.push_back(buffer);
  setResult(ctx, binding, lane, buffer.address);
}

// Which stream a launch goes to; false for a handle that is no live
// stream of this CTA.
bool streamOf(const DeviceRuntimeState& rt, uint64_t handle, exec::LaunchStream& stream) {
  if (handle == 0) {
    stream = exec::LaunchStream::PerBlock;
  } else if (handle == exec::kTailLaunchStream) {
    stream = exec::LaunchStream::Tail;
  } else if (handle == exec::kFireAndForgetStream) {
    stream = exec::LaunchStream::FireAndForget;
  } else {
    uint64_t number = handle - exec::kDeviceStreamHandleBase;
    if (handle <= exec::kDeviceStreamHandleBase || number > rt.liveStreams.size() ||
        !rt.liveStreams[number - 1]) {
      return false;
    }
    stream = exec::LaunchStream::Named;
  }
  return true;
}

// (parameter buffer, stream) -> cudaError_t: records the launch with the
// parameters the buffer holds now.
void launchDevice(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  uint64_t address = argument64(ctx, binding, 0, lane);
  auto buffer = std::find_if(rt.buffers.begin(), rt.buffers.end(),
                             [&](const exec::ParameterBuffer& b) { return b.address == address; });
  if (buffer == rt.buffers.end()) {
    finish(ctx, binding, lane, error::kInvalidValue);
    return;
  }
  exec::DeviceLaunch launch;
  if (!streamOf(rt, argument64(ctx, binding, 1, lane), launch.stream)) {
    finish(ctx, binding, lane, error::kInvalidResourceHandle);
    return;
  }
  launch.function = buffer->function;
  launch.grid = buffer->grid;
  launch.block = buffer->block;
  launch.dynamicSharedBytes = buffer->dynamicSharedBytes;
  launch.parameters.resize(ctx.grid.kernel.module->functions[launch.function].paramBytes);
  ctx.grid.store.read(address, launch.parameters.data(), launch.parameters.size());
  ctx.grid.heap.release(address);
  rt.buffers.erase(buffer);
  rt.launches.push_back(std::move(launch));
  ++ctx.grid.launchesRecorded;
  finish(ctx, binding, lane, error::kSuccess);
}

void lastError(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, bool clear) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  int32_t code = error::kSuccess;
  if (!rt.lastErrors.empty()) {
    int32_t& slot = rt.lastErrors[threadIndex(ctx, lane)];
    code = slot;
    if (clear) slot = error::kSuccess;
  }
  setResult(ctx, binding, lane, static_cast<uint32_t>(code));
}

void streamCreate(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  if (static_cast<uint32_t>(argument64(ctx, binding, 1, lane)) != kStreamNonBlocking) {
    finish(ctx, binding, lane, error::kInvalidValue);
    return;
  }
  rt.liveStreams.push_back(true);
  uint64_t handle = exec::kDeviceStreamHandleBase + rt.liveStreams.size();
  if (!store(ctx, lane, argument64(ctx, binding, 0, lane), &handle, sizeof handle)) return;
  finish(ctx, binding, lane, error::kSuccess);
}

void streamDestroy(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  exec::LaunchStream stream{};
  uint64_t handle = argument64(ctx, binding, 0, lane);
  if (!streamOf(rt, handle, stream) || stream != exec::LaunchStream::Named) {
    finish(ctx, binding, lane, error::kInvalidResourceHandle);
    return;
  }
  // Work already launched into it still runs, as CUDA specifies.
  rt.liveStreams[handle - exec::kDeviceStreamHandleBase - 1] = false;
  finish(ctx, binding, lane, error::kSuccess);
}

bool isEvent(const DeviceRuntimeState& rt, uint64_t handle) {
  return handle > exec::kDeviceEventHandleBase && handle - exec::kDeviceEventHandleBase <= rt.eventsCreated;
}

void eventCreate(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  uint64_t handle = exec::kDeviceEventHandleBase + ++rt.eventsCreated;
  if (!store(ctx, lane, argument64(ctx, binding, 0, lane), &handle, sizeof handle)) return;
  finish(ctx, binding, lane, error::kSuccess);
}

// EventRecord(event, stream[, flags]), StreamWaitEvent(stream, event, flags)
// and EventDestroy(event): checked handles, no other effect (see the top).
void eventUse(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, size_t eventArgument,
              int streamArgument) {
  DeviceRuntimeState& rt = runtimeOf(ctx);
  exec::LaunchStream stream{};
  bool ok =
      isEvent(rt, argument64(ctx, binding, eventArgument, lane)) &&
      (streamArgument < 0 || streamOf(rt, argument64(ctx, binding, size_t(streamArgument), lane), stream));
  finish(ctx, binding, lane, ok ? error::kSuccess : error::kInvalidResourceHandle);
}

void getDevice(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  int32_t device = 0;
  if (!store(ctx, lane, argument64(ctx, binding, 0, lane), &device, sizeof device)) return;
  finish(ctx, binding, lane, error::kSuccess);
}

// cudaMalloc(&pointer, bytes) and cudaFree(pointer) in device code: the
// same heap as malloc and free.
void deviceMalloc(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  uint64_t address = ctx.grid.heap.allocate(argument64(ctx, binding, 1, lane));
  if (!store(ctx, lane, argument64(ctx, binding, 0, lane), &address, sizeof address)) return;
  finish(ctx, binding, lane, address != 0 ? error::kSuccess : kMemoryAllocation);
}

void deviceFree(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane) {
  uint64_t address = argument64(ctx, binding, 0, lane);
  bool ok = address == 0 || ctx.grid.heap.release(address);
  finish(ctx, binding, lane, ok ? error::kSuccess : error::kInvalidValue);
}

}  // namespace

void runDeviceLaunchBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  using B = exec::Builtin;
  exec::forLanes(lanes, [&](unsigned l) {
    if (ctx.aborted) return;
    switch (binding.builtin) {
      case B::GetParameterBuffer: getParameterBuffer(ctx, binding, l); return;
      case B::LaunchDevice: launchDevice(ctx, binding, l); return;
      case B::GetLastError: lastError(ctx, binding, l, true); return;
      case B::PeekAtLastError: lastError(ctx, binding, l, false); return;
      case B::GetDevice: getDevice(ctx, binding, l); return;
      case B::StreamCreateWithFlags: streamCreate(ctx, binding, l); return;
      case B::StreamDestroy: streamDestroy(ctx, binding, l); return;
      case B::EventCreateWithFlags: eventCreate(ctx, binding, l); return;
      case B::EventRecord: eventUse(ctx, binding, l, 0, 1); return;
      case B::StreamWaitEvent: eventUse(ctx, binding, l, 1, 0); return;
      case B::EventDestroy: eventUse(ctx, binding, l, 0, -1); return;
      case B::DeviceMalloc: deviceMalloc(ctx, binding, l); return;
      case B::DeviceFree: deviceFree(ctx, binding, l); return;
      default:
        ctx.fail(LaunchErrorKind::Unsupported,
                 "call to a device runtime function the simulator does not know", l);
        return;
    }
  });
}

}  // namespace ptxsim::sim::semantics
