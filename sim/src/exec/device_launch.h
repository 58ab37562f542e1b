#pragma once

// Kernel launches from device code (CUDA dynamic parallelism, CDP2): what a
// CTA records when a thread launches a grid, and the device runtime's
// per-CTA state (streams, events, each thread's last error).
//
// A child grid is not guaranteed to run concurrently with its parent and
// CDP2 has no device-side synchronisation, so the functional driver runs
// child grids after every CTA of the launching grid has finished, depth
// first, in a fixed order (gpu.cpp): the launching CTA's linear index, then
// the order of the launches in that CTA; tail launches after all the
// others. That order respects every stream rule (same stream in order,
// tail launches last), whatever the host thread count.

#include <cstdint>
#include <vector>

#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim::exec {

// The cudaError_t values the device runtime returns (driver_types.h).
namespace device_error {
inline constexpr int32_t kSuccess = 0;
inline constexpr int32_t kInvalidValue = 1;
inline constexpr int32_t kInvalidConfiguration = 9;
inline constexpr int32_t kLaunchMaxDepthExceeded = 65;
inline constexpr int32_t kLaunchPendingCountExceeded = 69;
inline constexpr int32_t kInvalidDeviceFunction = 98;
inline constexpr int32_t kInvalidResourceHandle = 400;
inline constexpr int32_t kLaunchOutOfResources = 701;
}  // namespace device_error

// The nesting depth CUDA allows: a grid launched from the host has depth
// 0, and a grid of depth 24 cannot launch (cudaErrorLaunchMaxDepthExceeded).
inline constexpr uint32_t kMaxLaunchDepth = 24;

// cudaStreamTailLaunch and cudaStreamFireAndForget (cuda_device_runtime_api.h).
inline constexpr uint64_t kTailLaunchStream = 3;
inline constexpr uint64_t kFireAndForgetStream = 4;
// Handles of streams and events created in device code: never a valid
// address, distinct from the special streams, numbered per CTA.
inline constexpr uint64_t kDeviceStreamHandleBase = 0x5354'0000'0000'0000ull;
inline constexpr uint64_t kDeviceEventHandleBase = 0x4556'0000'0000'0000ull;

enum class LaunchStream : uint8_t { PerBlock, Named, FireAndForget, Tail };

struct DeviceLaunch {
  uint32_t function = 0;  // Module::functions index of the kernel
  Dim3 grid;
  Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  LaunchStream stream = LaunchStream::PerBlock;
  std::vector<uint8_t> parameters;  // copied from the parameter buffer at launch
};

// A parameter buffer __cudaCDP2GetParameterBufferV2 handed out and no
// launch has consumed yet.
struct ParameterBuffer {
  uint64_t address = 0;
  uint32_t function = 0;
  Dim3 grid;
  Dim3 block;
  uint32_t dynamicSharedBytes = 0;
};

// The device runtime's state in one CTA. Streams and events are
// block-scoped in CUDA; handles count up from 1 per CTA.
struct DeviceRuntimeState {
  std::vector<DeviceLaunch> launches;    // in program order (warp step order)
  std::vector<ParameterBuffer> buffers;  // handed out, not launched yet
  std::vector<int32_t> lastErrors;       // by thread index in the CTA; empty until an error
  std::vector<bool> liveStreams;         // by handle number - 1
  uint32_t eventsCreated = 0;
  bool hasLaunchTurn = false;  // every lower CTA has finished (pending counts are exact)

  void clear() {
    launches.clear();
    buffers.clear();
    lastErrors.clear();
    liveStreams.clear();
    eventsCreated = 0;
    hasLaunchTurn = false;
  }
};

}  // namespace ptxsim::sim::exec
