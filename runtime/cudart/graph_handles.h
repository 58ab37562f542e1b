#pragma once

// Conversions between the CUDA graph handles and the shim's objects, checked
// against the live objects (a stale or foreign handle gives null).

#include <cuda_runtime_api.h>

#include "graph.h"
#include "shim_state.h"

namespace ptxsim::cudart {

inline Graph* graphOf(cudaGraph_t handle) {
  auto* g = reinterpret_cast<Graph*>(handle);
  return shimState().streamOrder().graphs().count(g) != 0 ? g : nullptr;
}

inline GraphNode* nodeOf(cudaGraphNode_t handle) {
  auto* n = reinterpret_cast<GraphNode*>(handle);
  return shimState().streamOrder().nodes().count(n) != 0 ? n : nullptr;
}

inline GraphExec* execOf(cudaGraphExec_t handle) {
  auto* e = reinterpret_cast<GraphExec*>(handle);
  return shimState().streamOrder().execs().count(e) != 0 ? e : nullptr;
}

inline cudaGraph_t handleOf(Graph* graph) { return reinterpret_cast<cudaGraph_t>(graph); }
inline cudaGraphNode_t handleOf(GraphNode* node) { return reinterpret_cast<cudaGraphNode_t>(node); }
inline cudaGraphExec_t handleOf(GraphExec* exec) { return reinterpret_cast<cudaGraphExec_t>(exec); }

}  // namespace ptxsim::cudart
