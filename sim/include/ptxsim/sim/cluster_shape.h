#pragma once

// Thread block clusters (sm_90): the shape a launch runs with, checked as
// the CUDA driver checks it before the launch starts, and how many clusters
// the device holds at once (cudaOccupancyMaxActiveClusters).

#include <cstdint>
#include <string>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/gpu_config.h"
#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim {

// CTAs per cluster a kernel may use without, and with,
// cudaFuncAttributeNonPortableClusterSizeAllowed.
inline constexpr uint32_t kMaxPortableClusterSize = 8;
inline constexpr uint32_t kMaxClusterSize = 16;

struct ClusterShape {
  Dim3 dims;                     // CTAs per cluster in x, y, z; (1,1,1) without clusters
  bool explicitCluster = false;  // %is_explicit_cluster: the launch or the kernel asked for clusters
  uint64_t size() const { return dims.count(); }
};

// The clusters of a launch of `kernel` over `grid`: the launch's cluster
// attribute `requested` (all zeros when it gives none), else the kernel's
// .reqnctapercluster (__cluster_dims__), else clusters of one CTA. Empty
// when the shape is valid; otherwise why not (cudaErrorInvalidClusterSize).
std::string resolveClusterShape(const isa::Function& kernel, Dim3 grid, Dim3 requested,
                                bool nonPortableAllowed, ClusterShape& out);

// Clusters of `clusterSize` CTAs the device holds at once when an SM holds
// `blocksPerSm` of their CTAs: each GPC (GpuConfig::gpcSms) of at least
// clusterSize SMs holds as many as its SMs' block slots fit whole, counting
// at most GpuConfig::clusterBlocksPerSm blocks an SM. The H100's answers,
// all 40 recorded (cudaOccupancyMaxActiveClusters).
uint64_t maxActiveClusters(const GpuConfig& config, uint32_t blocksPerSm, uint32_t clusterSize);

}  // namespace ptxsim::sim
