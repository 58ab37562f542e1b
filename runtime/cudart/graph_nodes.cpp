#include "graph_nodes.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "memory_ops.h"
#include "shim_state.h"

namespace ptxsim::cudart {

cudaError_t dependencyNodes(const Graph* graph, const cudaGraphNode_t* dependencies, size_t count,
                            std::vector<GraphNode*>& out) {
  if (dependencies == nullptr && count != 0) return cudaErrorInvalidValue;
  out.clear();
  for (size_t i = 0; i < count; ++i) {
    GraphNode* n = nodeOf(dependencies[i]);
    // A node of another graph, or the same dependency twice, is refused.
    if (n == nullptr || n->graph != graph || std::find(out.begin(), out.end(), n) != out.end()) {
      return cudaErrorInvalidValue;
    }
    out.push_back(n);
  }
  return cudaSuccess;
}

cudaError_t addNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                    size_t count, StreamOperation operation) {
  Graph* g = graphOf(graph);
  if (out == nullptr || g == nullptr) return cudaErrorInvalidValue;
  std::vector<GraphNode*> deps;
  if (cudaError_t e = dependencyNodes(g, dependencies, count, deps); e != cudaSuccess) return e;
  *out = handleOf(g->addNode(std::move(operation), deps));
  return cudaSuccess;
}

cudaError_t kernelOperation(const cudaKernelNodeParams* p, KernelOperation& out) {
  if (p == nullptr) return cudaErrorInvalidValue;
  if (p->extra != nullptr) {
    std::fprintf(stderr, "ptxsim: kernel node parameters passed through `extra` are not supported yet\n");
    return cudaErrorNotSupported;
  }
  return makeKernelOperation(p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, out);
}

cudaError_t memsetOperation(const cudaMemsetParams* p, MemsetOperation& out) {
  if (p == nullptr || p->dst == nullptr) return cudaErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) return cudaErrorInvalidValue;
  if (p->height > 1 && p->pitch < p->width * p->elementSize) return cudaErrorInvalidValue;
  out.params = *p;
  return cudaSuccess;
}

cudaError_t copyOperation(const cudaMemcpy3DParms* p, CopyOperation& out) {
  if (p == nullptr) return cudaErrorInvalidValue;
  out.params = *p;
  out.linear = false;
  return cudaSuccess;
}

cudaError_t hostOperation(const cudaHostNodeParams* p, HostOperation& out) {
  if (p == nullptr || p->fn == nullptr) return cudaErrorInvalidValue;
  out = HostOperation{p->fn, p->userData, nullptr, nullptr};
  return cudaSuccess;
}

cudaError_t symbolCopyOperation(const void* symbol, size_t offset, size_t count, void* host, bool toSymbol,
                                cudaMemcpyKind kind, CopyOperation& out) {
  if (host == nullptr || count == 0) return cudaErrorInvalidValue;
  void* range = nullptr;
  if (cudaError_t e = symbolRange(symbol, offset, count, range); e != cudaSuccess) return e;
  if (kind != cudaMemcpyDefault && kind != (toSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) &&
      kind != cudaMemcpyDeviceToDevice) {
    return cudaErrorInvalidMemcpyDirection;
  }
  out = toSymbol ? linearCopy(range, host, count, kind) : linearCopy(host, range, count, kind);
  return cudaSuccess;
}

cudaError_t memAllocOperation(cudaMemAllocNodeParams& params, MemAllocOperation& out) {
  const cudaMemPoolProps& props = params.poolProps;
  if (params.bytesize == 0 || props.allocType != cudaMemAllocationTypePinned) return cudaErrorInvalidValue;
  if (props.location.type != cudaMemLocationTypeDevice) {
    std::fprintf(stderr, "ptxsim: graph allocation nodes of host memory are not supported yet\n");
    return cudaErrorNotSupported;
  }
  if (props.location.id != 0) return cudaErrorInvalidDevice;
  if (props.handleTypes != cudaMemHandleTypeNone) return cudaErrorInvalidValue;  // no IPC for graph memory
  if (params.accessDescCount != 0 && params.accessDescs == nullptr) return cudaErrorInvalidValue;
  for (size_t i = 0; i < params.accessDescCount; ++i) {
    const cudaMemAccessDesc& d = params.accessDescs[i];
    if (d.location.type != cudaMemLocationTypeDevice || d.location.id != 0) return cudaErrorInvalidDevice;
    if (d.flags != cudaMemAccessFlagsProtReadWrite) return cudaErrorInvalidValue;
  }
  out.accessDescs.assign(params.accessDescs, params.accessDescs + params.accessDescCount);
  cudaError_t e =
      shimState().streamOrder().graphMemory().reserve(shimState().device(), params.bytesize, &params.dptr);
  if (e != cudaSuccess) return e;
  out.params = params;
  out.params.accessDescs = nullptr;  // pointed at the node's own copy when reported
  return cudaSuccess;
}

namespace {

// Every node `from` reaches through its dependencies, itself included.
std::set<const GraphNode*> ancestors(const std::vector<GraphNode*>& from) {
  std::set<const GraphNode*> reached;
  std::vector<const GraphNode*> pending(from.begin(), from.end());
  while (!pending.empty()) {
    const GraphNode* n = pending.back();
    pending.pop_back();
    if (!reached.insert(n).second) continue;
    pending.insert(pending.end(), n->dependencies.begin(), n->dependencies.end());
  }
  return reached;
}

}  // namespace

cudaError_t checkMemFree(const Graph& graph, const std::vector<GraphNode*>& dependencies,
                         const void* pointer) {
  if (!shimState().streamOrder().graphMemory().owns(pointer)) return cudaErrorInvalidValue;
  const GraphNode* allocatedBy = nullptr;
  for (const auto& n : graph.nodes()) {
    if (const auto* f = std::get_if<MemFreeOperation>(&n->operation); f != nullptr && f->pointer == pointer) {
      return cudaErrorInvalidValue;  // freed twice in one graph
    }
    if (const auto* a = std::get_if<MemAllocOperation>(&n->operation);
        a != nullptr && a->params.dptr == pointer) {
      allocatedBy = n.get();
    }
  }
  if (allocatedBy != nullptr && ancestors(dependencies).count(allocatedBy) == 0) return cudaErrorInvalidValue;
  return cudaSuccess;
}

bool hasMemoryNodes(const Graph& graph) {
  return std::any_of(graph.nodes().begin(), graph.nodes().end(), [](const auto& n) {
    if (const auto* child = std::get_if<ChildGraphOperation>(&n->operation))
      return hasMemoryNodes(*child->graph);
    return std::holds_alternative<MemAllocOperation>(n->operation) ||
           std::holds_alternative<MemFreeOperation>(n->operation);
  });
}

}  // namespace ptxsim::cudart
