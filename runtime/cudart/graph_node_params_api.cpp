// The generic node API of CUDA 12 (cudaGraphAddNode, cudaGraphNodeSetParams,
// cudaGraphExecNodeSetParams): a cudaGraphNodeParams names the node type and
// holds that type's parameters. Each type goes to the per-type function of
// the same effect (cudaGraphAddKernelNode...), so both forms check and
// behave alike; what only the generic form has (moving a child graph into
// its node, edge data) is handled here.

#include <cstdio>
#include <cstring>

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

// Records an error as the last error (the per-type functions record their own).
cudaError_t recorded(cudaError_t error) {
  std::lock_guard lock(shimState().mutex());
  return result(error);
}

cudaKernelNodeParams kernelParams(const cudaKernelNodeParamsV2& p) {
  return cudaKernelNodeParams{p.func, p.gridDim, p.blockDim, p.sharedMemBytes, p.kernelParams, p.extra};
}

cudaMemsetParams memsetParams(const cudaMemsetParamsV2& p) {
  cudaMemsetParams m{};
  m.dst = p.dst;
  m.pitch = p.pitch;
  m.value = p.value;
  m.elementSize = p.elementSize;
  m.width = p.width;
  m.height = p.height;
  return m;
}

cudaHostNodeParams hostParams(const cudaHostNodeParamsV2& p) { return cudaHostNodeParams{p.fn, p.userData}; }

// The reserved fields must be zero, and a memcpy node's flags too.
bool reservedFieldsZero(const cudaGraphNodeParams& p) {
  if (p.reserved0[0] != 0 || p.reserved0[1] != 0 || p.reserved0[2] != 0 || p.reserved2 != 0) return false;
  if (p.type != cudaGraphNodeTypeMemcpy) return true;
  const cudaMemcpyNodeParams& m = p.memcpy;
  return m.flags == 0 && m.reserved[0] == 0 && m.reserved[1] == 0 && m.reserved[2] == 0;
}

// Node types the simulator has no node for: refused loudly.
cudaError_t unsupportedType(cudaGraphNodeType type, const char* call) {
  const char* what =
      type == cudaGraphNodeTypeConditional ? "conditional nodes (cudaGraphNodeTypeConditional)"
      : type == cudaGraphNodeTypeExtSemaphoreSignal || type == cudaGraphNodeTypeExtSemaphoreWait
          ? "external semaphore nodes (external memory and semaphores are left out by design)"
          : nullptr;
  if (what == nullptr) return cudaErrorInvalidValue;  // not a node type CUDA 13 defines
  std::fprintf(stderr, "ptxsim: %s: %s are not supported yet\n", call, what);
  return cudaErrorNotSupported;
}

// Only default edges (full completion, no ports) are modelled.
cudaError_t checkEdgeData(const cudaGraphEdgeData* edges, size_t count) {
  if (edges == nullptr) return cudaSuccess;
  for (size_t i = 0; i < count; ++i) {
    const cudaGraphEdgeData zero{};
    if (std::memcmp(&edges[i], &zero, sizeof zero) != 0) {
      std::fprintf(
          stderr,
          "ptxsim: cudaGraphAddNode: edges other than default ones (programmatic dependencies, ports) are "
          "not supported yet\n");
      return cudaErrorNotSupported;
    }
  }
  return cudaSuccess;
}

// cudaGraphChildGraphOwnershipMove: the node takes the program's graph
// itself; the program may no longer destroy it (it goes with the node).
cudaError_t addMovedChild(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                          size_t count, cudaGraph_t childGraph) {
  std::lock_guard lock(shimState().mutex());
  Graph* child = graphOf(childGraph);
  if (child == nullptr || child == graphOf(graph) || child->ownedByParent()) return cudaErrorInvalidValue;
  cudaError_t e =
      addNode(node, graph, dependencies, count, ChildGraphOperation{std::shared_ptr<Graph>(child)});
  if (e == cudaSuccess) child->setOwnedByParent();
  return e;
}

cudaError_t addAllocation(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                          size_t count, cudaMemAllocNodeParamsV2& p) {
  cudaMemAllocNodeParams params{p.poolProps, p.accessDescs, p.accessDescCount, p.bytesize, nullptr};
  cudaError_t e = cudaGraphAddMemAllocNode(node, graph, dependencies, count, &params);
  if (e == cudaSuccess) p.dptr = params.dptr;
  return e;
}

// A child graph node's graph replaced by a copy of the one given.
cudaError_t setChildGraph(cudaGraphNode_t node, const cudaChildGraphNodeParams& p) {
  std::lock_guard lock(shimState().mutex());
  auto* c = operationOf<ChildGraphOperation>(node);
  Graph* child = graphOf(p.graph);
  if (c == nullptr || child == nullptr || child == c->graph.get() || hasMemoryNodes(*child) ||
      p.ownership != cudaGraphChildGraphOwnershipClone) {
    return cudaErrorInvalidValue;
  }
  c->graph = std::shared_ptr<Graph>(child->clone());
  return cudaSuccess;
}

cudaError_t addNodeOfType(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                          cudaGraphNodeParams& p) {
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      cudaKernelNodeParams k = kernelParams(p.kernel);
      return cudaGraphAddKernelNode(node, graph, deps, count, &k);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphAddMemcpyNode(node, graph, deps, count, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      cudaMemsetParams m = memsetParams(p.memset);
      return cudaGraphAddMemsetNode(node, graph, deps, count, &m);
    }
    case cudaGraphNodeTypeHost: {
      cudaHostNodeParams h = hostParams(p.host);
      return cudaGraphAddHostNode(node, graph, deps, count, &h);
    }
    case cudaGraphNodeTypeGraph:
      if (p.graph.ownership == cudaGraphChildGraphOwnershipMove) {
        return recorded(addMovedChild(node, graph, deps, count, p.graph.graph));
      }
      if (p.graph.ownership != cudaGraphChildGraphOwnershipClone) return recorded(cudaErrorInvalidValue);
      return cudaGraphAddChildGraphNode(node, graph, deps, count, p.graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(node, graph, deps, count);
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphAddEventWaitNode(node, graph, deps, count, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphAddEventRecordNode(node, graph, deps, count, p.eventRecord.event);
    case cudaGraphNodeTypeMemAlloc: return addAllocation(node, graph, deps, count, p.alloc);
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(node, graph, deps, count, p.free.dptr);
    default: return recorded(unsupportedType(p.type, "cudaGraphAddNode"));
  }
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                           const cudaGraphNode_t* dependencies,
                                           const cudaGraphEdgeData* edgeData, size_t count,
                                           cudaGraphNodeParams* params) {
  if (params == nullptr || !reservedFieldsZero(*params)) return recorded(cudaErrorInvalidValue);
  if (cudaError_t e = checkEdgeData(edgeData, count); e != cudaSuccess) return recorded(e);
  return addNodeOfType(node, graph, dependencies, count, *params);
}

CUDART_EXPORT cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* params) {
  cudaGraphNodeType type;
  if (params == nullptr || !reservedFieldsZero(*params)) return recorded(cudaErrorInvalidValue);
  if (cudaError_t e = cudaGraphNodeGetType(node, &type); e != cudaSuccess) return e;
  if (type != params->type) return recorded(cudaErrorInvalidValue);
  switch (type) {
    case cudaGraphNodeTypeKernel: {
      cudaKernelNodeParams k = kernelParams(params->kernel);
      return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeSetParams(node, &params->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      cudaMemsetParams m = memsetParams(params->memset);
      return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
      cudaHostNodeParams h = hostParams(params->host);
      return cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent: return cudaGraphEventWaitNodeSetEvent(node, params->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphEventRecordNodeSetEvent(node, params->eventRecord.event);
    case cudaGraphNodeTypeGraph: return recorded(setChildGraph(node, params->graph));
    // CUDA: the parameters of memory nodes cannot be changed.
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree: return recorded(cudaErrorNotSupported);
    default: return recorded(unsupportedType(type, "cudaGraphNodeSetParams"));
  }
}

CUDART_EXPORT cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                     cudaGraphNodeParams* params) {
  cudaGraphNodeType type;
  if (params == nullptr || !reservedFieldsZero(*params)) return recorded(cudaErrorInvalidValue);
  if (cudaError_t e = cudaGraphNodeGetType(node, &type); e != cudaSuccess) return e;
  if (type != params->type) return recorded(cudaErrorInvalidValue);
  switch (type) {
    case cudaGraphNodeTypeKernel: {
      cudaKernelNodeParams k = kernelParams(params->kernel);
      return cudaGraphExecKernelNodeSetParams(exec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphExecMemcpyNodeSetParams(exec, node, &params->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      cudaMemsetParams m = memsetParams(params->memset);
      return cudaGraphExecMemsetNodeSetParams(exec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
      cudaHostNodeParams h = hostParams(params->host);
      return cudaGraphExecHostNodeSetParams(exec, node, &h);
    }
    case cudaGraphNodeTypeGraph: return cudaGraphExecChildGraphNodeSetParams(exec, node, params->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphExecEventWaitNodeSetEvent(exec, node, params->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphExecEventRecordNodeSetEvent(exec, node, params->eventRecord.event);
    case cudaGraphNodeTypeMemAlloc:
    case cudaGraphNodeTypeMemFree: return recorded(cudaErrorNotSupported);
    default: return recorded(unsupportedType(type, "cudaGraphExecNodeSetParams"));
  }
}
