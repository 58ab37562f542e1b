// Graph memory nodes and the graph memory pool (graph_memory.h):
// allocation and free nodes, their parameters, and the device-wide
// attributes and trim of the pool.

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

GraphMemory& graphMemory() { return shimState().streamOrder().graphMemory(); }

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                   const cudaGraphNode_t* dependencies, size_t count,
                                                   cudaMemAllocNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  std::vector<GraphNode*> deps;
  if (node == nullptr || g == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = dependencyNodes(g, dependencies, count, deps); e != cudaSuccess) return result(e);
  MemAllocOperation a;
  if (cudaError_t e = memAllocOperation(*params, a); e != cudaSuccess) return result(e);
  *node = handleOf(g->addNode(std::move(a), deps));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                                  const cudaGraphNode_t* dependencies, size_t count,
                                                  void* dptr) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  std::vector<GraphNode*> deps;
  if (node == nullptr || g == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = dependencyNodes(g, dependencies, count, deps); e != cudaSuccess) return result(e);
  if (cudaError_t e = checkMemFree(*g, deps, dptr); e != cudaSuccess) return result(e);
  *node = handleOf(g->addNode(MemFreeOperation{dptr}, deps));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                         cudaMemAllocNodeParams* params) {
  std::lock_guard lock(shimState().mutex());
  auto* a = operationOf<MemAllocOperation>(node);
  if (a == nullptr || params == nullptr) return result(cudaErrorInvalidValue);
  *params = a->params;
  // The node's own array: valid while the node lives, as CUDA says.
  params->accessDescs = a->accessDescs.empty() ? nullptr : a->accessDescs.data();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr) {
  std::lock_guard lock(shimState().mutex());
  auto* f = operationOf<MemFreeOperation>(node);
  if (f == nullptr || dptr == nullptr) return result(cudaErrorInvalidValue);
  *static_cast<void**>(dptr) = f->pointer;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                                         void* value) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  if (value == nullptr) return result(cudaErrorInvalidValue);
  return result(graphMemory().attribute(attr, *static_cast<uint64_t*>(value)));
}

CUDART_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                                         void* value) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  if (value == nullptr) return result(cudaErrorInvalidValue);
  return result(graphMemory().setAttribute(attr, *static_cast<uint64_t*>(value)));
}

CUDART_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device) {
  std::lock_guard lock(shimState().mutex());
  if (device != 0) return result(cudaErrorInvalidDevice);
  graphMemory().trim();
  return cudaSuccess;
}
