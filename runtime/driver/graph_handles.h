#pragma once

// The driver's graph handles as the runtime's: a CUgraph is a cudaGraph_t,
// a CUgraphNode a cudaGraphNode_t, a CUgraphExec a cudaGraphExec_t, and
// the edge data is laid out alike.

#include "driver_api.h"

namespace ptxsim::driver {

inline cudaGraph_t graph(CUgraph g) { return reinterpret_cast<cudaGraph_t>(g); }
inline cudaGraphNode_t node(CUgraphNode n) { return reinterpret_cast<cudaGraphNode_t>(n); }
inline cudaGraphNode_t* nodes(CUgraphNode* n) { return reinterpret_cast<cudaGraphNode_t*>(n); }
inline const cudaGraphNode_t* nodes(const CUgraphNode* n) { return reinterpret_cast<const cudaGraphNode_t*>(n); }
inline cudaGraphNode_t* nodeOut(CUgraphNode* n) { return reinterpret_cast<cudaGraphNode_t*>(n); }
inline cudaGraphExec_t exec(CUgraphExec e) { return reinterpret_cast<cudaGraphExec_t>(e); }
inline cudaGraphEdgeData* edges(CUgraphEdgeData* e) { return reinterpret_cast<cudaGraphEdgeData*>(e); }
inline const cudaGraphEdgeData* edges(const CUgraphEdgeData* e) { return reinterpret_cast<const cudaGraphEdgeData*>(e); }

}  // namespace ptxsim::driver
