// Kernel node attributes (cudaGraphKernelNodeSetAttribute and relatives):
// the launch attributes a kernel node carries. Cooperative changes how
// the kernel runs, and so does the cluster shape (checked when the node
// launches, as cudaLaunchKernelEx's); the others tune scheduling and
// caching and are kept so that they read back.

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

cudaError_t checkAttribute(cudaLaunchAttributeID attr, const cudaLaunchAttributeValue&) {
  switch (attr) {
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeCooperative:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
    case cudaLaunchAttributePreferredClusterDimension:
    case cudaLaunchAttributeDeviceUpdatableKernelNode: return cudaSuccess;
    default: return cudaErrorInvalidValue;  // not an attribute of kernel nodes
  }
}

}  // namespace

CUDART_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                                          const cudaLaunchAttributeValue* value) {
  std::lock_guard lock(shimState().mutex());
  auto* k = operationOf<KernelOperation>(node);
  if (k == nullptr || value == nullptr) return result(cudaErrorInvalidValue);
  if (cudaError_t e = checkAttribute(attr, *value); e != cudaSuccess) return result(e);
  k->attributes[attr] = *value;
  if (attr == cudaLaunchAttributeCooperative) k->cooperative = value->cooperative != 0;
  if (attr == cudaLaunchAttributeClusterDimension)
    k->cluster = dim3(value->clusterDim.x, value->clusterDim.y, value->clusterDim.z);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                                          cudaLaunchAttributeValue* value) {
  std::lock_guard lock(shimState().mutex());
  auto* k = operationOf<KernelOperation>(node);
  if (k == nullptr || value == nullptr) return result(cudaErrorInvalidValue);
  cudaLaunchAttributeValue zero{};
  if (cudaError_t e = checkAttribute(attr, zero); e != cudaSuccess) return result(e);
  auto it = k->attributes.find(attr);
  *value = it != k->attributes.end() ? it->second : zero;
  if (attr == cudaLaunchAttributeCooperative) value->cooperative = k->cooperative ? 1 : 0;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src) {
  std::lock_guard lock(shimState().mutex());
  auto* to = operationOf<KernelOperation>(dst);
  auto* from = operationOf<KernelOperation>(src);
  if (to == nullptr || from == nullptr) return result(cudaErrorInvalidValue);
  to->attributes = from->attributes;
  to->cooperative = from->cooperative;
  to->cluster = from->cluster;
  return cudaSuccess;
}
