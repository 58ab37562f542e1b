// Memcpy nodes to and from device variables: 1D copies whose device side
// is `count` bytes at `offset` in a registered variable, resolved when the
// node is made or changed.

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

cudaError_t setCopy(CopyOperation* target, const void* symbol, size_t offset, size_t count, void* host,
                    bool toSymbol, cudaMemcpyKind kind) {
  if (target == nullptr) return cudaErrorInvalidValue;
  CopyOperation c;
  if (cudaError_t e = symbolCopyOperation(symbol, offset, count, host, toSymbol, kind, c); e != cudaSuccess)
    return e;
  *target = c;
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* node, cudaGraph_t graph,
                                                         const cudaGraphNode_t* dependencies, size_t count,
                                                         const void* symbol, const void* src, size_t bytes,
                                                         size_t offset, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  CopyOperation c;
  cudaError_t e = symbolCopyOperation(symbol, offset, bytes, const_cast<void*>(src), true, kind, c);
  if (e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, c));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* node, cudaGraph_t graph,
                                                           const cudaGraphNode_t* dependencies, size_t count,
                                                           void* dst, const void* symbol, size_t bytes,
                                                           size_t offset, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  CopyOperation c;
  cudaError_t e = symbolCopyOperation(symbol, offset, bytes, dst, false, kind, c);
  if (e != cudaSuccess) return result(e);
  return result(addNode(node, graph, dependencies, count, c));
}

CUDART_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                               const void* src, size_t count, size_t offset,
                                                               cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(
      setCopy(operationOf<CopyOperation>(node), symbol, offset, count, const_cast<void*>(src), true, kind));
}

CUDART_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst,
                                                                 const void* symbol, size_t count,
                                                                 size_t offset, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(setCopy(operationOf<CopyOperation>(node), symbol, offset, count, dst, false, kind));
}

CUDART_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                                   const void* symbol, const void* src,
                                                                   size_t count, size_t offset,
                                                                   cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(setCopy(execOperation<CopyOperation>(exec, node), symbol, offset, count,
                        const_cast<void*>(src), true, kind));
}

CUDART_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t exec,
                                                                     cudaGraphNode_t node, void* dst,
                                                                     const void* symbol, size_t count,
                                                                     size_t offset, cudaMemcpyKind kind) {
  std::lock_guard lock(shimState().mutex());
  return result(setCopy(execOperation<CopyOperation>(exec, node), symbol, offset, count, dst, false, kind));
}
