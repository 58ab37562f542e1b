#pragma once

// One piece of stream work, as a value: what a stream executes when the
// work is issued, and what a graph node holds when the work is captured or
// added through the graph API. Every stream operation goes through
// issue() (stream_order.h), which either executes it or records it.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace ptxsim::cudart {

class Graph;

struct KernelOperation {
  const void* function = nullptr;
  dim3 grid;
  dim3 block;
  size_t sharedBytes = 0;
  // The argument values, copied when the work is issued or captured (sizes
  // from the kernel's parameter list), so a graph replays them.
  std::vector<std::vector<uint8_t>> arguments;
  // cudaGraphKernelNodeGetParams's kernelParams: pointers into `arguments`,
  // rebuilt when asked for (a copy of the operation moves the arguments).
  std::vector<void*> argumentPointers;
  bool cooperative = false;  // cudaLaunchCooperativeKernel: every CTA resident at once
  // cudaLaunchAttributeClusterDimension; zeros when the launch names none.
  dim3 cluster{0, 0, 0};
  // cudaGraphKernelNodeSetAttribute's values; an attribute not set reads as zero.
  std::map<cudaLaunchAttributeID, cudaLaunchAttributeValue> attributes;
};

struct CopyOperation {
  // The cudaMemcpy3DParms form the graph API reports. A 1D copy (linear)
  // runs as cudaMemcpy does, from srcPtr.ptr to dstPtr.ptr, extent.width bytes.
  cudaMemcpy3DParms params{};
  bool linear = false;
};

struct MemsetOperation {
  cudaMemsetParams params{};
};

struct HostOperation {
  cudaHostFn_t function = nullptr;  // cudaLaunchHostFunc, host nodes
  void* userData = nullptr;
  cudaStreamCallback_t callback = nullptr;  // cudaStreamAddCallback (gets the stream and status)
  cudaStream_t stream = nullptr;
};

struct EventRecordOperation {
  cudaEvent_t event = nullptr;
};

struct EventWaitOperation {
  cudaEvent_t event = nullptr;
};

struct EmptyOperation {};

// Managed-memory prefetches and discards (cudaMemPrefetchAsync and the
// batch forms): hints that move no data in a functional simulator, but
// cudaMemRangeGetAttribute reports the last prefetch location once they run.
struct PrefetchOperation {
  struct Range {
    uint64_t address = 0;
    uint64_t bytes = 0;
    cudaMemLocation location{cudaMemLocationTypeInvalid, 0};  // Invalid: discard only
  };
  std::vector<Range> ranges;
};

// Graph memory (graph_memory.h): an allocation node maps its allocation,
// whose address was fixed when the node was made; a free node unmaps one.
struct MemAllocOperation {
  cudaMemAllocNodeParams params{};  // accessDescs points into `accessDescs` when reported
  std::vector<cudaMemAccessDesc> accessDescs;
};

struct MemFreeOperation {
  void* pointer = nullptr;
};

struct ChildGraphOperation {
  std::shared_ptr<Graph> graph;  // owned by the node; copied deeply with it
};

using StreamOperation = std::variant<KernelOperation, CopyOperation, MemsetOperation, HostOperation,
                                     EventRecordOperation, EventWaitOperation, EmptyOperation, ChildGraphOperation,
                                     PrefetchOperation, MemAllocOperation, MemFreeOperation>;

cudaGraphNodeType nodeTypeOf(const StreamOperation& operation);

// A copy whose child graphs are copied too (a graph owns its children).
StreamOperation deepCopy(const StreamOperation& operation);

// Builds a kernel operation, copying each argument with the size the
// kernel's parameter list gives it.
cudaError_t makeKernelOperation(const void* function, dim3 grid, dim3 block, size_t sharedBytes, void** args,
                                KernelOperation& out);

// The 3D form of a 1D copy, as CUDA reports it for a 1D memcpy node.
CopyOperation linearCopy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);

// Runs an operation now, in `stream`. `lock` holds the shim's mutex; it is
// released while a host function runs, so a callback that calls the CUDA
// API anyway does not deadlock.
cudaError_t execute(const StreamOperation& operation, cudaStream_t stream, std::unique_lock<std::mutex>& lock);

}  // namespace ptxsim::cudart
