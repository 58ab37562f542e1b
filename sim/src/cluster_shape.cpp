#include "ptxsim/sim/cluster_shape.h"

#include <algorithm>

namespace ptxsim::sim {

namespace {

std::string text(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

std::string resolveClusterShape(const isa::Function& kernel, Dim3 grid, Dim3 requested,
                                bool nonPortableAllowed, ClusterShape& out) {
  const auto& d = kernel.directives;
  const bool compiled = d.reqnctapercluster[0] != 0;
  const Dim3 fixed{d.reqnctapercluster[0], std::max(1u, d.reqnctapercluster[1]),
                   std::max(1u, d.reqnctapercluster[2])};
  const bool asked = requested.x != 0 || requested.y != 0 || requested.z != 0;
  out = ClusterShape{};
  if (asked) {
    if (requested.x == 0 || requested.y == 0 || requested.z == 0)
      return "cluster " + text(requested) + " has a zero dimension";
    // A kernel compiled with __cluster_dims__ runs with that shape only.
    if (compiled && (requested.x != fixed.x || requested.y != fixed.y || requested.z != fixed.z)) {
      return "cluster " + text(requested) +
             " differs from the kernel's __cluster_dims__ (.reqnctapercluster) " + text(fixed);
    }
    out.dims = requested;
  } else if (compiled) {
    out.dims = fixed;
  }
  out.explicitCluster = asked || compiled || d.explicitCluster;
  const Dim3 c = out.dims;
  if (grid.x % c.x != 0 || grid.y % c.y != 0 || grid.z % c.z != 0)
    return "grid " + text(grid) + " is not a whole number of clusters " + text(c);
  const uint64_t size = c.count();
  if (d.maxclusterrank != 0 && size > d.maxclusterrank) {
    return "cluster " + text(c) + " has more CTAs than the kernel's .maxclusterrank " +
           std::to_string(d.maxclusterrank);
  }
  if (size > kMaxClusterSize)
    return "cluster " + text(c) + " has " + std::to_string(size) + " CTAs; at most " +
           std::to_string(kMaxClusterSize) + " are possible";
  if (size > kMaxPortableClusterSize && !nonPortableAllowed) {
    return "cluster " + text(c) + " has " + std::to_string(size) + " CTAs, more than the portable " +
           std::to_string(kMaxPortableClusterSize) +
           " (allow more with cudaFuncAttributeNonPortableClusterSizeAllowed)";
  }
  return "";
}

uint64_t maxActiveClusters(const GpuConfig& config, uint32_t blocksPerSm, uint32_t clusterSize) {
  if (clusterSize == 0) return 0;
  const uint64_t perSm = std::min(blocksPerSm, config.clusterBlocksPerSm);
  uint64_t clusters = 0;
  for (uint32_t sms : config.gpcSms) {
    if (sms < clusterSize) continue;  // a cluster's CTAs on as many SMs of one GPC
    clusters += sms * perSm / clusterSize;
  }
  return clusters;
}

}  // namespace ptxsim::sim
