// Graphs: the runtime's (a CUgraph is a cudaGraph_t, a CUgraphNode a
// cudaGraphNode_t, a CUgraphExec a cudaGraphExec_t). Node parameters the
// two APIs lay out alike pass through; kernel, memcpy and memset nodes are
// converted (a CUfunction is the runtime's kernel key; a CUDA_MEMCPY3D
// counts bytes where the runtime counts array elements).

#include <cstring>
#include <vector>

#include "copy_params.h"
#include "driver_api.h"
#include "driver_state.h"
#include "launch_arguments.h"

using ptxsim::driver::viaRuntime;

namespace {

cudaGraph_t graph(CUgraph g) { return reinterpret_cast<cudaGraph_t>(g); }
cudaGraphNode_t node(CUgraphNode n) { return reinterpret_cast<cudaGraphNode_t>(n); }
cudaGraphNode_t* nodes(CUgraphNode* n) { return reinterpret_cast<cudaGraphNode_t*>(n); }
const cudaGraphNode_t* nodes(const CUgraphNode* n) { return reinterpret_cast<const cudaGraphNode_t*>(n); }
cudaGraphNode_t* nodeOut(CUgraphNode* n) { return reinterpret_cast<cudaGraphNode_t*>(n); }
cudaGraphExec_t exec(CUgraphExec e) { return reinterpret_cast<cudaGraphExec_t>(e); }
cudaGraphEdgeData* edges(CUgraphEdgeData* e) { return reinterpret_cast<cudaGraphEdgeData*>(e); }
const cudaGraphEdgeData* edges(const CUgraphEdgeData* e) { return reinterpret_cast<const cudaGraphEdgeData*>(e); }

static_assert(sizeof(CUgraphEdgeData) == sizeof(cudaGraphEdgeData));
static_assert(sizeof(CUDA_HOST_NODE_PARAMS) == sizeof(cudaHostNodeParams));
static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == sizeof(cudaMemsetParams));
static_assert(sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == sizeof(cudaMemAllocNodeParams));
static_assert(sizeof(CUgraphNodeParams) == sizeof(cudaGraphNodeParams));
static_assert(sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS) == sizeof(cudaGraphInstantiateParams));
static_assert(sizeof(CUgraphExecUpdateResultInfo) == sizeof(cudaGraphExecUpdateResultInfo));

// A kernel node's parameters as the runtime takes them; `pointers` keeps
// the arguments of an `extra` buffer alive for the call.
cudaError_t runtimeKernel(const CUDA_KERNEL_NODE_PARAMS& k, cudaKernelNodeParams& out, std::vector<void*>& pointers) {
  CUfunction f = k.func != nullptr ? k.func : reinterpret_cast<CUfunction>(k.kern);
  void** args = nullptr;
  if (ptxsim::driver::argumentPointers(f, k.kernelParams, k.extra, pointers, args) != CUDA_SUCCESS) {
    return cudaErrorInvalidValue;
  }
  out = cudaKernelNodeParams{};
  out.func = reinterpret_cast<void*>(f);
  out.gridDim = dim3(k.gridDimX, k.gridDimY, k.gridDimZ);
  out.blockDim = dim3(k.blockDimX, k.blockDimY, k.blockDimZ);
  out.sharedMemBytes = k.sharedMemBytes;
  out.kernelParams = args;
  return cudaSuccess;
}

// Runs `call` with a kernel node's parameters in the runtime's form, as a
// driver call (the converted arguments live for the call).
template <typename Call>
CUresult withRuntimeKernel(const CUDA_KERNEL_NODE_PARAMS* params, Call&& call) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    std::vector<void*> pointers;
    cudaKernelNodeParams k{};
    if (cudaError_t e = runtimeKernel(*params, k, pointers); e != cudaSuccess) return e;
    return call(k);
  });
}

// The same for a memcpy node's copy.
template <typename Call>
CUresult withRuntimeCopy(const CUDA_MEMCPY3D* copy, Call&& call) {
  if (copy == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    cudaMemcpy3DParms p{};
    if (cudaError_t e = ptxsim::driver::toRuntimeCopy(*copy, p); e != cudaSuccess) return e;
    return call(p);
  });
}

CUDA_KERNEL_NODE_PARAMS driverKernel(const cudaKernelNodeParams& k) {
  CUDA_KERNEL_NODE_PARAMS out{};
  out.func = reinterpret_cast<CUfunction>(k.func);
  out.gridDimX = k.gridDim.x, out.gridDimY = k.gridDim.y, out.gridDimZ = k.gridDim.z;
  out.blockDimX = k.blockDim.x, out.blockDimY = k.blockDim.y, out.blockDimZ = k.blockDim.z;
  out.sharedMemBytes = k.sharedMemBytes;
  out.kernelParams = k.kernelParams;
  out.extra = k.extra;
  // The function is also its kernel (module_api.cpp), in the current context.
  out.kern = reinterpret_cast<CUkernel>(k.func);
  out.ctx = ptxsim::driver::handle(ptxsim::driver::driverState().current());
  return out;
}

cudaMemsetParams runtimeMemset(CUdeviceptr dst, size_t pitch, unsigned value, unsigned elementSize, size_t width,
                               size_t height) {
  cudaMemsetParams m{};
  m.dst = ptxsim::driver::pointer(dst);
  m.pitch = pitch;
  m.value = value;
  m.elementSize = elementSize;
  m.width = width;
  m.height = height;
  return m;
}

// The generic node parameters (cuGraphAddNode and the Set calls), in the
// runtime's form: converted for kernel, memcpy and memset nodes, the same
// bytes for the others.
cudaError_t runtimeNode(const CUgraphNodeParams& in, cudaGraphNodeParams& out, std::vector<void*>& pointers) {
  out = cudaGraphNodeParams{};
  out.type = static_cast<cudaGraphNodeType>(in.type);
  switch (in.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      cudaKernelNodeParams k{};
      const CUDA_KERNEL_NODE_PARAMS_v3& d = in.kernel;
      CUDA_KERNEL_NODE_PARAMS v2{d.func,      d.gridDimX,       d.gridDimY,     d.gridDimZ, d.blockDimX,
                                 d.blockDimY, d.blockDimZ,      d.sharedMemBytes, d.kernelParams, d.extra,
                                 d.kern,      d.ctx};
      if (cudaError_t e = runtimeKernel(v2, k, pointers); e != cudaSuccess) return e;
      out.kernel.func = k.func;
      out.kernel.gridDim = k.gridDim;
      out.kernel.blockDim = k.blockDim;
      out.kernel.sharedMemBytes = k.sharedMemBytes;
      out.kernel.kernelParams = k.kernelParams;
      return cudaSuccess;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      out.memcpy.flags = in.memcpy.flags;
      return ptxsim::driver::toRuntimeCopy(in.memcpy.copyParams, out.memcpy.copyParams);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS_v2& m = in.memset;
      cudaMemsetParams r = runtimeMemset(m.dst, m.pitch, m.value, m.elementSize, m.width, m.height);
      out.memset.dst = r.dst;
      out.memset.pitch = r.pitch;
      out.memset.value = r.value;
      out.memset.elementSize = r.elementSize;
      out.memset.width = r.width;
      out.memset.height = r.height;
      return cudaSuccess;
    }
    default:
      static_assert(sizeof(in.reserved1) == sizeof(out.reserved1));
      std::memcpy(out.reserved1, in.reserved1, sizeof out.reserved1);
      return cudaSuccess;
  }
}

// And for the generic parameters of any node.
template <typename Call>
CUresult withRuntimeNode(CUgraphNodeParams* params, Call&& call) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    std::vector<void*> pointers;
    cudaGraphNodeParams p{};
    if (cudaError_t e = runtimeNode(*params, p, pointers); e != cudaSuccess) return e;
    return call(p);
  });
}

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

// Nodes by kind.

DRIVER_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode* phGraphNode, CUgraph hGraph,
                                               const CUgraphNode* dependencies, size_t numDependencies,
                                               const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return withRuntimeKernel(nodeParams, [&](const cudaKernelNodeParams& k) {
    return cudaGraphAddKernelNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies, &k);
  });
}

DRIVER_EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  cudaKernelNodeParams k{};
  CUresult r = viaRuntime([&] { return cudaGraphKernelNodeGetParams(node(hNode), &k); });
  if (r == CUDA_SUCCESS) *nodeParams = driverKernel(k);
  return r;
}

DRIVER_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return withRuntimeKernel(
      nodeParams, [&](const cudaKernelNodeParams& k) { return cudaGraphKernelNodeSetParams(node(hNode), &k); });
}

DRIVER_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                         const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return withRuntimeKernel(nodeParams, [&](const cudaKernelNodeParams& k) {
    return cudaGraphExecKernelNodeSetParams(exec(hGraphExec), node(hNode), &k);
  });
}

DRIVER_EXPORT CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                     CUkernelNodeAttrValue* value_out) {
  return viaRuntime([&] {
    return cudaGraphKernelNodeGetAttribute(node(hNode), static_cast<cudaKernelNodeAttrID>(attr),
                                           reinterpret_cast<cudaKernelNodeAttrValue*>(value_out));
  });
}

DRIVER_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                                     const CUkernelNodeAttrValue* value) {
  return viaRuntime([&] {
    return cudaGraphKernelNodeSetAttribute(node(hNode), static_cast<cudaKernelNodeAttrID>(attr),
                                           reinterpret_cast<const cudaKernelNodeAttrValue*>(value));
  });
}

DRIVER_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  return viaRuntime([&] { return cudaGraphKernelNodeCopyAttributes(node(dst), node(src)); });
}

DRIVER_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                            size_t numDependencies, const CUDA_MEMCPY3D* copyParams, CUcontext) {
  return withRuntimeCopy(copyParams, [&](const cudaMemcpy3DParms& p) {
    return cudaGraphAddMemcpyNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies, &p);
  });
}

DRIVER_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    cudaMemcpy3DParms p{};
    cudaError_t e = cudaGraphMemcpyNodeGetParams(node(hNode), &p);
    if (e == cudaSuccess) *nodeParams = ptxsim::driver::toDriverCopy(p);
    return e;
  });
}

DRIVER_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D* nodeParams) {
  return withRuntimeCopy(
      nodeParams, [&](const cudaMemcpy3DParms& p) { return cudaGraphMemcpyNodeSetParams(node(hNode), &p); });
}

DRIVER_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                      const CUDA_MEMCPY3D* copyParams, CUcontext) {
  return withRuntimeCopy(copyParams, [&](const cudaMemcpy3DParms& p) {
    return cudaGraphExecMemcpyNodeSetParams(exec(hGraphExec), node(hNode), &p);
  });
}

DRIVER_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                            size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS* memsetParams,
                                            CUcontext) {
  return viaRuntime([&] {
    return cudaGraphAddMemsetNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                  reinterpret_cast<const cudaMemsetParams*>(memsetParams));
  });
}

DRIVER_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS* nodeParams) {
  return viaRuntime(
      [&] { return cudaGraphMemsetNodeGetParams(node(hNode), reinterpret_cast<cudaMemsetParams*>(nodeParams)); });
}

DRIVER_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS* nodeParams) {
  return viaRuntime([&] {
    return cudaGraphMemsetNodeSetParams(node(hNode), reinterpret_cast<const cudaMemsetParams*>(nodeParams));
  });
}

DRIVER_EXPORT CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                      const CUDA_MEMSET_NODE_PARAMS* memsetParams, CUcontext) {
  return viaRuntime([&] {
    return cudaGraphExecMemsetNodeSetParams(exec(hGraphExec), node(hNode),
                                            reinterpret_cast<const cudaMemsetParams*>(memsetParams));
  });
}

DRIVER_EXPORT CUresult cuGraphAddHostNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                          size_t numDependencies, const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return viaRuntime([&] {
    return cudaGraphAddHostNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                reinterpret_cast<const cudaHostNodeParams*>(nodeParams));
  });
}

DRIVER_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS* nodeParams) {
  return viaRuntime(
      [&] { return cudaGraphHostNodeGetParams(node(hNode), reinterpret_cast<cudaHostNodeParams*>(nodeParams)); });
}

DRIVER_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return viaRuntime([&] {
    return cudaGraphHostNodeSetParams(node(hNode), reinterpret_cast<const cudaHostNodeParams*>(nodeParams));
  });
}

DRIVER_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return viaRuntime([&] {
    return cudaGraphExecHostNodeSetParams(exec(hGraphExec), node(hNode),
                                          reinterpret_cast<const cudaHostNodeParams*>(nodeParams));
  });
}

DRIVER_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                                const CUgraphNode* dependencies, size_t numDependencies,
                                                CUgraph childGraph) {
  return viaRuntime([&] {
    return cudaGraphAddChildGraphNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                      graph(childGraph));
  });
}

DRIVER_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph* phGraph) {
  return viaRuntime(
      [&] { return cudaGraphChildGraphNodeGetGraph(node(hNode), reinterpret_cast<cudaGraph_t*>(phGraph)); });
}

DRIVER_EXPORT CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                          CUgraph childGraph) {
  return viaRuntime(
      [&] { return cudaGraphExecChildGraphNodeSetParams(exec(hGraphExec), node(hNode), graph(childGraph)); });
}

DRIVER_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                           size_t numDependencies) {
  return viaRuntime([&] {
    return cudaGraphAddEmptyNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies);
  });
}

DRIVER_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                                 const CUgraphNode* dependencies, size_t numDependencies,
                                                 CUevent event) {
  return viaRuntime([&] {
    return cudaGraphAddEventRecordNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                       event);
  });
}

DRIVER_EXPORT CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent* event_out) {
  return viaRuntime([&] { return cudaGraphEventRecordNodeGetEvent(node(hNode), event_out); });
}

DRIVER_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event) {
  return viaRuntime([&] { return cudaGraphEventRecordNodeSetEvent(node(hNode), event); });
}

DRIVER_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event) {
  return viaRuntime([&] { return cudaGraphExecEventRecordNodeSetEvent(exec(hGraphExec), node(hNode), event); });
}

DRIVER_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                               const CUgraphNode* dependencies, size_t numDependencies, CUevent event) {
  return viaRuntime([&] {
    return cudaGraphAddEventWaitNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies, event);
  });
}

DRIVER_EXPORT CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent* event_out) {
  return viaRuntime([&] { return cudaGraphEventWaitNodeGetEvent(node(hNode), event_out); });
}

DRIVER_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event) {
  return viaRuntime([&] { return cudaGraphEventWaitNodeSetEvent(node(hNode), event); });
}

DRIVER_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event) {
  return viaRuntime([&] { return cudaGraphExecEventWaitNodeSetEvent(exec(hGraphExec), node(hNode), event); });
}

DRIVER_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                              const CUgraphNode* dependencies, size_t numDependencies,
                                              CUDA_MEM_ALLOC_NODE_PARAMS* nodeParams) {
  return viaRuntime([&] {
    return cudaGraphAddMemAllocNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                    reinterpret_cast<cudaMemAllocNodeParams*>(nodeParams));
  });
}

DRIVER_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS* params_out) {
  return viaRuntime([&] {
    return cudaGraphMemAllocNodeGetParams(node(hNode), reinterpret_cast<cudaMemAllocNodeParams*>(params_out));
  });
}

DRIVER_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                             size_t numDependencies, CUdeviceptr dptr) {
  return viaRuntime([&] {
    return cudaGraphAddMemFreeNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), numDependencies,
                                   ptxsim::driver::pointer(dptr));
  });
}

DRIVER_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr* dptr_out) {
  return viaRuntime([&] { return cudaGraphMemFreeNodeGetParams(node(hNode), dptr_out); });
}

DRIVER_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice device) {
  return viaRuntime([&] { return cudaDeviceGraphMemTrim(device); });
}

DRIVER_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  return viaRuntime(
      [&] { return cudaDeviceGetGraphMemAttribute(device, static_cast<cudaGraphMemAttributeType>(attr), value); });
}

DRIVER_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  return viaRuntime(
      [&] { return cudaDeviceSetGraphMemAttribute(device, static_cast<cudaGraphMemAttributeType>(attr), value); });
}

// Nodes of any kind (CUgraphNodeParams).

DRIVER_EXPORT CUresult cuGraphAddNode_v2(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                         const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                         CUgraphNodeParams* nodeParams) {
  return withRuntimeNode(nodeParams, [&](cudaGraphNodeParams& p) {
    cudaError_t e = cudaGraphAddNode(nodeOut(phGraphNode), graph(hGraph), nodes(dependencies), edges(dependencyData),
                                     numDependencies, &p);
    // An allocation node reports its address back through the parameters.
    if (e == cudaSuccess && nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
      nodeParams->alloc.dptr = ptxsim::driver::devicePointer(p.alloc.dptr);
    }
    return e;
  });
}

DRIVER_EXPORT CUresult cuGraphAddNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, CUgraphNodeParams* nodeParams) {
  return cuGraphAddNode_v2(phGraphNode, hGraph, dependencies, nullptr, numDependencies, nodeParams);
}

DRIVER_EXPORT CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams* nodeParams) {
  return withRuntimeNode(nodeParams, [&](cudaGraphNodeParams& p) { return cudaGraphNodeSetParams(node(hNode), &p); });
}

DRIVER_EXPORT CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                CUgraphNodeParams* nodeParams) {
  return withRuntimeNode(nodeParams, [&](cudaGraphNodeParams& p) {
    return cudaGraphExecNodeSetParams(exec(hGraphExec), node(hNode), &p);
  });
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

// The forms before CUDA 12: kernel node parameters without a kernel and a
// context, instantiation with an error node and log, and updates that
// report through two results.

namespace {

CUDA_KERNEL_NODE_PARAMS fromV1(const CUDA_KERNEL_NODE_PARAMS_v1& k) {
  return CUDA_KERNEL_NODE_PARAMS{k.func,      k.gridDimX,  k.gridDimY,      k.gridDimZ,     k.blockDimX, k.blockDimY,
                                 k.blockDimZ, k.sharedMemBytes, k.kernelParams, k.extra,   nullptr,     nullptr};
}

}  // namespace

DRIVER_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                            size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = fromV1(*nodeParams);
  return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &v2);
}

DRIVER_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2{};
  CUresult r = cuGraphKernelNodeGetParams_v2(hNode, &v2);
  if (r == CUDA_SUCCESS) {
    *nodeParams = CUDA_KERNEL_NODE_PARAMS_v1{v2.func,      v2.gridDimX,       v2.gridDimY,     v2.gridDimZ, v2.blockDimX,
                                             v2.blockDimY, v2.blockDimZ, v2.sharedMemBytes, v2.kernelParams, v2.extra};
  }
  return r;
}

DRIVER_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v1* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = fromV1(*nodeParams);
  return cuGraphKernelNodeSetParams_v2(hNode, &v2);
}

DRIVER_EXPORT CUresult cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                      const CUDA_KERNEL_NODE_PARAMS_v1* nodeParams) {
  if (nodeParams == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS v2 = fromV1(*nodeParams);
  return cuGraphExecKernelNodeSetParams_v2(hGraphExec, hNode, &v2);
}

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
