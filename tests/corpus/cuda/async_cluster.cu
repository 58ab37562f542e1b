// async_cluster.cu - covers: asynchronous copies global->shared:
// __pipeline_memcpy_async/__pipeline_commit/__pipeline_wait_prior (cp.async on
// sm_80+), cooperative_groups::memcpy_async + cg::wait, cuda::barrier
// (mbarrier arrive/wait) with cuda::memcpy_async, cuda::pipeline multi-stage
// producer/consumer; on sm_90+: thread-block clusters (cg::this_cluster,
// cluster.sync, block_rank, map_shared_rank distributed shared memory ->
// mapa/ld.shared::cluster, barrier.cluster) and cp.async.bulk via inline PTX.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

__global__ void pipeline_primitives(const float4 *in, float4 *out, int n) {
  __shared__ float4 stage[2][128];
  int t = threadIdx.x;
  int tiles = n / 128;
  if (tiles == 0) return;
  __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
  __pipeline_commit();
  for (int tile = 0; tile < tiles; ++tile) {
    if (tile + 1 < tiles) __pipeline_memcpy_async(&stage[(tile + 1) & 1][t], &in[(tile + 1) * 128 + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float4 v = stage[tile & 1][(t + 1) & 127];
    out[tile * 128 + t] = make_float4(v.w, v.z, v.y, v.x);
    __syncthreads();
  }
}

__global__ void cg_async_copy(const int *in, int *out, int n) {
  extern __shared__ int smem[];
  cg::thread_block block = cg::this_thread_block();
  int chunk = blockDim.x * 4;
  const int *src = in + blockIdx.x * chunk;
  cg::memcpy_async(block, smem, src, sizeof(int) * chunk);
  cg::wait(block);
  int s = 0;
  for (int k = 0; k < 4; ++k) s += smem[threadIdx.x * 4 + k];
  if (blockIdx.x * blockDim.x + threadIdx.x < (unsigned)n) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void barrier_copy(const float *in, float *out, int n) {
  __shared__ float buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(float) * 256, bar);
  bar.arrive_and_wait();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[threadIdx.x & 255] * 2.f;
  auto token = bar.arrive();
  bar.wait(std::move(token));
}

__global__ void multistage_pipeline(const float *in, float *out, int tiles) {
  constexpr int STAGES = 3, TILE = 128;
  __shared__ float buf[STAGES][TILE];
  auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0.f;
  for (int fetch = 0, use = 0; use < tiles; ++use) {
    for (; fetch < tiles && fetch < use + STAGES; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % STAGES], in + fetch * TILE, sizeof(float) * TILE, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[use % STAGES][threadIdx.x % TILE];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void cluster_dsmem(const int *in, int *out, int n) {
  __shared__ int local[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  local[threadIdx.x & 127] = i < n ? in[i] : 0;
#if __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  unsigned rank = cluster.block_rank();
  unsigned peer = (rank + 1) % cluster.num_blocks();
  int *remote = cluster.map_shared_rank(local, peer);
  int v = remote[threadIdx.x & 127] + (int)cluster.dim_blocks().x + (int)cluster.block_index().x;
  cluster.sync();
  if (i < n) out[i] = v;
#else
  __syncthreads();
  if (i < n) out[i] = local[(threadIdx.x + 1) & 127];
#endif
}

__global__ void bulk_copy(const int4 *in, int4 *out, int n) {
  __shared__ __align__(128) int4 buf[256];
#if __CUDA_ARCH__ >= 900
  __shared__ __align__(8) unsigned long long mbar;
  unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&mbar);
  unsigned dst = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(4096) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(dst), "l"(in + blockIdx.x * 256), "r"(4096), "r"(bar_addr) : "memory");
  }
  __syncthreads();
  asm volatile("{\n\t.reg .pred done;\n"
               "Lwait%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
               "@!done bra Lwait%=;\n\t}" ::"r"(bar_addr) : "memory");
#else
  for (int k = threadIdx.x; k < 256; k += blockDim.x) buf[k] = in[blockIdx.x * 256 + k];
  __syncthreads();
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[threadIdx.x & 255];
}
