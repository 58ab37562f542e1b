#pragma once

// Where the CTAs of a thread block cluster sit in the grid. Clusters tile
// the grid in blocks of the cluster shape; they are numbered as CTAs are
// (x fastest), and a CTA's rank in its cluster (%cluster_ctarank) numbers
// its position in the cluster the same way.

#include <cstdint>

#include "ptxsim/sim/launch_geometry.h"

namespace ptxsim::sim::exec {

// The grid in clusters (%nclusterid).
inline Dim3 clusterGrid(Dim3 grid, Dim3 cluster) {
  return {grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z};
}

// The cluster of a CTA (%clusterid) and its place in it (%cluster_ctaid).
inline Dim3 clusterOf(Dim3 ctaid, Dim3 cluster) {
  return {ctaid.x / cluster.x, ctaid.y / cluster.y, ctaid.z / cluster.z};
}
inline Dim3 placeInCluster(Dim3 ctaid, Dim3 cluster) {
  return {ctaid.x % cluster.x, ctaid.y % cluster.y, ctaid.z % cluster.z};
}

// %cluster_ctarank.
inline uint32_t rankInCluster(Dim3 ctaid, Dim3 cluster) {
  Dim3 p = placeInCluster(ctaid, cluster);
  return p.x + cluster.x * (p.y + cluster.y * p.z);
}

// The linear CTA index (ctaid.x fastest) of rank `rank` of cluster
// `clusterIndex` (numbered x fastest over clusterGrid).
inline uint64_t ctaOfCluster(Dim3 grid, Dim3 cluster, uint64_t clusterIndex, uint64_t rank) {
  Dim3 clusters = clusterGrid(grid, cluster);
  uint64_t cx = clusterIndex % clusters.x, cy = clusterIndex / clusters.x % clusters.y,
           cz = clusterIndex / (uint64_t{clusters.x} * clusters.y);
  uint64_t px = rank % cluster.x, py = rank / cluster.x % cluster.y,
           pz = rank / (uint64_t{cluster.x} * cluster.y);
  uint64_t x = cx * cluster.x + px, y = cy * cluster.y + py, z = cz * cluster.z + pz;
  return x + grid.x * (y + uint64_t{grid.y} * z);
}

}  // namespace ptxsim::sim::exec
