// Thread block clusters as CUDA programs use them: __cluster_dims__ and
// cudaLaunchKernelEx's cluster attribute (2 to 16 blocks, 16 with the
// non-portable size allowed), the cluster special registers, distributed
// shared memory (a block reading, writing and adding atomically into
// another block's shared memory through cluster.map_shared_rank),
// cluster.sync(), a cluster-wide reduction, cudaOccupancyMaxActiveClusters,
// and the errors the GPU gives for cluster sizes it cannot launch.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "check.h"

namespace cg = cooperative_groups;

struct Ids {
  unsigned rank, clusterSize, clusterId[3], clusterCount[3], ctaInCluster[3], clusterDims[3], explicitCluster;
};

__device__ unsigned special(int which) {
  unsigned v = 0;
  switch (which) {
    case 0: asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); break;
    case 1: asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v)); break;
    case 2: asm("mov.u32 %0, %%clusterid.x;" : "=r"(v)); break;
    case 3: asm("mov.u32 %0, %%clusterid.y;" : "=r"(v)); break;
    case 4: asm("mov.u32 %0, %%clusterid.z;" : "=r"(v)); break;
    case 5: asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v)); break;
    case 6: asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v)); break;
    case 7: asm("mov.u32 %0, %%nclusterid.z;" : "=r"(v)); break;
    case 8: asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v)); break;
    case 9: asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v)); break;
    case 10: asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v)); break;
    case 11: asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v)); break;
    case 12: asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v)); break;
    case 13: asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v)); break;
    default: {
      uint32_t p;
      asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(p));
      v = p;
    }
  }
  return v;
}

__device__ void recordIds(Ids* ids) {
  if (threadIdx.x != 0) return;
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned v[15];
  for (int i = 0; i < 15; ++i) v[i] = special(i);
  Ids& out = ids[block];
  out.rank = v[0], out.clusterSize = v[1];
  for (int i = 0; i < 3; ++i) {
    out.clusterId[i] = v[2 + i];
    out.clusterCount[i] = v[5 + i];
    out.ctaInCluster[i] = v[8 + i];
    out.clusterDims[i] = v[11 + i];
  }
  out.explicitCluster = v[14];
}

__global__ void __cluster_dims__(2, 1, 1) fixedClusters(Ids* ids) { recordIds(ids); }

__global__ void launchedClusters(Ids* ids) { recordIds(ids); }

__global__ void noClusters(Ids* ids) { recordIds(ids); }

// Each block fills its shared array with its rank; then every thread reads
// the next block's element, adds one into the previous block's counter and
// writes its rank into the next block's slots; after cluster.sync() each
// block reports what landed in its own shared memory.
__global__ void distributedShared(unsigned* out) {
  __shared__ unsigned values[128];
  __shared__ unsigned counter;
  __shared__ unsigned written[128];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  values[threadIdx.x] = rank * 1000 + threadIdx.x;
  written[threadIdx.x] = 0;
  if (threadIdx.x == 0) counter = 0;
  cluster.sync();
  unsigned nextRank = (rank + 1) % size, previousRank = (rank + size - 1) % size;
  unsigned* nextValues = cluster.map_shared_rank(values, nextRank);
  unsigned read = nextValues[(threadIdx.x + 1) % 128];
  atomicAdd(cluster.map_shared_rank(&counter, previousRank), threadIdx.x + 1);
  cluster.map_shared_rank(written, nextRank)[threadIdx.x] = rank + 100;
  cluster.sync();
  if (threadIdx.x != 5) return;
  unsigned block = blockIdx.x;
  out[block * 4 + 0] = read;
  out[block * 4 + 1] = counter;
  out[block * 4 + 2] = written[threadIdx.x];
  out[block * 4 + 3] = static_cast<unsigned>(cluster.dim_blocks().x);
}

// A sum over the whole cluster: every block adds its part into rank 0's
// shared total; rank 0 writes it.
__global__ void clusterSum(const float* in, float* out) {
  __shared__ float total;
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.thread_rank() == 0) total = 0;
  cluster.sync();
  float* rootTotal = cluster.map_shared_rank(&total, 0);
  atomicAdd(rootTotal, in[blockIdx.x * blockDim.x + threadIdx.x]);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / cluster.num_blocks()] = total;
}

void printIds(const char* what, const Ids* ids, int blocks) {
  std::printf("%s:\n", what);
  for (int b = 0; b < blocks; ++b) {
    const Ids& i = ids[b];
    std::printf("  block %2d: rank %u of %u, cluster (%u,%u,%u) of (%u,%u,%u), cta in cluster (%u,%u,%u) of (%u,%u,%u), "
                "explicit %u\n",
                b, i.rank, i.clusterSize, i.clusterId[0], i.clusterId[1], i.clusterId[2], i.clusterCount[0],
                i.clusterCount[1], i.clusterCount[2], i.ctaInCluster[0], i.ctaInCluster[1], i.ctaInCluster[2],
                i.clusterDims[0], i.clusterDims[1], i.clusterDims[2], i.explicitCluster);
  }
}

cudaError_t launchWithCluster(void (*kernel)(Ids*), dim3 grid, dim3 block, dim3 cluster, Ids* ids) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster.x;
  attribute.val.clusterDim.y = cluster.y;
  attribute.val.clusterDim.z = cluster.z;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, ids);
}

int main() {
  Ids* ids = nullptr;
  CHECK(cudaMallocManaged(&ids, 64 * sizeof(Ids)));
  int clusterLaunch = 0;
  CHECK(cudaDeviceGetAttribute(&clusterLaunch, cudaDevAttrClusterLaunch, 0));
  std::printf("cluster launch supported: %d\n", clusterLaunch);

  fixedClusters<<<dim3(4, 2), 32>>>(ids);
  CHECK(cudaDeviceSynchronize());
  printIds("__cluster_dims__(2,1,1), grid (4,2)", ids, 8);
  CHECK(launchWithCluster(launchedClusters, dim3(4, 2, 2), 32, dim3(2, 2, 1), ids));
  CHECK(cudaDeviceSynchronize());
  printIds("attribute cluster (2,2,1), grid (4,2,2)", ids, 16);
  noClusters<<<3, 32>>>(ids);
  CHECK(cudaDeviceSynchronize());
  printIds("no cluster, grid 3", ids, 3);

  // Launch errors: a grid not divisible by the cluster, sizes past 8 without
  // the non-portable attribute, past 16 with it, and a fixed-cluster kernel
  // launched with a different cluster.
  struct Attempt {
    const char* what;
    dim3 grid, cluster;
  };
  const Attempt attempts[] = {
      {"grid 6, cluster 4", dim3(6), dim3(4)},       {"grid 16, cluster 8", dim3(16), dim3(8)},
      {"grid 16, cluster 16", dim3(16), dim3(16)},   {"grid 32, cluster 32", dim3(32), dim3(32)},
      {"grid 8, cluster (2,2,2)", dim3(2, 2, 2), dim3(2, 2, 2)}, {"grid 9, cluster 3", dim3(9), dim3(3)},
  };
  for (const Attempt& a : attempts) {
    cudaError_t e = launchWithCluster(launchedClusters, a.grid, 64, a.cluster, ids);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    std::printf("%-40s %s\n", a.what, cudaGetErrorName(e));
    cudaGetLastError();
  }
  CHECK(cudaFuncSetAttribute(launchedClusters, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (unsigned size : {16u, 32u}) {
    cudaError_t e = launchWithCluster(launchedClusters, dim3(size * 2), 64, dim3(size), ids);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    std::printf("non-portable allowed, cluster %-14u %s\n", size, cudaGetErrorName(e));
    cudaGetLastError();
  }
  {
    cudaError_t e = launchWithCluster(fixedClusters, dim3(8), 32, dim3(4), ids);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    std::printf("%-40s %s\n", "__cluster_dims__(2) launched with 4", cudaGetErrorName(e));
    cudaGetLastError();
  }

  // Occupancy: clusters of 2, 4, 8 and 16 blocks of 128 threads using most
  // of an SM's shared memory (one block an SM). With many blocks an SM:
  // cluster_occupancy.cu and the unit tests.
  for (unsigned size : {2u, 4u, 8u, 16u}) {
    for (size_t shared : {size_t{200 * 1024}}) {
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(size * 16);
      config.blockDim = dim3(128);
      config.dynamicSmemBytes = shared;
      cudaLaunchAttribute attribute;
      attribute.id = cudaLaunchAttributeClusterDimension;
      attribute.val.clusterDim.x = size;
      attribute.val.clusterDim.y = 1;
      attribute.val.clusterDim.z = 1;
      config.attrs = &attribute;
      config.numAttrs = 1;
      if (shared != 0)
        CHECK(cudaFuncSetAttribute(distributedShared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(shared)));
      CHECK(cudaFuncSetAttribute(distributedShared, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      int clusters = -1;
      cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, distributedShared, &config);
      std::printf("max active clusters of %2u, %6zu bytes shared: %d (%s)\n", size, shared, clusters,
                  cudaGetErrorName(e));
      cudaGetLastError();
    }
  }
  CHECK(cudaFuncSetAttribute(distributedShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 0));

  // Distributed shared memory, clusters of 2, 4 and 8.
  unsigned* out = nullptr;
  CHECK(cudaMallocManaged(&out, 64 * 4 * sizeof(unsigned)));
  for (unsigned size : {2u, 4u, 8u}) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(size * 2);
    config.blockDim = dim3(128);
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = size;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, distributedShared, out));
    CHECK(cudaDeviceSynchronize());
    std::printf("distributed shared memory, clusters of %u:", size);
    for (unsigned b = 0; b < size * 2; ++b)
      std::printf(" [%u %u %u %u]", out[b * 4], out[b * 4 + 1], out[b * 4 + 2], out[b * 4 + 3]);
    std::printf("\n");
  }

  // A cluster-wide sum: 8 clusters of 4 blocks of 256 threads.
  float *in = nullptr, *sums = nullptr;
  CHECK(cudaMallocManaged(&in, 32 * 256 * sizeof(float)));
  CHECK(cudaMallocManaged(&sums, 8 * sizeof(float)));
  for (int i = 0; i < 32 * 256; ++i) in[i] = static_cast<float>((i * 37) % 101) * 0.25f;
  {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(32);
    config.blockDim = dim3(256);
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 4;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, clusterSum, static_cast<const float*>(in), sums));
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("cluster sums:");
  for (int c = 0; c < 8; ++c) {
    double expected = 0;
    for (int i = c * 1024; i < (c + 1) * 1024; ++i) expected += in[i];
    std::printf(" %g%s", sums[c], sums[c] == static_cast<float>(expected) ? "" : " (differs from the host)");
  }
  std::printf("\n");
  return 0;
}
