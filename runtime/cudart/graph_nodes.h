#pragma once

// Building graph nodes: the checks and conversions from the CUDA parameter
// structures to stream operations, shared by the per-type functions
// (cudaGraphAddKernelNode...), the generic ones (cudaGraphAddNode,
// cudaGraphNodeSetParams, cudaGraphExecNodeSetParams) and capture. Each
// expects the shim's mutex held and returns the error without recording it.

#include <cuda_runtime_api.h>

#include <variant>

#include "graph_handles.h"
#include "stream_operation.h"

namespace ptxsim::cudart {

// The nodes `count` dependency handles name: all of `graph`, none twice.
cudaError_t dependencyNodes(const Graph* graph, const cudaGraphNode_t* dependencies, size_t count,
                            std::vector<GraphNode*>& out);
// Adds a node to a graph after `count` dependencies (all of that graph,
// none twice).
cudaError_t addNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                    size_t count, StreamOperation operation);

cudaError_t kernelOperation(const cudaKernelNodeParams* p, KernelOperation& out);
cudaError_t memsetOperation(const cudaMemsetParams* p, MemsetOperation& out);
cudaError_t copyOperation(const cudaMemcpy3DParms* p, CopyOperation& out);
cudaError_t hostOperation(const cudaHostNodeParams* p, HostOperation& out);
// A 1D copy to or from `count` bytes at `offset` in a registered variable.
cudaError_t symbolCopyOperation(const void* symbol, size_t offset, size_t count, void* host, bool toSymbol,
                                cudaMemcpyKind kind, CopyOperation& out);
// An allocation node's operation: the parameters checked and the
// allocation's address reserved (written to params.dptr).
cudaError_t memAllocOperation(cudaMemAllocNodeParams& params, MemAllocOperation& out);
// Whether a free node of `pointer` may follow `dependencies` in `graph`: a
// graph allocation, not freed in that graph already, and (if it is
// allocated there) ordered after its allocation node.
cudaError_t checkMemFree(const Graph& graph, const std::vector<GraphNode*>& dependencies,
                         const void* pointer);
// Whether a graph holds memory nodes, its child graphs included.
bool hasMemoryNodes(const Graph& graph);

// A node's operation if it has type `Operation`, else null.
template <class Operation>
Operation* operationOf(cudaGraphNode_t node) {
  GraphNode* n = nodeOf(node);
  return n == nullptr ? nullptr : std::get_if<Operation>(&n->operation);
}

// The node of an executable graph for `node` of its source graph, if it
// has type `Operation`, else null.
template <class Operation>
Operation* execOperation(cudaGraphExec_t exec, cudaGraphNode_t node) {
  GraphExec* e = execOf(exec);
  GraphNode* source = nodeOf(node);
  GraphNode* n = e != nullptr && source != nullptr ? e->nodeFor(source) : nullptr;
  return n == nullptr ? nullptr : std::get_if<Operation>(&n->operation);
}

}  // namespace ptxsim::cudart
