// Graph nodes of each kind, and of any kind (CUgraphNodeParams). Node
// parameters the two APIs lay out alike pass through; kernel, memcpy and
// memset nodes are converted (a CUfunction is the runtime's kernel key; a
// CUDA_MEMCPY3D counts bytes where the runtime counts array elements).

#include <cstring>
#include <vector>

#include "copy_params.h"
#include "driver_api.h"
#include "driver_state.h"
#include "graph_handles.h"
#include "launch_arguments.h"

using ptxsim::driver::edges;
using ptxsim::driver::exec;
using ptxsim::driver::graph;
using ptxsim::driver::node;
using ptxsim::driver::nodeOut;
using ptxsim::driver::nodes;
using ptxsim::driver::viaRuntime;

namespace {

static_assert(sizeof(CUDA_HOST_NODE_PARAMS) == sizeof(cudaHostNodeParams));
static_assert(sizeof(CUDA_MEMSET_NODE_PARAMS) == sizeof(cudaMemsetParams));
static_assert(sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == sizeof(cudaMemAllocNodeParams));
static_assert(sizeof(CUgraphNodeParams) == sizeof(cudaGraphNodeParams));

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

// The forms before CUDA 12: kernel node parameters without a kernel and a
// context.

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
