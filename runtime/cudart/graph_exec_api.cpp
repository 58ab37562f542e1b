// Executable graphs: instantiate (a copy of the graph), launch (the copy's
// nodes run in a topological order, as one stream operation), update in
// place and per-node parameter changes, destroy.

#include <algorithm>
#include <cstdio>
#include <map>

#include "export.h"
#include "graph_handles.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

constexpr unsigned long long kKnownInstantiateFlags =
    cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagDeviceLaunch |
    cudaGraphInstantiateFlagUseNodePriority;

cudaError_t instantiate(cudaGraphExec_t* out, cudaGraph_t graph, unsigned long long flags) {
  Graph* g = graphOf(graph);
  if (out == nullptr || g == nullptr || (flags & ~kKnownInstantiateFlags) != 0) return cudaErrorInvalidValue;
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0) {
    std::fprintf(stderr, "ptxsim: graphs launched from the device (cudaGraphInstantiateFlagDeviceLaunch) are not "
                         "supported yet\n");
    return cudaErrorNotSupported;
  }
  std::vector<GraphNode*> order;
  if (!g->topologicalOrder(order)) return cudaErrorInvalidValue;  // a cycle
  // A graph with memory nodes has at most one executable graph at a time.
  if (hasMemoryNodes(*g)) {
    for (const auto& [e, owned] : shimState().streamOrder().execs()) {
      if (e->source == g) return cudaErrorInvalidValue;
    }
  }
  auto exec = std::make_unique<GraphExec>();
  exec->graph = std::shared_ptr<Graph>(g->clone());
  exec->source = g;
  exec->flags = flags;
  GraphExec* e = exec.get();
  shimState().streamOrder().execs()[e] = std::move(exec);
  *out = handleOf(e);
  return cudaSuccess;
}

size_t positionOf(const Graph& graph, const GraphNode* node) {
  const auto& nodes = graph.nodes();
  return static_cast<size_t>(
      std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.get() == node; }) - nodes.begin());
}

std::vector<size_t> dependencyPositions(const Graph& graph, const GraphNode& node) {
  std::vector<size_t> positions;
  for (const GraphNode* d : node.dependencies) positions.push_back(positionOf(graph, d));
  std::sort(positions.begin(), positions.end());
  return positions;
}

// Whether `updated` has the topology of `current` (nodes paired in creation
// order, as cudaGraphExecUpdate pairs them); on a mismatch `why` and the
// node of `updated` that differs.
bool sameTopology(const Graph& current, const Graph& updated, cudaGraphExecUpdateResult& why,
                  const GraphNode*& errorNode) {
  if (current.nodes().size() != updated.nodes().size()) {
    why = cudaGraphExecUpdateErrorTopologyChanged;
    return false;
  }
  for (size_t i = 0; i < current.nodes().size(); ++i) {
    const GraphNode& a = *current.nodes()[i];
    const GraphNode& b = *updated.nodes()[i];
    errorNode = &b;
    if (nodeTypeOf(a.operation) != nodeTypeOf(b.operation)) {
      why = cudaGraphExecUpdateErrorNodeTypeChanged;
      return false;
    }
    if (dependencyPositions(current, a) != dependencyPositions(updated, b)) {
      why = cudaGraphExecUpdateErrorTopologyChanged;
      return false;
    }
    const auto* childA = std::get_if<ChildGraphOperation>(&a.operation);
    const auto* childB = std::get_if<ChildGraphOperation>(&b.operation);
    const GraphNode* inner = nullptr;
    if (childA != nullptr && !sameTopology(*childA->graph, *childB->graph, why, inner)) return false;
  }
  errorNode = nullptr;
  return true;
}

// The addresses of a graph's allocation nodes, its child graphs' included.
void allocationsOf(const Graph& graph, std::vector<const void*>& out) {
  for (const auto& n : graph.nodes()) {
    if (const auto* a = std::get_if<MemAllocOperation>(&n->operation)) out.push_back(a->params.dptr);
    if (const auto* c = std::get_if<ChildGraphOperation>(&n->operation)) allocationsOf(*c->graph, out);
  }
}

// An allocation of the graph still mapped from an earlier launch is freed
// first with cudaGraphInstantiateFlagAutoFreeOnLaunch; without it the
// launch fails, as on a GPU.
cudaError_t freeUnfreedAllocations(const GraphExec& exec) {
  std::vector<const void*> allocations;
  allocationsOf(*exec.graph, allocations);
  GraphMemory& memory = shimState().streamOrder().graphMemory();
  bool autoFree = (exec.flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0;
  for (const void* a : allocations) {
    if (!memory.isMapped(a)) continue;
    if (!autoFree) return cudaErrorInvalidValue;
    memory.unmap(shimState().device(), a);
  }
  return cudaSuccess;
}

cudaError_t launchGraph(cudaGraphExec_t exec, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  if (e == nullptr) return result(cudaErrorInvalidValue);
  StreamRecord* s = shimState().streamOrder().stream(stream);
  // Outside capture the launch runs now; its allocations must be free.
  if (s != nullptr && s->capture == nullptr) {
    if (cudaError_t error = freeUnfreedAllocations(*e); error != cudaSuccess) return result(error);
  }
  return result(issue(stream, ChildGraphOperation{e->graph}, lock));
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  std::lock_guard lock(shimState().mutex());
  return result(instantiate(exec, graph, flags));
}

CUDART_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                        unsigned long long flags) {
  std::lock_guard lock(shimState().mutex());
  return result(instantiate(exec, graph, flags));
}

namespace {

// `perThreadDefault`: a null upload stream is the per-thread default stream (the _ptsz entry points).
cudaError_t instantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphInstantiateParams* params,
                                  bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (params == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().streamOrder().stream(params->uploadStream, perThreadDefault) == nullptr) {
    return result(cudaErrorInvalidValue);
  }
  cudaError_t e = instantiate(exec, graph, params->flags);
  params->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
  params->errNode_out = nullptr;
  return result(e);
}

// Uploading prepares a launch on a GPU; here there is nothing to prepare.
cudaError_t upload(cudaGraphExec_t exec, cudaStream_t stream, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (execOf(exec) == nullptr) return result(cudaErrorInvalidValue);
  if (shimState().streamOrder().stream(stream, perThreadDefault) == nullptr) {
    return result(cudaErrorInvalidResourceHandle);
  }
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                         cudaGraphInstantiateParams* params) {
  return instantiateWithParams(exec, graph, params, false);
}

CUDART_EXPORT cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t* exec, cudaGraph_t graph,
                                                              cudaGraphInstantiateParams* params) {
  return instantiateWithParams(exec, graph, params, true);
}

CUDART_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  std::lock_guard lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  if (e == nullptr) return result(cudaErrorInvalidValue);
  shimState().streamOrder().execs().erase(e);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long* flags) {
  std::lock_guard lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  if (e == nullptr || flags == nullptr) return result(cudaErrorInvalidValue);
  *flags = e->flags;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  return launchGraph(exec, stream);
}

CUDART_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) {
  return launchGraph(exec, perThread(stream));
}

CUDART_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
  return upload(exec, stream, false);
}

CUDART_EXPORT cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream) {
  return upload(exec, stream, true);
}

CUDART_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                              cudaGraphExecUpdateResultInfo* resultInfo) {
  std::lock_guard lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  Graph* g = graphOf(graph);
  if (e == nullptr || g == nullptr) return result(cudaErrorInvalidValue);
  cudaGraphExecUpdateResult why = cudaGraphExecUpdateSuccess;
  const GraphNode* errorNode = nullptr;
  bool same = sameTopology(*e->graph, *g, why, errorNode);
  if (resultInfo != nullptr) {
    resultInfo->result = same ? cudaGraphExecUpdateSuccess : why;
    resultInfo->errorNode = same ? nullptr : handleOf(const_cast<GraphNode*>(errorNode));
    resultInfo->errorFromNode = nullptr;
  }
  if (!same) return result(cudaErrorGraphExecUpdateFailure);
  for (size_t i = 0; i < g->nodes().size(); ++i) {
    e->graph->nodes()[i]->operation = deepCopy(g->nodes()[i]->operation);
  }
  e->graph->replaceUserObjects(*g);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                           const cudaKernelNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* k = execOperation<KernelOperation>(exec, node);
  if (k == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  if (params->extra != nullptr) {
    std::fprintf(stderr, "ptxsim: kernel node parameters passed through `extra` are not supported yet\n");
    return result(cudaErrorNotSupported);
  }
  KernelOperation replacement;
  cudaError_t e = makeKernelOperation(params->func, params->gridDim, params->blockDim, params->sharedMemBytes,
                                      params->kernelParams, replacement);
  if (e != cudaSuccess) return result(e);
  replacement.attributes = std::move(k->attributes);  // the attributes stay
  replacement.cooperative = k->cooperative;
  replacement.cluster = k->cluster;
  *k = std::move(replacement);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                           const cudaMemcpy3DParms* params) {
  std::lock_guard lock(shimState().mutex());
  auto* c = execOperation<CopyOperation>(exec, node);
  if (c == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  c->params = *params;
  c->linear = false;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void* dst,
                                                             const void* src, size_t count, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  auto* c = execOperation<CopyOperation>(exec, node);
  if (c == nullptr || dst == nullptr || src == nullptr || count == 0) return result(cudaErrorInvalidValue);
  *c = linearCopy(dst, src, count, kind);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                           const cudaMemsetParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* m = execOperation<MemsetOperation>(exec, node);
  if (m == nullptr || params == nullptr || params->dst == nullptr) return result(cudaErrorInvalidValue);
  if (params->elementSize != 1 && params->elementSize != 2 && params->elementSize != 4) {
    return result(cudaErrorInvalidValue);
  }
  m->params = *params;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                         const cudaHostNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* h = execOperation<HostOperation>(exec, node);
  if (h == nullptr || params == nullptr || params->fn == nullptr) return result(cudaErrorInvalidValue);
  *h = HostOperation{params->fn, params->userData, nullptr, nullptr};
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                               cudaGraph_t childGraph) {
  std::lock_guard lock(shimState().mutex());
  auto* c = execOperation<ChildGraphOperation>(exec, node);
  Graph* child = graphOf(childGraph);
  if (c == nullptr || child == nullptr) return result(cudaErrorInvalidValue);
  cudaGraphExecUpdateResult why = cudaGraphExecUpdateSuccess;
  const GraphNode* errorNode = nullptr;
  // Only the parameters may change, not the child's topology.
  if (!sameTopology(*c->graph, *child, why, errorNode)) return result(cudaErrorInvalidValue);
  c->graph = std::shared_ptr<Graph>(child->clone());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                               cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  auto* r = execOperation<EventRecordOperation>(exec, node);
  if (r == nullptr || shimState().events().count(event) == 0) return result(cudaErrorInvalidValue);
  r->event = event;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                             cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  auto* w = execOperation<EventWaitOperation>(exec, node);
  if (w == nullptr || shimState().events().count(event) == 0) return result(cudaErrorInvalidValue);
  w->event = event;
  return cudaSuccess;
}

// Kernel, memcpy and memset nodes can be disabled (run as empty nodes).
CUDART_EXPORT cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled) {
  std::lock_guard lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  GraphNode* source = nodeOf(node);
  GraphNode* n = e != nullptr && source != nullptr ? e->nodeFor(source) : nullptr;
  if (n == nullptr) return result(cudaErrorInvalidValue);
  cudaGraphNodeType type = nodeTypeOf(n->operation);
  if (type != cudaGraphNodeTypeKernel && type != cudaGraphNodeTypeMemcpy && type != cudaGraphNodeTypeMemset) {
    return result(cudaErrorInvalidValue);
  }
  n->enabled = enabled != 0;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int* enabled) {
  std::lock_guard lock(shimState().mutex());
  GraphExec* e = execOf(exec);
  GraphNode* source = nodeOf(node);
  GraphNode* n = e != nullptr && source != nullptr ? e->nodeFor(source) : nullptr;
  if (n == nullptr || enabled == nullptr) return result(cudaErrorInvalidValue);
  *enabled = n->enabled ? 1 : 0;
  return cudaSuccess;
}
