// Asynchronous copies synchronised by mbarriers, as CUDA programs write
// them on sm_90: cuda::barrier with cuda::memcpy_async (mbarrier.init,
// cp.async with cp.async.mbarrier.arrive, arrive/try_wait with a state),
// a three-stage cuda::pipeline, and a bulk copy (cp.async.bulk with
// mbarrier::complete_tx) that one thread expects with arrive.expect_tx
// while the block waits on the phase parity, reusing the mbarrier for a
// second tile. Results are checked against the host.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <vector>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void barrierCopy(const float* in, float* out) {
  __shared__ float buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(float) * 256, bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x] * 2.f;
  bar.arrive_and_wait();  // a second phase before the block leaves
}

__global__ void pipelineSum(const float* in, float* out, int tiles) {
  constexpr int kStages = 3, kTile = 128;
  __shared__ float buf[kStages][kTile];
  auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0.f;
  for (int fetch = 0, use = 0; use < tiles; ++use) {
    for (; fetch < tiles && fetch < use + kStages; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % kStages], in + fetch * kTile, sizeof(float) * kTile, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[use % kStages][(threadIdx.x + use) % kTile];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Two 4 KiB tiles per block through one mbarrier: phase 0 then phase 1.
__global__ void bulkTiles(const int4* in, int4* out) {
  __shared__ __align__(128) int4 buf[256];
  __shared__ __align__(8) unsigned long long mbar;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  for (unsigned tile = 0; tile < 2; ++tile) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(4096) : "memory");
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
              dst),
          "l"(in + (blockIdx.x * 2 + tile) * 256), "r"(4096), "r"(bar)
          : "memory");
    }
    asm volatile(
        "{\n\t.reg .pred done;\n"
        "Lwait%=:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
        "@!done bra Lwait%=;\n\t}" ::"r"(bar),
        "r"(tile)
        : "memory");
    int4 v = buf[threadIdx.x];
    out[(blockIdx.x * 2 + tile) * 256 + threadIdx.x] = make_int4(v.w, v.z, v.y, v.x);
    __syncthreads();  // every thread has read the tile before the next copy overwrites it
  }
}

int main() {
  const int blocks = 4, n = blocks * 256, tiles = 6;
  std::vector<float> hostIn(n);
  for (int i = 0; i < n; ++i) hostIn[i] = static_cast<float>(i % 97) * 0.25f;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, hostIn.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> hostOut(n);

  barrierCopy<<<blocks, 256>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hostOut.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t) bad += hostOut[b * 256 + t] != hostIn[b * 256 + 255 - t] * 2.f;
  std::printf("cuda::barrier with memcpy_async: %d of %d wrong\n", bad, n);

  pipelineSum<<<2, 128>>>(in, out, tiles);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hostOut.data(), out, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  bad = 0;
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < 128; ++t) {
      float acc = 0.f;
      for (int use = 0; use < tiles; ++use) acc += hostIn[use * 128 + (t + use) % 128];
      bad += hostOut[b * 128 + t] != acc;
    }
  }
  std::printf("cuda::pipeline, 3 stages: %d of 256 wrong\n", bad);

  std::vector<int4> hostIn4(blocks * 512), hostOut4(blocks * 512);
  for (int i = 0; i < blocks * 512; ++i) hostIn4[i] = make_int4(i, -i, 3 * i + 1, i ^ 0x5555);
  int4 *in4 = nullptr, *out4 = nullptr;
  CHECK(cudaMalloc(&in4, hostIn4.size() * sizeof(int4)));
  CHECK(cudaMalloc(&out4, hostIn4.size() * sizeof(int4)));
  CHECK(cudaMemcpy(in4, hostIn4.data(), hostIn4.size() * sizeof(int4), cudaMemcpyHostToDevice));
  bulkTiles<<<blocks, 256>>>(in4, out4);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hostOut4.data(), out4, hostOut4.size() * sizeof(int4), cudaMemcpyDeviceToHost));
  bad = 0;
  for (size_t i = 0; i < hostIn4.size(); ++i) {
    const int4 &a = hostIn4[i], &b = hostOut4[i];
    bad += b.x != a.w || b.y != a.z || b.z != a.y || b.w != a.x;
  }
  std::printf("cp.async.bulk on an mbarrier, two phases: %d of %d wrong\n", bad, blocks * 512);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(in4));
  CHECK(cudaFree(out4));
  return 0;
}
