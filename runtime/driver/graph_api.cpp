// Graphs: the runtime's (graph_handles.h), with the driver's names: graphs
// and their edges, executable graphs, user objects, and the forms before
// CUDA 12 of instantiation and update. The nodes of each kind are in
// graph_node_api.cpp.

#include "driver_api.h"
#include "graph_handles.h"

using ptxsim::driver::edges;
using ptxsim::driver::exec;
using ptxsim::driver::graph;
using ptxsim::driver::node;
using ptxsim::driver::nodeOut;
using ptxsim::driver::nodes;
using ptxsim::driver::viaRuntime;

namespace {

static_assert(sizeof(CUgraphEdgeData) == sizeof(cudaGraphEdgeData));
static_assert(sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS) == sizeof(cudaGraphInstantiateParams));
static_assert(sizeof(CUgraphExecUpdateResultInfo) == sizeof(cudaGraphExecUpdateResultInfo));

}  // namespace

DRIVER_EXPORT CUresult cuGraphCreate(CUgraph* phGraph, unsigned int flags) {
  return viaRuntime([&] { return cudaGraphCreate(reinterpret_cast<cudaGraph_t*>(phGraph), flags); });
}

DRIVER_EXPORT CUresult cuGraphDestroy(CUgraph hGraph) { return viaRuntime([&] { return cudaGraphDestroy(graph(hGraph)); }); }

DRIVER_EXPORT CUresult cuGraphClone(CUgraph* phGraphClone, CUgraph originalGraph) {
  return viaRuntime([&] { return cudaGraphClone(reinterpret_cast<cudaGraph_t*>(phGraphClone), graph(originalGraph)); });
}

DRIVER_EXPORT CUresult cuGraphNodeFindInClone(CUgraphNode* phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph) {
  return viaRuntime([&] { return cudaGraphNodeFindInClone(nodeOut(phNode), node(hOriginalNode), graph(hClonedGraph)); });
}

DRIVER_EXPORT CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType* type) {
  return viaRuntime([&] { return cudaGraphNodeGetType(node(hNode), reinterpret_cast<cudaGraphNodeType*>(type)); });
}

DRIVER_EXPORT CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode* out, size_t* numNodes) {
  return viaRuntime([&] { return cudaGraphGetNodes(graph(hGraph), nodes(out), numNodes); });
}

DRIVER_EXPORT CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode* rootNodes, size_t* numRootNodes) {
  return viaRuntime([&] { return cudaGraphGetRootNodes(graph(hGraph), nodes(rootNodes), numRootNodes); });
}

DRIVER_EXPORT CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* edgeData,
                                          size_t* numEdges) {
  return viaRuntime([&] { return cudaGraphGetEdges(graph(hGraph), nodes(from), nodes(to), edges(edgeData), numEdges); });
}

DRIVER_EXPORT CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, size_t* numEdges) {
  return cuGraphGetEdges_v2(hGraph, from, to, nullptr, numEdges);
}

DRIVER_EXPORT CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode* dependencies,
                                                     CUgraphEdgeData* edgeData, size_t* numDependencies) {
  return viaRuntime([&] {
    return cudaGraphNodeGetDependencies(node(hNode), nodes(dependencies), edges(edgeData), numDependencies);
  });
}

DRIVER_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode* dependencies,
                                                  size_t* numDependencies) {
  return cuGraphNodeGetDependencies_v2(hNode, dependencies, nullptr, numDependencies);
}

DRIVER_EXPORT CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode* dependentNodes,
                                                       CUgraphEdgeData* edgeData, size_t* numDependentNodes) {
  return viaRuntime([&] {
    return cudaGraphNodeGetDependentNodes(node(hNode), nodes(dependentNodes), edges(edgeData), numDependentNodes);
  });
}

DRIVER_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode* dependentNodes,
                                                    size_t* numDependentNodes) {
  return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, nullptr, numDependentNodes);
}

DRIVER_EXPORT CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                                 const CUgraphEdgeData* edgeData, size_t numDependencies) {
  return viaRuntime([&] {
    return cudaGraphAddDependencies(graph(hGraph), nodes(from), nodes(to), edges(edgeData), numDependencies);
  });
}

DRIVER_EXPORT CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                              size_t numDependencies) {
  return cuGraphAddDependencies_v2(hGraph, from, to, nullptr, numDependencies);
}

DRIVER_EXPORT CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                                    const CUgraphEdgeData* edgeData, size_t numDependencies) {
  return viaRuntime([&] {
    return cudaGraphRemoveDependencies(graph(hGraph), nodes(from), nodes(to), edges(edgeData), numDependencies);
  });
}

DRIVER_EXPORT CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                                 size_t numDependencies) {
  return cuGraphRemoveDependencies_v2(hGraph, from, to, nullptr, numDependencies);
}

DRIVER_EXPORT CUresult cuGraphDestroyNode(CUgraphNode hNode) {
  return viaRuntime([&] { return cudaGraphDestroyNode(node(hNode)); });
}

// Executable graphs.

DRIVER_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec* phGraphExec, CUgraph hGraph,
                                                   unsigned long long flags) {
  return viaRuntime([&] {
    return cudaGraphInstantiateWithFlags(reinterpret_cast<cudaGraphExec_t*>(phGraphExec), graph(hGraph), flags);
  });
}

DRIVER_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec* phGraphExec, CUgraph hGraph,
                                                    CUDA_GRAPH_INSTANTIATE_PARAMS* instantiateParams) {
  return viaRuntime([&] {
    return cudaGraphInstantiateWithParams(reinterpret_cast<cudaGraphExec_t*>(phGraphExec), graph(hGraph),
                                          reinterpret_cast<cudaGraphInstantiateParams*>(instantiateParams));
  });
}

DRIVER_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec* phGraphExec, CUgraph hGraph,
                                                         CUDA_GRAPH_INSTANTIATE_PARAMS* instantiateParams) {
  return viaRuntime([&] {
    return cudaGraphInstantiateWithParams_ptsz(reinterpret_cast<cudaGraphExec_t*>(phGraphExec), graph(hGraph),
                                               reinterpret_cast<cudaGraphInstantiateParams*>(instantiateParams));
  });
}

DRIVER_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t* flags) {
  return viaRuntime(
      [&] { return cudaGraphExecGetFlags(exec(hGraphExec), reinterpret_cast<unsigned long long*>(flags)); });
}

DRIVER_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
                                            CUgraphExecUpdateResultInfo* resultInfo) {
  return viaRuntime([&] {
    return cudaGraphExecUpdate(exec(hGraphExec), graph(hGraph),
                               reinterpret_cast<cudaGraphExecUpdateResultInfo*>(resultInfo));
  });
}

DRIVER_EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled) {
  return viaRuntime([&] { return cudaGraphNodeSetEnabled(exec(hGraphExec), node(hNode), isEnabled); });
}

DRIVER_EXPORT CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int* isEnabled) {
  return viaRuntime([&] { return cudaGraphNodeGetEnabled(exec(hGraphExec), node(hNode), isEnabled); });
}

DRIVER_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
  return viaRuntime([&] { return cudaGraphUpload(exec(hGraphExec), hStream); });
}

DRIVER_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
  return viaRuntime([&] { return cudaGraphUpload_ptsz(exec(hGraphExec), hStream); });
}

DRIVER_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
  return viaRuntime([&] { return cudaGraphLaunch(exec(hGraphExec), hStream); });
}

DRIVER_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
  return viaRuntime([&] { return cudaGraphLaunch_ptsz(exec(hGraphExec), hStream); });
}

DRIVER_EXPORT CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
  return viaRuntime([&] { return cudaGraphExecDestroy(exec(hGraphExec)); });
}

DRIVER_EXPORT CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char* path, unsigned int flags) {
  return viaRuntime([&] { return cudaGraphDebugDotPrint(graph(hGraph), path, flags); });
}

// User objects.

DRIVER_EXPORT CUresult cuUserObjectCreate(CUuserObject* object_out, void* ptr, CUhostFn destroy,
                                          unsigned int initialRefcount, unsigned int flags) {
  return viaRuntime([&] {
    return cudaUserObjectCreate(reinterpret_cast<cudaUserObject_t*>(object_out), ptr, destroy, initialRefcount, flags);
  });
}

DRIVER_EXPORT CUresult cuUserObjectRetain(CUuserObject object, unsigned int count) {
  return viaRuntime([&] { return cudaUserObjectRetain(reinterpret_cast<cudaUserObject_t>(object), count); });
}

DRIVER_EXPORT CUresult cuUserObjectRelease(CUuserObject object, unsigned int count) {
  return viaRuntime([&] { return cudaUserObjectRelease(reinterpret_cast<cudaUserObject_t>(object), count); });
}

DRIVER_EXPORT CUresult cuGraphRetainUserObject(CUgraph g, CUuserObject object, unsigned int count,
                                               unsigned int flags) {
  return viaRuntime([&] {
    return cudaGraphRetainUserObject(graph(g), reinterpret_cast<cudaUserObject_t>(object), count, flags);
  });
}

DRIVER_EXPORT CUresult cuGraphReleaseUserObject(CUgraph g, CUuserObject object, unsigned int count) {
  return viaRuntime(
      [&] { return cudaGraphReleaseUserObject(graph(g), reinterpret_cast<cudaUserObject_t>(object), count); });
}

// The forms before CUDA 12: instantiation with an error node and log, and
// updates that report through two results.

DRIVER_EXPORT CUresult cuGraphInstantiate(CUgraphExec* phGraphExec, CUgraph hGraph, CUgraphNode* phErrorNode,
                                          char* logBuffer, size_t bufferSize) {
  if (phErrorNode != nullptr) *phErrorNode = nullptr;
  if (logBuffer != nullptr && bufferSize > 0) logBuffer[0] = '\0';
  return cuGraphInstantiateWithFlags(phGraphExec, hGraph, 0);
}
DRIVER_ALIAS(cuGraphInstantiate_v2, cuGraphInstantiate);

DRIVER_EXPORT CUresult cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode* hErrorNode_out,
                                         CUgraphExecUpdateResult* updateResult_out) {
  CUgraphExecUpdateResultInfo info{};
  CUresult r = cuGraphExecUpdate_v2(hGraphExec, hGraph, &info);
  if (hErrorNode_out != nullptr) *hErrorNode_out = info.errorNode;
  if (updateResult_out != nullptr) *updateResult_out = info.result;
  return r;
}
