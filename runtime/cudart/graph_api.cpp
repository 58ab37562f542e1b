// Building and inspecting graphs: cudaGraphCreate, the cudaGraphAdd*Node
// family, edges, node parameters, clone, destroy and the DOT dump.

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "export.h"
#include "graph_handles.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

// Fills an array the CUDA way: with a null array only the count is
// returned; otherwise up to *count entries, the rest of a longer array set
// to null, and *count the number there are.
template <class T, class Handle>
cudaError_t listOut(const std::vector<T*>& items, Handle* array, size_t* count) {
  if (count == nullptr) return cudaErrorInvalidValue;
  if (array != nullptr) {
    for (size_t i = 0; i < *count; ++i) array[i] = i < items.size() ? handleOf(items[i]) : nullptr;
  }
  *count = items.size();
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (graph == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  *graph = handleOf(new Graph);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  // A child graph moved into a node goes with the node's graph.
  if (g == nullptr || g->ownedByParent()) return result(cudaErrorInvalidValue);
  delete g;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(original);
  if (clone == nullptr || g == nullptr) return result(cudaErrorInvalidValue);
  // CUDA: graphs with memory allocation or free nodes cannot be cloned.
  if (hasMemoryNodes(*g)) return result(cudaErrorNotSupported);
  *clone = handleOf(g->clone().release());
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* node, cudaGraphNode_t originalNode,
                                                   cudaGraph_t clonedGraph) {
  std::lock_guard lock(shimState().mutex());
  GraphNode* original = nodeOf(originalNode);
  Graph* g = graphOf(clonedGraph);
  if (node == nullptr || original == nullptr || g == nullptr) return result(cudaErrorInvalidValue);
  GraphNode* found = g->nodeWithId(original->id);
  if (found == nullptr) return result(cudaErrorInvalidValue);
  *node = handleOf(found);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                 const cudaGraphNode_t* dependencies, size_t count,
                                                 const cudaKernelNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  KernelOperation k;
  if (cudaError_t e = kernelOperation(params, k); e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, std::move(k)));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                 const cudaGraphNode_t* dependencies, size_t count,
                                                 const cudaMemcpy3DParms* params) {
  std::lock_guard lock(shimState().mutex());
  CopyOperation c;
  if (cudaError_t e = copyOperation(params, c); e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, c));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                                   const cudaGraphNode_t* dependencies, size_t count, void* dst,
                                                   const void* src, size_t bytes, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  if (dst == nullptr || src == nullptr || bytes == 0) return result(cudaErrorInvalidValue);
  return result(addNode(node, graph, dependencies, count, linearCopy(dst, src, bytes, kind)));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                 const cudaGraphNode_t* dependencies, size_t count,
                                                 const cudaMemsetParams* params) {
  std::lock_guard lock(shimState().mutex());
  MemsetOperation m;
  if (cudaError_t e = memsetOperation(params, m); e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, m));
}

CUDART_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                               const cudaGraphNode_t* dependencies, size_t count,
                                               const cudaHostNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  HostOperation h;
  if (cudaError_t e = hostOperation(params, h); e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, h));
}

CUDART_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                     const cudaGraphNode_t* dependencies, size_t count,
                                                     cudaGraph_t childGraph) {
  std::lock_guard lock(shimState().mutex());
  Graph* child = graphOf(childGraph);
  if (child == nullptr || child == graphOf(graph)) return result(cudaErrorInvalidValue);
  // A graph with memory nodes can only be moved into a node (cudaGraphAddNode).
  if (hasMemoryNodes(*child)) return result(cudaErrorInvalidValue);
  // The node owns a copy of the child graph, as in CUDA.
  return result(addNode(node, graph, dependencies, count, ChildGraphOperation{std::shared_ptr<Graph>(child->clone())}));
}

CUDART_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                const cudaGraphNode_t* dependencies, size_t count) {
  std::lock_guard lock(shimState().mutex());
  return result(addNode(node, graph, dependencies, count, EmptyOperation{}));
}

CUDART_EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                      const cudaGraphNode_t* dependencies, size_t count,
                                                      cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidValue);
  return result(addNode(node, graph, dependencies, count, EventRecordOperation{event}));
}

CUDART_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                    const cudaGraphNode_t* dependencies, size_t count,
                                                    cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidValue);
  return result(addNode(node, graph, dependencies, count, EventWaitOperation{event}));
}

CUDART_EXPORT cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  std::lock_guard lock(shimState().mutex());
  GraphNode* n = nodeOf(node);
  if (n == nullptr) return result(cudaErrorInvalidValue);
  n->graph->removeNode(n);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr) return result(cudaErrorInvalidValue);
  std::vector<GraphNode*> all;
  for (const auto& n : g->nodes()) all.push_back(n.get());
  return result(listOut(all, nodes, count));
}

CUDART_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr) return result(cudaErrorInvalidValue);
  return result(listOut(g->rootNodes(), nodes, count));
}

CUDART_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                            cudaGraphEdgeData* edgeData, size_t* count) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr || count == nullptr || ((from == nullptr) != (to == nullptr))) return result(cudaErrorInvalidValue);
  std::vector<GraphNode*> froms, tos;
  for (const auto& n : g->nodes()) {
    for (GraphNode* d : n->dependencies) froms.push_back(d), tos.push_back(n.get());
  }
  if (from != nullptr) {
    size_t asked = *count;
    listOut(froms, from, &asked);
    asked = *count;
    listOut(tos, to, &asked);
    if (edgeData != nullptr) {
      for (size_t i = 0; i < *count; ++i) edgeData[i] = cudaGraphEdgeData{};
    }
  }
  *count = froms.size();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* dependencies,
                                                       cudaGraphEdgeData* edgeData, size_t* count) {
  std::lock_guard lock(shimState().mutex());
  GraphNode* n = nodeOf(node);
  if (n == nullptr) return result(cudaErrorInvalidValue);
  if (edgeData != nullptr && dependencies != nullptr && count != nullptr) {
    for (size_t i = 0; i < *count; ++i) edgeData[i] = cudaGraphEdgeData{};
  }
  return result(listOut(n->dependencies, dependencies, count));
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* dependents,
                                                         cudaGraphEdgeData* edgeData, size_t* count) {
  std::lock_guard lock(shimState().mutex());
  GraphNode* n = nodeOf(node);
  if (n == nullptr) return result(cudaErrorInvalidValue);
  if (edgeData != nullptr && dependents != nullptr && count != nullptr) {
    for (size_t i = 0; i < *count; ++i) edgeData[i] = cudaGraphEdgeData{};
  }
  return result(listOut(n->dependents, dependents, count));
}

CUDART_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                   const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                                   size_t count) {
  (void)edgeData;
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr || (count != 0 && (from == nullptr || to == nullptr))) return result(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    GraphNode *a = nodeOf(from[i]), *b = nodeOf(to[i]);
    if (a == nullptr || b == nullptr || a->graph != g || b->graph != g || a == b) return result(cudaErrorInvalidValue);
    // An edge that exists already is refused.
    if (std::find(a->dependents.begin(), a->dependents.end(), b) != a->dependents.end()) {
      return result(cudaErrorInvalidValue);
    }
  }
  for (size_t i = 0; i < count; ++i) Graph::addEdge(nodeOf(from[i]), nodeOf(to[i]));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                      const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                                      size_t count) {
  (void)edgeData;
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr || (count != 0 && (from == nullptr || to == nullptr))) return result(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    GraphNode *a = nodeOf(from[i]), *b = nodeOf(to[i]);
    if (a == nullptr || b == nullptr || a->graph != g || b->graph != g) return result(cudaErrorInvalidValue);
    if (!Graph::removeEdge(a, b)) return result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  std::lock_guard lock(shimState().mutex());
  GraphNode* n = nodeOf(node);
  if (n == nullptr || type == nullptr) return result(cudaErrorInvalidValue);
  *type = nodeTypeOf(n->operation);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* k = operationOf<KernelOperation>(node);
  if (k == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  k->argumentPointers.clear();
  for (auto& a : k->arguments) k->argumentPointers.push_back(a.data());
  *params = cudaKernelNodeParams{};
  params->func = const_cast<void*>(k->function);
  params->gridDim = k->grid;
  params->blockDim = k->block;
  params->sharedMemBytes = static_cast<unsigned>(k->sharedBytes);
  params->kernelParams = k->argumentPointers.data();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* k = operationOf<KernelOperation>(node);
  if (k == nullptr) return result(cudaErrorInvalidValue);
  KernelOperation replacement;
  if (cudaError_t e = kernelOperation(params, replacement); e != cudaSuccess) return result(e);
  replacement.attributes = std::move(k->attributes);  // the attributes stay
  replacement.cooperative = k->cooperative;
  replacement.cluster = k->cluster;
  *k = std::move(replacement);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* params) {
  std::lock_guard lock(shimState().mutex());
  auto* c = operationOf<CopyOperation>(node);
  if (c == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  *params = c->params;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* params) {
  std::lock_guard lock(shimState().mutex());
  auto* c = operationOf<CopyOperation>(node);
  if (c == nullptr) return result(cudaErrorInvalidValue);
  return result(copyOperation(params, *c));
}

CUDART_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src,
                                                         size_t count, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  auto* c = operationOf<CopyOperation>(node);
  if (c == nullptr || dst == nullptr || src == nullptr || count == 0) return result(cudaErrorInvalidValue);
  *c = linearCopy(dst, src, count, kind);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* m = operationOf<MemsetOperation>(node);
  if (m == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  *params = m->params;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* m = operationOf<MemsetOperation>(node);
  if (m == nullptr) return result(cudaErrorInvalidValue);
  return result(memsetOperation(params, *m));
}

CUDART_EXPORT cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* h = operationOf<HostOperation>(node);
  if (h == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  params->fn = h->function;
  params->userData = h->userData;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* h = operationOf<HostOperation>(node);
  if (h == nullptr) return result(cudaErrorInvalidValue);
  return result(hostOperation(params, *h));
}

CUDART_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* graph) {
  std::lock_guard lock(shimState().mutex());
  auto* c = operationOf<ChildGraphOperation>(node);
  if (c == nullptr || graph == nullptr) return result(cudaErrorInvalidValue);
  *graph = handleOf(c->graph.get());  // the node's own graph: changes to it change the node
  return cudaSuccess;
}

namespace {

// The event of an event-record or event-wait node.
template <typename Operation>
cudaError_t nodeEvent(cudaGraphNode_t node, cudaEvent_t* event) {
  std::lock_guard lock(shimState().mutex());
  auto* op = operationOf<Operation>(node);
  if (op == nullptr || event == nullptr) return result(cudaErrorInvalidValue);
  *event = op->event;
  return cudaSuccess;
}

template <typename Operation>
cudaError_t setNodeEvent(cudaGraphNode_t node, cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  auto* op = operationOf<Operation>(node);
  if (op == nullptr || shimState().events().count(event) == 0) return result(cudaErrorInvalidValue);
  op->event = event;
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event) {
  return nodeEvent<EventRecordOperation>(node, event);
}

CUDART_EXPORT cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return setNodeEvent<EventRecordOperation>(node, event);
}

CUDART_EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event) {
  return nodeEvent<EventWaitOperation>(node, event);
}

CUDART_EXPORT cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return setNodeEvent<EventWaitOperation>(node, event);
}

// Nodes as boxes named by type and creation order, edges as arrows.
CUDART_EXPORT cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  (void)flags;  // the detail flags choose what a node shows; every node shows its type
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  if (g == nullptr || path == nullptr) return result(cudaErrorInvalidValue);
  std::ofstream out(path);
  if (!out) return result(cudaErrorOperatingSystem);
  static const char* const kTypeNames[] = {"kernel", "memcpy", "memset",       "host",      "graph",  "empty",
                                           "wait_event", "event_record", "ext_signal", "ext_wait", "mem_alloc",
                                           "mem_free",   "conditional"};
  out << "digraph ptxsim_graph {\n";
  for (const auto& n : g->nodes()) {
    int type = static_cast<int>(nodeTypeOf(n->operation));
    out << "  node" << n->id << " [shape=box label=\"" << kTypeNames[type] << " " << n->id << "\"];\n";
  }
  for (const auto& n : g->nodes()) {
    for (GraphNode* d : n->dependencies) out << "  node" << d->id << " -> node" << n->id << ";\n";
  }
  out << "}\n";
  return cudaSuccess;
}
