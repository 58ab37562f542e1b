// Kernel node attributes (cudaGraphKernelNodeSetAttribute and relatives):
// the launch attributes a kernel node carries. Cooperative changes how
// the kernel runs; a cluster of more than one CTA is refused as for
// cudaLaunchKernelEx; the others tune scheduling and caching and are kept
// so that they read back.

#include <cstdio>

#include "export.h"
#include "graph_nodes.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

cudaError_t checkAttribute(cudaLaunchAttributeID attr, const cudaLaunchAttributeValue& value) {
  switch (attr) {
    case cudaLaunchAttributeClusterDimension: {
      const auto& c = value.clusterDim;
      if (c.x * c.y * c.z > 1) {
        std::fprintf(
            stderr,
            "ptxsim: error: cudaGraphKernelNodeSetAttribute: thread block clusters of %ux%ux%u CTAs are not "
            "supported: the simulator runs clusters of one CTA only\n",
            c.x, c.y, c.z);
        return cudaErrorNotSupported;
      }
      return cudaSuccess;
    }
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
  return cudaSuccess;
}
