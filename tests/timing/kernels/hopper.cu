// Timing-accuracy suite, Hopper tensor-core kernels written the way CUTLASS 3
// and FlashAttention-3 write them: a wmma GEMM (the older path of NVIDIA's
// samples), warp-specialised wgmma GEMMs fed by TMA through mbarrier
// pipelines (one consumer warpgroup; ping-pong and cooperative persistent
// schedules with two), a cluster-of-2 GEMM whose B tile is multicast by TMA,
// and a FlashAttention-3-shaped forward attention. Inline PTX for wgmma,
// TMA and mbarriers, as CUTLASS's cute/arch headers have it.
//
// The GEMMs compute D = A * B^T (A: M x K, B: N x K, both K-major f16; D:
// M x N f32) from small integers, so every product and sum is exact in f32
// and D is checked for equality. The attention is checked against a
// double-precision host reference with a tolerance.
//
// Usage: hopper [KERNEL...] runs only the kernels named (all by default):
// `ptxsim run --timing` refuses clusters today, so the timed run leaves
// cluster_mc_gemm out.
// nvcc flags: -lcuda
// nvcc arch: sm_90a

#include <cuda.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstring>
#include <string>

#include "suite.h"

namespace {

// The GEMM problem every GEMM kernel solves.
constexpr int kM = 512, kN = 512, kK = 512;
// Attention: batch x heads sequences of kSeq tokens, head dimension 64.
constexpr int kHeads = 8, kSeq = 512, kHeadDim = 64;

// ---------------------------------------------------------------------------
// PTX wrappers (cute/arch/copy_sm90_desc.hpp, mma_sm90_desc.hpp, barrier.h)

__device__ __forceinline__ uint32_t smemAddress(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrierInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}

// The barrier inits visible to the async proxy and to the cluster.
__device__ __forceinline__ void fenceBarrierInit() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbarrierArriveExpectTx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbarrierArrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// An arrive on the barrier at the same offset in CTA `rank` of the cluster.
__device__ __forceinline__ void mbarrierArriveCluster(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n}" ::"r"(bar),
      "r"(rank)
      : "memory");
}

__device__ __forceinline__ void mbarrierWait(uint32_t bar, uint32_t phase) {
  asm volatile(
      "{\n.reg .pred done;\nWAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT;\n}" ::"r"(bar),
      "r"(phase)
      : "memory");
}

__device__ __forceinline__ void prefetchTensorMap(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// A 2D box of `map` at element (x, y) into shared memory at `dst`, its bytes
// counted on the barrier `bar`.
__device__ __forceinline__ void tmaLoad2d(uint32_t dst, const CUtensorMap* map, uint32_t bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
      "%3}], "
      "[%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

// The same box into the same offset of every CTA of the cluster in `mask`,
// each CTA's barrier at `bar`'s offset counting the bytes.
__device__ __forceinline__ void tmaLoad2dMulticast(uint32_t dst, const CUtensorMap* map, uint32_t bar, int x,
                                                   int y, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "h"(mask)
      : "memory");
}

__device__ __forceinline__ void clusterSync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

// Named barriers between warpgroups (cutlass::arch::NamedBarrier).
__device__ __forceinline__ void namedBarrierSync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void namedBarrierArrive(uint32_t id, uint32_t threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Register reallocation between the producer and the consumer warpgroups.
template <uint32_t kRegisters>
__device__ __forceinline__ void warpgroupRegisterDealloc() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegisters));
}
template <uint32_t kRegisters>
__device__ __forceinline__ void warpgroupRegisterAlloc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegisters));
}

// One thread of the warp (cute::elect_one_sync).
__device__ __forceinline__ bool electOne() {
  uint32_t elected;
  asm volatile(
      "{\n.reg .pred p;\n.reg .b32 leader;\nelect.sync leader|p, 0xffffffff;\nselp.u32 %0, 1, 0, p;\n}"
      : "=r"(elected));
  return elected != 0;
}

__device__ __forceinline__ void wgmmaFence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void wgmmaWait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}

// Keeps the compiler from moving accumulator accesses across wgmma
// (cute::warpgroup_fence_operand).
template <int kCount>
__device__ __forceinline__ void fenceOperands(float (&d)[kCount]) {
#pragma unroll
  for (int i = 0; i < kCount; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// The matrix descriptor of a tile in shared memory with the 128-byte
// swizzle (TMA's CU_TENSOR_MAP_SWIZZLE_128B): rows of 128 bytes, atoms of
// 8 rows (1024 bytes, the stride byte offset) one after the other. K-major
// operands advance the start by 32 bytes per k16 step; an MN-major operand
// of 64 columns has one atom across, so its leading byte offset is unused.
__device__ __forceinline__ uint64_t descriptorSw128(uint32_t address) {
  return uint64_t((address & 0x3ffff) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62);
}

// D (64 x 128, f32) += A (64 x 16) * B (128 x 16)^T, both K-major in shared memory.
__device__ __forceinline__ void wgmmaSS_m64n128k16(float (&d)[64], uint64_t descA, uint64_t descB,
                                                   int scaleD) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
      "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
      "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
      "%62, %63}, "
      "%64, %65, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),
        "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
        "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
        "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),
        "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(descA), "l"(descB), "r"(scaleD));
}

// D (64 x 64, f32) += A (64 x 16, f16 in registers) * B (16 x 64), B MN-major in shared memory.
__device__ __forceinline__ void wgmmaRS_m64n64k16_tnspB(float (&d)[32], const uint32_t (&a)[4],
                                                        uint64_t descB, int scaleD) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
      "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "{%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),
        "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
        "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(descB), "r"(scaleD));
}

// ---------------------------------------------------------------------------
// 1. wmma GEMM: 64 x 64 block tiles staged through shared memory, each of
// the 4 warps a 32 x 32 quarter as 2 x 2 fragments of 16 x 16 x 16.

constexpr int kWmmaTile = 64, kWmmaK = 32, kWmmaPad = 8;

__global__ void __launch_bounds__(128)
    wmmaGemmKernel(const half* a, const half* b, float* d, int m, int n, int k) {
  using namespace nvcuda;
  __shared__ __align__(32) half tileA[kWmmaTile][kWmmaK + kWmmaPad];
  __shared__ __align__(32) half tileB[kWmmaTile][kWmmaK + kWmmaPad];  // [n][k]: B^T's rows, B column-major
  const int warp = threadIdx.x / 32, warpRow = warp / 2, warpCol = warp % 2;
  const int row0 = blockIdx.y * kWmmaTile, col0 = blockIdx.x * kWmmaTile;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (auto& line : acc)
    for (auto& f : line) wmma::fill_fragment(f, 0.0f);
  for (int k0 = 0; k0 < k; k0 += kWmmaK) {
    // 64 rows x 32 halves of each: 256 chunks of 16 bytes, 2 per thread.
    for (int c = threadIdx.x; c < kWmmaTile * kWmmaK / 8; c += blockDim.x) {
      int r = c / (kWmmaK / 8), col = (c % (kWmmaK / 8)) * 8;
      *reinterpret_cast<uint4*>(&tileA[r][col]) =
          *reinterpret_cast<const uint4*>(&a[size_t(row0 + r) * k + k0 + col]);
      *reinterpret_cast<uint4*>(&tileB[r][col]) =
          *reinterpret_cast<const uint4*>(&b[size_t(col0 + r) * k + k0 + col]);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kWmmaK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(fa[i], &tileA[warpRow * 32 + i * 16][kk], kWmmaK + kWmmaPad);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], &tileB[warpCol * 32 + j * 16][kk], kWmmaK + kWmmaPad);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&d[size_t(row0 + warpRow * 32 + i * 16) * n + col0 + warpCol * 32 + j * 16],
                              acc[i][j], n, wmma::mem_row_major);
}

// ---------------------------------------------------------------------------
// The warp-specialised GEMMs (CUTLASS's KernelTmaWarpSpecialized*): warpgroup
// 0 is the producer, one elected thread of its first warp issuing the TMA
// loads of each k-block (64 halves: one 128-byte swizzled row per tile row)
// into a ring of stages; the consumer warpgroups wait for a stage's full
// barrier, issue four wgmma m64n128k16 along it, keep one k-block's wgmmas
// in flight, and release the stage before through its empty barrier (one
// arrive per consumer warp). Tiles are 64 x 128 per consumer warpgroup.

constexpr int kBlockK = 64, kTileN = 128, kWgRows = 64;
constexpr int kKBlocks = kK / kBlockK;
constexpr uint32_t kABytes = kWgRows * kBlockK * 2, kBBytes = kTileN * kBlockK * 2;  // 8 and 16 KiB

struct Pipeline {
  uint32_t full, empty;  // shared addresses of the barrier arrays
  __device__ uint32_t fullOf(int stage) const { return full + 8 * stage; }
  __device__ uint32_t emptyOf(int stage) const { return empty + 8 * stage; }
};

// Thread 0 of the CTA: the tensor maps prefetched, each stage's full
// barrier (the producer's one arrive and the copies' bytes) and empty
// barrier (`consumerWarps` arrives) initialised.
__device__ void setUpPipeline(const Pipeline& pipe, int stages, uint32_t consumerWarps, const CUtensorMap* mapA,
                              const CUtensorMap* mapB) {
  prefetchTensorMap(mapA);
  prefetchTensorMap(mapB);
  for (int s = 0; s < stages; ++s) {
    mbarrierInit(pipe.fullOf(s), 1);
    mbarrierInit(pipe.emptyOf(s), consumerWarps);
  }
  fenceBarrierInit();
}

// Shared memory rounded up to the 1024 bytes the 128-byte swizzle's atoms
// need (the dynamic allocation is asked for 1 KiB more).
__device__ __forceinline__ uint32_t alignedDynamicShared(uint8_t* dynamic) {
  return (smemAddress(dynamic) + 1023) & ~1023u;
}

// The k-blocks of one output tile: pipeline position `position` on; the
// accumulator holds the warpgroup's 64 x 128 (rows aOffset.. of each A
// stage). Leaves the last stage's wgmmas waited for and every stage released.
template <int kStages>
__device__ __forceinline__ void consumeTile(float (&acc)[64], const Pipeline& pipe, uint32_t stageA,
                                            uint32_t stageB, uint32_t stageBytes, uint32_t aOffset,
                                            int position, uint32_t releaseRank = 0,
                                            bool releaseRemote = false) {
  const bool leader = threadIdx.x % 32 == 0;
  fenceOperands(acc);
  for (int kb = 0; kb < kKBlocks; ++kb) {
    const int p = position + kb, stage = p % kStages;
    mbarrierWait(pipe.fullOf(stage), (p / kStages) & 1);
    const uint32_t a = stageA + stage * stageBytes + aOffset, b = stageB + stage * stageBytes;
    wgmmaFence();
#pragma unroll
    for (int kk = 0; kk < kBlockK / 16; ++kk)
      wgmmaSS_m64n128k16(acc, descriptorSw128(a + 32 * kk), descriptorSw128(b + 32 * kk), kb > 0 || kk > 0);
    wgmmaCommit();
    fenceOperands(acc);
    // The previous k-block's wgmmas are done: its stage may be refilled.
    wgmmaWait<1>();
    fenceOperands(acc);
    if (kb > 0 && leader) {
      const int previous = (p - 1) % kStages;
      mbarrierArrive(pipe.emptyOf(previous));
      if (releaseRemote) mbarrierArriveCluster(pipe.emptyOf(previous), releaseRank);
    }
  }
  wgmmaWait<0>();
  fenceOperands(acc);
  if (leader) {
    const int last = (position + kKBlocks - 1) % kStages;
    mbarrierArrive(pipe.emptyOf(last));
    if (releaseRemote) mbarrierArriveCluster(pipe.emptyOf(last), releaseRank);
  }
}

// The accumulator of warpgroup-relative layout (wgmma's D fragment: warp w
// holds rows 16w..16w+15; per 8 columns j a thread holds (g, 8j+2t..+1) and
// (g+8, 8j+2t..+1), g = lane/4, t = lane%4) stored to D at (row0, col0).
__device__ __forceinline__ void storeAccumulator(const float (&acc)[64], float* d, int n, int row0,
                                                 int col0) {
  const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
  const int row = row0 + 16 * warp + lane / 4, col = col0 + 2 * (lane % 4);
#pragma unroll
  for (int j = 0; j < kTileN / 8; ++j) {
    *reinterpret_cast<float2*>(&d[size_t(row) * n + col + 8 * j]) = make_float2(acc[4 * j], acc[4 * j + 1]);
    *reinterpret_cast<float2*>(&d[size_t(row + 8) * n + col + 8 * j]) =
        make_float2(acc[4 * j + 2], acc[4 * j + 3]);
  }
}

// The producer's loop over k-blocks of one tile: wait for the stage to be
// empty (parity 1 first: a fresh barrier's previous phase counts as done),
// announce its bytes, load A's rows and B's rows.
template <int kStages>
__device__ __forceinline__ void produceTile(const Pipeline& pipe, const CUtensorMap* mapA,
                                            const CUtensorMap* mapB, uint32_t stageA, uint32_t stageB,
                                            uint32_t stageBytes, int position, int row0, int col0,
                                            uint32_t aBytes) {
  for (int kb = 0; kb < kKBlocks; ++kb) {
    const int p = position + kb, stage = p % kStages;
    mbarrierWait(pipe.emptyOf(stage), ((p / kStages) & 1) ^ 1);
    mbarrierArriveExpectTx(pipe.fullOf(stage), aBytes + kBBytes);
    tmaLoad2d(stageA + stage * stageBytes, mapA, pipe.fullOf(stage), kb * kBlockK, row0);
    tmaLoad2d(stageB + stage * stageBytes, mapB, pipe.fullOf(stage), kb * kBlockK, col0);
  }
}

// 2. One consumer warpgroup, a 64 x 128 tile per CTA, kWsStages stages.
constexpr int kWsStages = 4;
constexpr uint32_t kWsStageBytes = kABytes + kBBytes;

__global__ void __launch_bounds__(256, 1) wsGemmKernel(const __grid_constant__ CUtensorMap mapA,
                                                       const __grid_constant__ CUtensorMap mapB, float* d) {
  extern __shared__ uint8_t dynamicShared[];
  __shared__ __align__(8) uint64_t full[kWsStages], empty[kWsStages];
  const uint32_t base = alignedDynamicShared(dynamicShared);
  const Pipeline pipe{smemAddress(full), smemAddress(empty)};
  const int warpgroup = threadIdx.x / 128;
  const int row0 = blockIdx.y * kWgRows, col0 = blockIdx.x * kTileN;
  if (threadIdx.x == 0) {
    setUpPipeline(pipe, kWsStages, 4, &mapA, &mapB);
  }
  __syncthreads();
  if (warpgroup == 0) {
    if (threadIdx.x / 32 == 0 && electOne())
      produceTile<kWsStages>(pipe, &mapA, &mapB, base, base + kABytes, kWsStageBytes, 0, row0, col0, kABytes);
    return;
  }
  float acc[64];
  consumeTile<kWsStages>(acc, pipe, base, base + kABytes, kWsStageBytes, 0, 0);
  storeAccumulator(acc, d, kN, row0, col0);
}

// 3a. Ping-pong (KernelTmaWarpSpecializedPingpong): persistent CTAs, two
// consumer warpgroups taking alternate 64 x 128 tiles of the CTA's sequence,
// their mainloops ordered by named barriers so that one's wgmmas run while
// the other stores its tile. One ring of stages serves both in tile order.
constexpr int kPpStages = 4;
constexpr int kTilesM = kM / kWgRows, kTilesN = kN / kTileN;

__global__ void __launch_bounds__(384, 1)
    pingpongGemmKernel(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                       float* d) {
  extern __shared__ uint8_t dynamicShared[];
  __shared__ __align__(8) uint64_t full[kPpStages], empty[kPpStages];
  const uint32_t base = alignedDynamicShared(dynamicShared);
  const Pipeline pipe{smemAddress(full), smemAddress(empty)};
  const int warpgroup = threadIdx.x / 128;
  const int tiles = kTilesM * kTilesN;
  const int localTiles = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;
  if (threadIdx.x == 0) {
    setUpPipeline(pipe, kPpStages, 4, &mapA, &mapB);
  }
  __syncthreads();
  if (warpgroup == 0) {
    warpgroupRegisterDealloc<40>();
    if (threadIdx.x / 32 == 0 && electOne()) {
      for (int local = 0; local < localTiles; ++local) {
        const int tile = blockIdx.x + local * gridDim.x;
        produceTile<kPpStages>(pipe, &mapA, &mapB, base, base + kABytes, kWsStageBytes, local * kKBlocks,
                               (tile / kTilesN) * kWgRows, (tile % kTilesN) * kTileN, kABytes);
      }
    }
    return;
  }
  warpgroupRegisterAlloc<232>();
  const int consumer = warpgroup - 1;
  float acc[64];
  for (int local = consumer; local < localTiles; local += 2) {
    const int tile = blockIdx.x + local * gridDim.x;
    // Named barriers 1 and 2: consumer c's turn at the tensor cores.
    if (local > 0) namedBarrierSync(1 + consumer, 256);
    consumeTile<kPpStages>(acc, pipe, base, base + kABytes, kWsStageBytes, 0, local * kKBlocks);
    if (local + 1 < localTiles) namedBarrierArrive(1 + (1 - consumer), 256);
    storeAccumulator(acc, d, kN, (tile / kTilesN) * kWgRows, (tile % kTilesN) * kTileN);
  }
}

// 3b. Cooperative (KernelTmaWarpSpecializedCooperative): persistent CTAs,
// 128 x 128 tiles, the two consumer warpgroups splitting each tile by rows;
// both read every stage, so each empty barrier takes 8 warps' arrives.
constexpr int kCoStages = 3;
constexpr uint32_t kCoABytes = 2 * kABytes, kCoStageBytes = kCoABytes + kBBytes;
constexpr int kCoTilesM = kM / (2 * kWgRows);

__global__ void __launch_bounds__(384, 1)
    cooperativeGemmKernel(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                          float* d) {
  extern __shared__ uint8_t dynamicShared[];
  __shared__ __align__(8) uint64_t full[kCoStages], empty[kCoStages];
  const uint32_t base = alignedDynamicShared(dynamicShared);
  const Pipeline pipe{smemAddress(full), smemAddress(empty)};
  const int warpgroup = threadIdx.x / 128;
  const int tiles = kCoTilesM * kTilesN;
  const int localTiles = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x;
  if (threadIdx.x == 0) {
    setUpPipeline(pipe, kCoStages, 8, &mapA, &mapB);
  }
  __syncthreads();
  if (warpgroup == 0) {
    warpgroupRegisterDealloc<40>();
    if (threadIdx.x / 32 == 0 && electOne()) {
      for (int local = 0; local < localTiles; ++local) {
        const int tile = blockIdx.x + local * gridDim.x;
        produceTile<kCoStages>(pipe, &mapA, &mapB, base, base + kCoABytes, kCoStageBytes, local * kKBlocks,
                               (tile / kTilesN) * 2 * kWgRows, (tile % kTilesN) * kTileN, kCoABytes);
      }
    }
    return;
  }
  warpgroupRegisterAlloc<232>();
  const int consumer = warpgroup - 1;
  float acc[64];
  for (int local = 0; local < localTiles; ++local) {
    const int tile = blockIdx.x + local * gridDim.x;
    consumeTile<kCoStages>(acc, pipe, base, base + kCoABytes, kCoStageBytes, consumer * kABytes,
                           local * kKBlocks);
    storeAccumulator(acc, d, kN, (tile / kTilesN) * 2 * kWgRows + consumer * kWgRows,
                     (tile % kTilesN) * kTileN);
  }
}

// 4. A cluster of 2 CTAs along M sharing the B tile: each CTA loads its own
// A rows and half of B's 128 rows, multicast into both CTAs' stage. A stage
// is refilled only when the consumers of both CTAs released it: every
// consumer warp arrives on its own CTA's empty barrier and on the peer's.
constexpr int kMcStages = 4;

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256, 1)
    clusterMulticastGemmKernel(const __grid_constant__ CUtensorMap mapA,
                               const __grid_constant__ CUtensorMap mapB, float* d) {
  extern __shared__ uint8_t dynamicShared[];
  __shared__ __align__(8) uint64_t full[kMcStages], empty[kMcStages];
  const uint32_t base = alignedDynamicShared(dynamicShared);
  const Pipeline pipe{smemAddress(full), smemAddress(empty)};
  const int warpgroup = threadIdx.x / 128;
  const uint32_t rank = clusterRank(), peer = rank ^ 1;
  const int row0 = blockIdx.x * kWgRows, col0 = blockIdx.y * kTileN;
  const uint32_t stageA = base, stageB = base + kABytes;
  if (threadIdx.x == 0) {
    setUpPipeline(pipe, kMcStages, 8, &mapA, &mapB);
  }
  // Both CTAs' barriers initialised before either CTA's loads or arrives.
  clusterSync();
  if (warpgroup == 0) {
    if (threadIdx.x / 32 == 0 && electOne()) {
      for (int kb = 0; kb < kKBlocks; ++kb) {
        const int stage = kb % kMcStages;
        const uint32_t full = pipe.fullOf(stage);
        mbarrierWait(pipe.emptyOf(stage), ((kb / kMcStages) & 1) ^ 1);
        mbarrierArriveExpectTx(full, kABytes + kBBytes);
        tmaLoad2d(stageA + stage * kWsStageBytes, &mapA, full, kb * kBlockK, row0);
        tmaLoad2dMulticast(stageB + stage * kWsStageBytes + rank * (kBBytes / 2), &mapB, full, kb * kBlockK,
                           col0 + rank * (kTileN / 2), 0x3);
      }
    }
  } else {
    float acc[64];
    consumeTile<kMcStages>(acc, pipe, stageA, stageB, kWsStageBytes, 0, 0, peer, true);
    storeAccumulator(acc, d, kN, row0, col0);
  }
  // No CTA leaves while its peer may still multicast into it or arrive on it.
  clusterSync();
}

// ---------------------------------------------------------------------------
// 5. Forward attention shaped like FlashAttention-3 (hopper/mainloop_fwd_sm90
// _tma_gmma_ws.hpp): per CTA 128 query rows of one head, a producer warp
// loading Q once and K, V blocks of 128 keys by TMA into two-stage rings,
// two consumer warpgroups of 64 query rows each. A consumer computes S =
// Q K^T with wgmma from shared memory (m64n128k16), the online softmax in
// registers (row max and sum over the 4 threads of a quad, exp2 with the
// scale folded in), converts P to f16 in wgmma's A-register layout and
// accumulates O += P V with wgmma taking A from registers and V MN-major
// (transposed) from shared memory. As FA3, each iteration issues S_j = Q
// K_j^T together with O += P_{j-1} V_{j-1} and runs S_j's softmax while the
// other warpgroup's GEMMs go (named barriers 3 and 4 take turns).

constexpr int kAttnRows = 128, kAttnKeys = 128, kAttnStages = 2;
constexpr int kAttnBlocks = kSeq / kAttnKeys;
constexpr uint32_t kAttnTileBytes = kAttnRows * kHeadDim * 2;  // 16 KiB: Q, one K or one V block

// P's f16 A fragments for the 8 k16 steps of 128 keys, from S's layout.
__device__ __forceinline__ void packP(const float (&s)[64], uint32_t (&p)[8][4]) {
#pragma unroll
  for (int k = 0; k < 8; ++k) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      __half2 h = __floats2half2_rn(s[8 * k + 2 * r], s[8 * k + 2 * r + 1]);
      std::memcpy(&p[k][r], &h, 4);
    }
  }
}

__device__ __forceinline__ float quadMax(float v) {
  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));
  return fmaxf(v, __shfl_xor_sync(0xffffffff, v, 2));
}
__device__ __forceinline__ float quadSum(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 1);
  return v + __shfl_xor_sync(0xffffffff, v, 2);
}

// S (64 x 128) to probabilities in place; returns each half-row's rescale
// of the accumulator (rows g and g+8 of the warp's 16).
__device__ __forceinline__ void onlineSoftmax(float (&s)[64], float (&rowMax)[2], float (&rowSum)[2],
                                              float (&rescale)[2]) {
  constexpr float kScaleLog2 = 0.125f * 1.4426950408889634f;  // 1/sqrt(64) * log2(e)
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float m = rowMax[h];
#pragma unroll
    for (int j = 0; j < 16; ++j) m = fmaxf(m, fmaxf(s[4 * j + 2 * h], s[4 * j + 2 * h + 1]) * kScaleLog2);
    m = quadMax(m);
    rescale[h] = exp2f(rowMax[h] - m);
    rowMax[h] = m;
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        float p = exp2f(s[4 * j + 2 * h + e] * kScaleLog2 - m);
        s[4 * j + 2 * h + e] = p;
        sum += p;
      }
    }
    rowSum[h] = rowSum[h] * rescale[h] + sum;
  }
}

__global__ void __launch_bounds__(384, 1)
    flashAttentionKernel(const __grid_constant__ CUtensorMap mapQ, const __grid_constant__ CUtensorMap mapK,
                         const __grid_constant__ CUtensorMap mapV, half* out) {
  extern __shared__ uint8_t dynamicShared[];
  __shared__ __align__(8) uint64_t qFull, kFull[kAttnStages], vFull[kAttnStages], kEmpty[kAttnStages],
      vEmpty[kAttnStages];
  const uint32_t base = alignedDynamicShared(dynamicShared);
  const uint32_t q = base, kStage = base + kAttnTileBytes, vStage = kStage + kAttnStages * kAttnTileBytes;
  const int warpgroup = threadIdx.x / 128;
  const int head = blockIdx.y, qRow0 = head * kSeq + blockIdx.x * kAttnRows, kvRow0 = head * kSeq;
  const uint32_t qBar = smemAddress(&qFull);
  auto at = [](uint64_t* bars, int stage) { return smemAddress(&bars[stage]); };
  if (threadIdx.x == 0) {
    prefetchTensorMap(&mapQ);
    prefetchTensorMap(&mapK);
    prefetchTensorMap(&mapV);
    mbarrierInit(qBar, 1);
    for (int s = 0; s < kAttnStages; ++s) {
      mbarrierInit(at(kFull, s), 1);
      mbarrierInit(at(vFull, s), 1);
      mbarrierInit(at(kEmpty, s), 8);
      mbarrierInit(at(vEmpty, s), 8);
    }
    fenceBarrierInit();
  }
  __syncthreads();
  if (warpgroup == 0) {
    warpgroupRegisterDealloc<24>();
    if (threadIdx.x / 32 == 0 && electOne()) {
      mbarrierArriveExpectTx(qBar, kAttnTileBytes);
      tmaLoad2d(q, &mapQ, qBar, 0, qRow0);
      for (int j = 0; j < kAttnBlocks; ++j) {
        const int s = j % kAttnStages;
        const uint32_t parity = ((j / kAttnStages) & 1) ^ 1;
        mbarrierWait(at(kEmpty, s), parity);
        mbarrierArriveExpectTx(at(kFull, s), kAttnTileBytes);
        tmaLoad2d(kStage + s * kAttnTileBytes, &mapK, at(kFull, s), 0, kvRow0 + j * kAttnKeys);
        mbarrierWait(at(vEmpty, s), parity);
        mbarrierArriveExpectTx(at(vFull, s), kAttnTileBytes);
        tmaLoad2d(vStage + s * kAttnTileBytes, &mapV, at(vFull, s), 0, kvRow0 + j * kAttnKeys);
      }
    }
    return;
  }
  warpgroupRegisterAlloc<240>();
  const int consumer = warpgroup - 1;
  const bool leader = threadIdx.x % 32 == 0;
  const uint32_t qRows = q + consumer * (kAttnTileBytes / 2);
  auto issueS = [&](float(&s)[64], int j) {
    const uint32_t k = kStage + (j % kAttnStages) * kAttnTileBytes;
#pragma unroll
    for (int kk = 0; kk < kHeadDim / 16; ++kk)
      wgmmaSS_m64n128k16(s, descriptorSw128(qRows + 32 * kk), descriptorSw128(k + 32 * kk), kk > 0);
  };
  auto issuePV = [&](float(&o)[32], const uint32_t(&p)[8][4], int j) {
    const uint32_t v = vStage + (j % kAttnStages) * kAttnTileBytes;
#pragma unroll
    for (int kk = 0; kk < kAttnKeys / 16; ++kk)
      wgmmaRS_m64n64k16_tnspB(o, p[kk], descriptorSw128(v + 2048 * kk), 1);
  };
  float o[32], s[64], rowMax[2] = {-INFINITY, -INFINITY}, rowSum[2] = {0.0f, 0.0f}, rescale[2];
  uint32_t p[8][4];
  for (float& x : o) x = 0.0f;
  // The other warpgroup's first turn (named barrier 3 + c is c's turn).
  if (consumer == 1) namedBarrierArrive(3, 256);
  mbarrierWait(qBar, 0);
  mbarrierWait(at(kFull, 0), 0);
  wgmmaFence();
  issueS(s, 0);
  wgmmaCommit();
  wgmmaWait<0>();
  fenceOperands(s);
  if (leader) mbarrierArrive(at(kEmpty, 0));
  onlineSoftmax(s, rowMax, rowSum, rescale);
  packP(s, p);
  for (int j = 1; j < kAttnBlocks; ++j) {
    const int sj = j % kAttnStages, sPrev = (j - 1) % kAttnStages;
    mbarrierWait(at(kFull, sj), (j / kAttnStages) & 1);
    namedBarrierSync(3 + consumer, 256);
    fenceOperands(o);
    wgmmaFence();
    issueS(s, j);
    wgmmaCommit();
    mbarrierWait(at(vFull, sPrev), ((j - 1) / kAttnStages) & 1);
    issuePV(o, p, j - 1);
    wgmmaCommit();
    // Unconditional: a branch between issue and wait would make ptxas
    // serialise the wgmmas (C7520); warpgroup 0 takes 1's last turn below.
    namedBarrierArrive(3 + (1 - consumer), 256);
    wgmmaWait<1>();
    fenceOperands(s);
    if (leader) mbarrierArrive(at(kEmpty, sj));
    onlineSoftmax(s, rowMax, rowSum, rescale);
    wgmmaWait<0>();
    fenceOperands(o);
    if (leader) mbarrierArrive(at(vEmpty, sPrev));
#pragma unroll
    for (int j8 = 0; j8 < 8; ++j8)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        o[4 * j8 + 2 * h] *= rescale[h];
        o[4 * j8 + 2 * h + 1] *= rescale[h];
      }
    packP(s, p);
  }
  const int last = (kAttnBlocks - 1) % kAttnStages;
  mbarrierWait(at(vFull, last), ((kAttnBlocks - 1) / kAttnStages) & 1);
  fenceOperands(o);
  wgmmaFence();
  issuePV(o, p, kAttnBlocks - 1);
  wgmmaCommit();
  wgmmaWait<0>();
  fenceOperands(o);
  if (leader) mbarrierArrive(at(vEmpty, last));
  if (consumer == 0) namedBarrierSync(3, 256);
  // O / rowsum, stored as f16 (warp w: rows 16w + g and 16w + g + 8).
  const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
  const int row = qRow0 + consumer * kWgRows + 16 * warp + lane / 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float inverse = 1.0f / quadSum(rowSum[h]);
#pragma unroll
    for (int j8 = 0; j8 < 8; ++j8)
      *reinterpret_cast<__half2*>(&out[size_t(row + 8 * h) * kHeadDim + 8 * j8 + 2 * (lane % 4)]) =
          __floats2half2_rn(o[4 * j8 + 2 * h] * inverse, o[4 * j8 + 2 * h + 1] * inverse);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Host side

// A row-major f16 matrix of `rows` x `inner` as a 2D tensor map with boxes of
// `boxRows` rows of 64 halves (128 bytes), swizzled by 128 bytes.
static bool encodeTiles(CUtensorMap& map, const half* base, uint64_t inner, uint64_t rows, uint32_t boxRows) {
  cuuint64_t dims[2] = {inner, rows}, strides[1] = {inner * sizeof(half)};
  cuuint32_t box[2] = {64, boxRows}, elementStrides[2] = {1, 1};
  CUresult e =
      cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<half*>(base), dims, strides,
                             box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS) std::printf("cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(e));
  return e == CUDA_SUCCESS;
}

// Small integers in f16: every product and sum of the GEMMs is exact.
static std::vector<half> smallIntegers(size_t n, uint32_t seed, std::vector<int>& values) {
  Lcg lcg(seed);
  std::vector<half> h(n);
  values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = static_cast<int>(lcg.below(5)) - 2;
    h[i] = __float2half(float(values[i]));
  }
  return h;
}

static std::vector<half> randomHalves(size_t n, uint32_t seed, float scale, std::vector<float>& values) {
  Lcg lcg(seed);
  std::vector<half> h(n);
  values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    h[i] = __float2half(scale * lcg.signedUnit());
    values[i] = __half2float(h[i]);
  }
  return h;
}

static std::vector<std::string> selected;  // the kernels named on the command line
static bool wanted(const char* kernel) {
  if (selected.empty()) return true;
  for (const std::string& s : selected)
    if (s == kernel) return true;
  return false;
}

static int testGemms(Report& report) {
  std::vector<int> a, b;
  std::vector<half> hostA = smallIntegers(size_t(kM) * kK, 41, a),
                    hostB = smallIntegers(size_t(kN) * kK, 42, b);
  std::vector<float> want(size_t(kM) * kN), got;
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) {
      long sum = 0;
      for (int k = 0; k < kK; ++k) sum += long(a[size_t(i) * kK + k]) * b[size_t(j) * kK + k];
      want[size_t(i) * kN + j] = float(sum);
    }
  DeviceBuffer<half> dA, dB;
  DeviceBuffer<float> dD;
  CHECK(dA.upload(hostA));
  CHECK(dB.upload(hostB));
  CHECK(dD.alloc(want.size()));
  CUtensorMap mapA64, mapA128, mapB128, mapB64;
  if (!encodeTiles(mapA64, dA.ptr, kK, kM, 64) || !encodeTiles(mapA128, dA.ptr, kK, kM, 128) ||
      !encodeTiles(mapB128, dB.ptr, kK, kN, 128) || !encodeTiles(mapB64, dB.ptr, kK, kN, 64))
    return 1;
  const int wsShared = kWsStages * kWsStageBytes + 1024, ppShared = kPpStages * kWsStageBytes + 1024,
            coShared = kCoStages * kCoStageBytes + 1024, mcShared = kMcStages * kWsStageBytes + 1024;
  CHECK(cudaFuncSetAttribute(wsGemmKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, wsShared));
  CHECK(cudaFuncSetAttribute(pingpongGemmKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ppShared));
  CHECK(cudaFuncSetAttribute(cooperativeGemmKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, coShared));
  CHECK(cudaFuncSetAttribute(clusterMulticastGemmKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             mcShared));
  struct Gemm {
    const char* name;
    void (*launch)(const Gemm&, const CUtensorMap*, float*);
  };
  auto check = [&](const char* name) -> int {
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(dD.download(got));
    report.line(name, hashOf(got), allEqual(got, want));
    return 0;
  };
  if (wanted("wmma_gemm")) {
    CHECK(cudaMemset(dD.ptr, 0, want.size() * sizeof(float)));
    wmmaGemmKernel<<<dim3(kN / kWmmaTile, kM / kWmmaTile), 128>>>(dA.ptr, dB.ptr, dD.ptr, kM, kN, kK);
    if (check("wmma_gemm") != 0) return 1;
  }
  if (wanted("ws_gemm")) {
    CHECK(cudaMemset(dD.ptr, 0, want.size() * sizeof(float)));
    wsGemmKernel<<<dim3(kTilesN, kTilesM), 256, wsShared>>>(mapA64, mapB128, dD.ptr);
    if (check("ws_gemm") != 0) return 1;
  }
  if (wanted("pingpong_gemm")) {
    CHECK(cudaMemset(dD.ptr, 0, want.size() * sizeof(float)));
    pingpongGemmKernel<<<kTilesM * kTilesN / 4, 384, ppShared>>>(mapA64, mapB128, dD.ptr);
    if (check("pingpong_gemm") != 0) return 1;
  }
  if (wanted("cooperative_gemm")) {
    CHECK(cudaMemset(dD.ptr, 0, want.size() * sizeof(float)));
    cooperativeGemmKernel<<<kCoTilesM * kTilesN / 2, 384, coShared>>>(mapA128, mapB128, dD.ptr);
    if (check("cooperative_gemm") != 0) return 1;
  }
  if (wanted("cluster_mc_gemm")) {
    CHECK(cudaMemset(dD.ptr, 0, want.size() * sizeof(float)));
    clusterMulticastGemmKernel<<<dim3(kTilesM, kTilesN), 256, mcShared>>>(mapA64, mapB64, dD.ptr);
    if (check("cluster_mc_gemm") != 0) return 1;
  }
  return 0;
}

static int testAttention(Report& report) {
  if (!wanted("flash_attention")) return 0;
  const size_t elements = size_t(kHeads) * kSeq * kHeadDim;
  std::vector<float> q, k, v;
  std::vector<half> hostQ = randomHalves(elements, 43, 2.0f, q), hostK = randomHalves(elements, 44, 2.0f, k),
                    hostV = randomHalves(elements, 45, 1.0f, v);
  std::vector<float> want(elements);
  std::vector<double> logits(kSeq);
  for (int h = 0; h < kHeads; ++h)
    for (int i = 0; i < kSeq; ++i) {
      const float* qi = &q[(size_t(h) * kSeq + i) * kHeadDim];
      double maxLogit = -1e300, sum = 0.0;
      for (int j = 0; j < kSeq; ++j) {
        const float* kj = &k[(size_t(h) * kSeq + j) * kHeadDim];
        double dot = 0.0;
        for (int c = 0; c < kHeadDim; ++c) dot += double(qi[c]) * kj[c];
        logits[j] = dot / 8.0;
        maxLogit = std::max(maxLogit, logits[j]);
      }
      for (int j = 0; j < kSeq; ++j) sum += (logits[j] = std::exp(logits[j] - maxLogit));
      for (int c = 0; c < kHeadDim; ++c) {
        double o = 0.0;
        for (int j = 0; j < kSeq; ++j) o += logits[j] * v[(size_t(h) * kSeq + j) * kHeadDim + c];
        want[(size_t(h) * kSeq + i) * kHeadDim + c] = float(o / sum);
      }
    }
  DeviceBuffer<half> dQ, dK, dV, dO;
  CHECK(dQ.upload(hostQ));
  CHECK(dK.upload(hostK));
  CHECK(dV.upload(hostV));
  CHECK(dO.alloc(elements));
  CHECK(cudaMemset(dO.ptr, 0, elements * sizeof(half)));
  CUtensorMap mapQ, mapK, mapV;
  const uint64_t rows = uint64_t(kHeads) * kSeq;
  if (!encodeTiles(mapQ, dQ.ptr, kHeadDim, rows, kAttnRows) ||
      !encodeTiles(mapK, dK.ptr, kHeadDim, rows, kAttnKeys) ||
      !encodeTiles(mapV, dV.ptr, kHeadDim, rows, kAttnKeys))
    return 1;
  const int shared = (1 + 2 * kAttnStages) * kAttnTileBytes + 1024;
  CHECK(cudaFuncSetAttribute(flashAttentionKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  flashAttentionKernel<<<dim3(kSeq / kAttnRows, kHeads), 384, shared>>>(mapQ, mapK, mapV, dO.ptr);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<half> out;
  CHECK(dO.download(out));
  std::vector<float> got(elements);
  for (size_t i = 0; i < elements; ++i) got[i] = __half2float(out[i]);
  // f16 P and f16 output against the exact softmax: 1% and 2e-3.
  report.line("flash_attention", hashOf(out), allClose(got, want, 1e-2f, 2e-3f));
  return 0;
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) selected.emplace_back(argv[i]);
  Report report;
  for (int (*test)(Report&) : {testGemms, testAttention}) {
    if (test(report) != 0) return 1;
  }
  return report.allMatch ? 0 : 1;
}
