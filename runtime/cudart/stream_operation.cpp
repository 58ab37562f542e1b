#include "stream_operation.h"

#include <cstdio>
#include <cstring>

#include "graph.h"
#include "memory_ops.h"
#include "shim_state.h"

namespace ptxsim::cudart {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

GraphMemory& graphMemory() { return shimState().streamOrder().graphMemory(); }

cudaError_t runKernel(const KernelOperation& k, cudaStream_t stream) {
  std::vector<void*> pointers;
  pointers.reserve(k.arguments.size());
  for (const auto& a : k.arguments) pointers.push_back(const_cast<uint8_t*>(a.data()));
  return shimState().launch(k.function, k.grid, k.block, pointers.data(), k.sharedBytes, stream,
                            k.cooperative, k.cluster);
}

cudaError_t runCopy(const CopyOperation& c) {
  if (!c.linear) return copyMemory3D(&c.params);
  return copyMemory(c.params.dstPtr.ptr, c.params.srcPtr.ptr, c.params.extent.width, c.params.kind);
}

// Rows of `width` elements of 1, 2 or 4 bytes, `pitch` bytes apart (rows
// wider than the pitch overlap, as cudaMemset2D's do on an H100).
cudaError_t runMemset(const MemsetOperation& m) {
  const cudaMemsetParams& p = m.params;
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return cudaErrorInvalidValue;
  // One fill, though 2- and 4-byte values are written as copies of a row.
  const TransferScope oneFill(TransferKind::Fill);
  std::vector<uint8_t> row(p.width * p.elementSize);
  for (size_t i = 0; i < p.width; ++i) std::memcpy(&row[i * p.elementSize], &p.value, p.elementSize);
  for (size_t y = 0; y < std::max<size_t>(p.height, 1); ++y) {
    void* target = static_cast<char*>(p.dst) + y * p.pitch;
    cudaError_t e = p.elementSize == 1 ? fillMemory(target, static_cast<int>(p.value), p.width)
                                       : copyMemory(target, row.data(), row.size(), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t runHost(const HostOperation& h, std::unique_lock<std::mutex>& lock) {
  cudaError_t status = shimState().sticky();
  // cudaLaunchHostFunc's functions are not called once the context has an error.
  if (h.function != nullptr && status != cudaSuccess) return status;
  // A callback must not call CUDA, but one that does must not deadlock.
  lock.unlock();
  if (h.callback != nullptr) {
    h.callback(h.stream, status, h.userData);
  } else {
    h.function(h.userData);
  }
  lock.lock();
  return cudaSuccess;
}

cudaError_t runEventRecord(const EventRecordOperation& r) {
  auto& events = shimState().events();
  auto it = events.find(r.event);
  if (it == events.end()) return cudaErrorInvalidResourceHandle;
  it->second.recorded = true;
  it->second.simulatedNanoseconds = shimState().simulatedNanoseconds();
  return cudaSuccess;
}

cudaError_t runPrefetch(const PrefetchOperation& p) {
  for (const PrefetchOperation::Range& r : p.ranges) {
    if (r.location.type != cudaMemLocationTypeInvalid) {
      shimState().managedAdvice().prefetched(r.address, r.bytes, r.location);
    }
  }
  return cudaSuccess;
}

}  // namespace

cudaGraphNodeType nodeTypeOf(const StreamOperation& operation) {
  return std::visit(Overloaded{
                        [](const KernelOperation&) { return cudaGraphNodeTypeKernel; },
                        [](const CopyOperation&) { return cudaGraphNodeTypeMemcpy; },
                        [](const MemsetOperation&) { return cudaGraphNodeTypeMemset; },
                        [](const HostOperation&) { return cudaGraphNodeTypeHost; },
                        [](const EventRecordOperation&) { return cudaGraphNodeTypeEventRecord; },
                        [](const EventWaitOperation&) { return cudaGraphNodeTypeWaitEvent; },
                        [](const EmptyOperation&) { return cudaGraphNodeTypeEmpty; },
                        [](const ChildGraphOperation&) { return cudaGraphNodeTypeGraph; },
                        // The runtime API has no node type for memory hints.
                        [](const PrefetchOperation&) { return cudaGraphNodeTypeEmpty; },
                        [](const MemAllocOperation&) { return cudaGraphNodeTypeMemAlloc; },
                        [](const MemFreeOperation&) { return cudaGraphNodeTypeMemFree; },
                    },
                    operation);
}

StreamOperation deepCopy(const StreamOperation& operation) {
  if (const auto* child = std::get_if<ChildGraphOperation>(&operation)) {
    return ChildGraphOperation{std::shared_ptr<Graph>(child->graph->clone())};
  }
  return operation;
}

cudaError_t makeKernelOperation(const void* function, dim3 grid, dim3 block, size_t sharedBytes, void** args,
                                KernelOperation& out) {
  std::vector<size_t> sizes;
  cudaError_t e = shimState().kernelParameterSizes(function, sizes);
  if (e != cudaSuccess) return e;
  if (args == nullptr && !sizes.empty()) return cudaErrorInvalidValue;
  out.function = function;
  out.grid = grid;
  out.block = block;
  out.sharedBytes = sharedBytes;
  out.arguments.clear();
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto* bytes = static_cast<const uint8_t*>(args[i]);
    out.arguments.emplace_back(bytes, bytes + sizes[i]);
  }
  return cudaSuccess;
}

CopyOperation linearCopy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  CopyOperation c;
  c.linear = true;
  c.params.srcPtr = cudaPitchedPtr{const_cast<void*>(src), count, count, 1};
  c.params.dstPtr = cudaPitchedPtr{dst, count, count, 1};
  c.params.extent = cudaExtent{count, 1, 1};
  c.params.kind = kind;
  return c;
}

cudaError_t execute(const StreamOperation& operation, cudaStream_t stream, std::unique_lock<std::mutex>& lock) {
  return std::visit(Overloaded{
                        [&](const KernelOperation& k) { return runKernel(k, stream); },
                        [](const CopyOperation& c) { return runCopy(c); },
                        [](const MemsetOperation& m) { return runMemset(m); },
                        [&](const HostOperation& h) { return runHost(h, lock); },
                        [](const EventRecordOperation& r) { return runEventRecord(r); },
                        // Everything before the wait has completed already.
                        [](const EventWaitOperation&) { return cudaSuccess; },
                        [](const EmptyOperation&) { return cudaSuccess; },
                        [&](const ChildGraphOperation& g) { return g.graph->run(stream, lock); },
                        [](const PrefetchOperation& p) { return runPrefetch(p); },
                        [](const MemAllocOperation& a) { return graphMemory().map(shimState().device(), a.params.dptr); },
                        [](const MemFreeOperation& f) { return graphMemory().unmap(shimState().device(), f.pointer); },
                    },
                    operation);
}

}  // namespace ptxsim::cudart
