// cluster: thread block clusters' own costs, in SM cycles (for the timing
// model of clusters, which does not run them yet; under ptxsim the program
// runs functionally only):
// - latency.dsmem.chase: one thread of rank 0 chases 32-bit offsets through
//   rank 1's shared memory (ld.shared::cluster of a mapa address; each word
//   holds the offset of the next, a random cycle over 4 KiB), chains of 256
//   and 512, (T512 - T256) / 256; latency.dsmem.own_chase the same through
//   its own shared memory by the same instruction, for reference;
// - latency.dsmem.store_load: st.shared::cluster to rank 1 then
//   ld.shared::cluster of the same word, until the value is seen;
// - latency.remote_arrive.round_trip: thread 0 of rank 0 and of rank 1 pass
//   a token back and forth, each arriving (release, cluster scope) on the
//   other's mbarrier through its mapa address and spinning on its own
//   (try_wait.parity, acquire, cluster scope); (T(128 rounds) - T(64)) / 64
//   on rank 0 (the cost a pipeline pays when a consumer in one CTA frees a
//   stage the producer in another refills);
// - latency.fence.F: one thread's chain of fences of form F (cta, cluster,
//   gpu: fence.acq_rel.SCOPE; sc_gpu: fence.sc.gpu; gpu_after_store: a
//   st.global then fence.acq_rel.gpu), (T(128) - T(64)) / 64: what ptxas's
//   MEMBAR costs a warp with nothing else in flight (cluster-scope release
//   arrivals on a peer's mbarrier and barrier.cluster.arrive.release carry
//   a MEMBAR.ALL.GPU in SASS);
// - barrier.cluster.size_S: cycles of one barrier.cluster.arrive + wait by
//   every thread of a cluster of S CTAs of 128 threads (S = 2, 4, 8, 16),
//   (T(64 barriers) - T(32)) / 32 on rank 0's thread 0;
// - placement.size_S: where the CTAs of 16 clusters of S CTAs (S = 2, 4)
//   of 128 threads land, one launch: placement.size_S.shared_sm counts the
//   clusters with two CTAs on one SM, placement.size_S.smids lists every
//   CTA's %smid in block order (for the timing model's CTA placement).
// Every chase's end is checked against the host's walk.
//
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "calib_common.h"

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kWords = 1024;  // 4 KiB of offsets

#define DSMEM_STEP "ld.shared::cluster.u32 %0, [%0];\n"

// Rank 0's thread 0 chases through `target`'s (0: its own, 1: rank 1's)
// shared memory, whose words every CTA filled from `next`. times: reps
// pairs of (T256, T512); end: the last offset.
__global__ void __cluster_dims__(2, 1, 1) dsmemChase(const uint32_t* next, unsigned target, int reps,
                                                     long long* times, uint32_t* end) {
  __shared__ __align__(16) uint32_t words[kWords];
  // The words hold the .shared::cluster addresses of the next word in the
  // target's shared memory (every CTA's words sit at the same offset).
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(words))), "r"(target));
  for (unsigned i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = remote + next[i];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    uint32_t x = remote;
    for (int r = 0; r < reps; ++r) {
      long long t0 = clk();
      asm volatile(R256(DSMEM_STEP) : "+r"(x)::"memory");
      long long t1 = clk();
      asm volatile(R512(DSMEM_STEP) : "+r"(x)::"memory");
      long long t2 = clk();
      times[2 * r] = t1 - t0;
      times[2 * r + 1] = t2 - t1;
    }
    *end = x - remote;
  }
  cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) dsmemStoreLoad(int reps, long long* times) {
  __shared__ uint32_t word;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) word = 0;
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remote) : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&word))));
    for (int r = 0; r < reps; ++r) {
      uint32_t seen = 0;
      long long t0 = clk();
      asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(r + 1) : "memory");
      while (seen != static_cast<uint32_t>(r + 1))
        asm volatile("ld.volatile.shared::cluster.u32 %0, [%1];" : "=r"(seen) : "r"(remote) : "memory");
      times[r] = clk() - t0;
    }
  }
  cluster.sync();
}

// Waits until the mbarrier at `bar` (own shared memory) completes the phase
// of parity `parity`.
__device__ void waitParity(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) remoteArrivePingPong(int rounds, long long* times) {
  __shared__ uint64_t bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const auto own = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(own));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  cluster.sync();
  if (threadIdx.x == 0) {
    uint32_t peer;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer) : "r"(own), "r"(rank ^ 1));
    long long t0 = clk();
    for (int i = 0; i < rounds; ++i) {
      if (rank == 1) waitParity(own, i & 1);
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(peer) : "memory");
      if (rank == 0) waitParity(own, i & 1);
    }
    if (rank == 0) times[0] = clk() - t0;
  }
  cluster.sync();
}

enum class FenceForm : int { Cta, Cluster, Gpu, ScGpu, GpuAfterStore };

__device__ __forceinline__ void fenceOnce(FenceForm form, unsigned* word, int i) {
  switch (form) {
    case FenceForm::Cta: asm volatile("fence.acq_rel.cta;" ::: "memory"); break;
    case FenceForm::Cluster: asm volatile("fence.acq_rel.cluster;" ::: "memory"); break;
    case FenceForm::Gpu: asm volatile("fence.acq_rel.gpu;" ::: "memory"); break;
    case FenceForm::ScGpu: asm volatile("fence.sc.gpu;" ::: "memory"); break;
    case FenceForm::GpuAfterStore:
      asm volatile("st.global.u32 [%0], %1;\nfence.acq_rel.gpu;" ::"l"(word), "r"(i) : "memory");
      break;
  }
}

__global__ void fenceChain(FenceForm form, int count, unsigned* word, long long* times) {
  long long t0 = clk();
  for (int i = 0; i < count; ++i) fenceOnce(form, word, i);
  times[0] = clk() - t0;
}

__global__ void clusterBarrier(int count, long long* times) {
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  long long t0 = clk();
  for (int i = 0; i < count; ++i) cluster.sync();
  long long t1 = clk();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) times[0] = t1 - t0;
}

// A launch of `blocks` CTAs of 128 threads in clusters of `size`.
struct ClusterLaunch {
  cudaLaunchAttribute attribute = {};
  cudaLaunchConfig_t config = {};
  ClusterLaunch(unsigned blocks, unsigned size) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = size;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(128);
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
};

__global__ void clusterPlacement(unsigned* smids) {
  if (threadIdx.x == 0) smids[blockIdx.x] = smid();
  cg::this_cluster().sync();
}

}  // namespace

int main() {
  reportClock();
  const int reps = quickMode() ? 2 : 7;
  // A random cyclic order of the 1024 words: next[i] holds the byte offset
  // (4 x word) of the word after i.
  std::vector<uint32_t> order(kWords);
  for (unsigned i = 0; i < kWords; ++i) order[i] = i;
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (unsigned i = kWords - 1; i > 0; --i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(order[i], order[(state >> 33) % (i + 1)]);
  }
  std::vector<uint32_t> next(kWords);
  for (unsigned i = 0; i < kWords; ++i) next[order[i]] = 4 * order[(i + 1) % kWords];
  uint32_t* dNext = nullptr;
  long long* times = nullptr;
  uint32_t* end = nullptr;
  CUDA_CHECK(cudaMalloc(&dNext, kWords * 4));
  CUDA_CHECK(cudaMemcpy(dNext, next.data(), kWords * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMallocManaged(&times, 64 * sizeof(long long)));
  CUDA_CHECK(cudaMallocManaged(&end, sizeof(uint32_t)));
  // The host's walk: 768 steps a repetition from word 0.
  uint32_t expected = 0;
  for (int s = 0; s < 768 * reps; ++s) expected = next[expected / 4];
  for (unsigned target : {1u, 0u}) {
    dsmemChase<<<2, 32>>>(dNext, target, reps, times, end);
    CUDA_CHECK(cudaDeviceSynchronize());
    if (*end != expected) fail("dsmem chase of rank %u ended at %u, the host's walk at %u", target, *end, expected);
    std::vector<long long> diffs;
    for (int r = 0; r < reps; ++r) diffs.push_back(times[2 * r + 1] - times[2 * r]);
    report(target == 1 ? "latency.dsmem.chase" : "latency.dsmem.own_chase", median(diffs) / 256.0, "cycles");
  }
  dsmemStoreLoad<<<2, 32>>>(reps, times);
  CUDA_CHECK(cudaDeviceSynchronize());
  report("latency.dsmem.store_load", median(std::vector<long long>(times, times + reps)), "cycles");
  const std::pair<FenceForm, const char*> fences[] = {{FenceForm::Cta, "cta"},
                                                      {FenceForm::Cluster, "cluster"},
                                                      {FenceForm::Gpu, "gpu"},
                                                      {FenceForm::ScGpu, "sc_gpu"},
                                                      {FenceForm::GpuAfterStore, "gpu_after_store"}};
  for (const auto& [form, name] : fences) {
    std::vector<long long> perFence;
    for (int r = 0; r < reps; ++r) {
      fenceChain<<<1, 1>>>(form, 64, end, times);
      CUDA_CHECK(cudaDeviceSynchronize());
      const long long t64 = times[0];
      fenceChain<<<1, 1>>>(form, 128, end, times);
      CUDA_CHECK(cudaDeviceSynchronize());
      perFence.push_back(times[0] - t64);
    }
    report(std::string("latency.fence.") + name, median(perFence) / 64.0, "cycles");
  }
  std::vector<long long> perRound;
  for (int r = 0; r < reps; ++r) {
    remoteArrivePingPong<<<2, 32>>>(64, times);
    CUDA_CHECK(cudaDeviceSynchronize());
    const long long t64 = times[0];
    remoteArrivePingPong<<<2, 32>>>(128, times);
    CUDA_CHECK(cudaDeviceSynchronize());
    perRound.push_back(times[0] - t64);
  }
  report("latency.remote_arrive.round_trip", median(perRound) / 64.0, "cycles");
  for (int size : {2, 4, 8, 16}) {
    ClusterLaunch launch(size, size);
    const cudaLaunchConfig_t& config = launch.config;
    if (size > 8) CUDA_CHECK(cudaFuncSetAttribute(clusterBarrier, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    std::vector<long long> perBarrier;
    for (int r = 0; r < reps; ++r) {
      CUDA_CHECK(cudaLaunchKernelEx(&config, clusterBarrier, 32, times));
      CUDA_CHECK(cudaDeviceSynchronize());
      long long t32 = times[0];
      CUDA_CHECK(cudaLaunchKernelEx(&config, clusterBarrier, 64, times));
      CUDA_CHECK(cudaDeviceSynchronize());
      perBarrier.push_back(times[0] - t32);
    }
    report("barrier.cluster.size_" + std::to_string(size), median(perBarrier) / 32.0, "cycles");
  }
  unsigned* smids = nullptr;
  CUDA_CHECK(cudaMallocManaged(&smids, 64 * sizeof(unsigned)));
  for (unsigned size : {2u, 4u}) {
    ClusterLaunch launch(16 * size, size);
    const cudaLaunchConfig_t& config = launch.config;
    CUDA_CHECK(cudaLaunchKernelEx(&config, clusterPlacement, smids));
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned shared = 0;
    std::string list;
    for (unsigned c = 0; c < 16; ++c) {
      std::vector<unsigned> sms(smids + c * size, smids + (c + 1) * size);
      std::sort(sms.begin(), sms.end());
      shared += std::adjacent_find(sms.begin(), sms.end()) != sms.end() ? 1 : 0;
    }
    for (unsigned b = 0; b < 16 * size; ++b) list += (b == 0 ? "" : ",") + std::to_string(smids[b]);
    report("placement.size_" + std::to_string(size) + ".shared_sm", shared, "clusters");
    std::printf("placement.size_%u.smids %s list\n", size, list.c_str());
  }
  return finish();
}
