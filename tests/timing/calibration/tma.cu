// nvcc arch: sm_90a
// nvcc flags: -lcuda
// tma: the tensor memory accelerator's latency and rate, in SM cycles
// (the timing model's tma.latency and tma.bytes_per_cycle are held against
// them):
// - tma.bulk.l2.B.latency / tma.bulk.dram.B.latency: one thread issues one
//   cp.async.bulk of B bytes (128 to 16384) from global to shared memory
//   on an mbarrier and spins on try_wait until its phase completes; clock64
//   from before the copy to after the wait, the median over repetitions.
//   l2: the same bytes were copied just before (L2 hits); dram: each
//   repetition copies bytes no launch touched before (a fresh part of a
//   512 MiB buffer);
// - tma.tensor2d.l2.WxH.latency: the same with cp.async.bulk.tensor.2d of
//   a W x H box of bytes (CU_TENSOR_MAP_DATA_TYPE_UINT8, no swizzle) from a
//   tensor map passed as a __grid_constant__ parameter;
// - tma.tensor2d.l2.WxH.multicast_2.latency: the same box multicast by rank
//   0 of a cluster of two to both CTAs (.multicast::cluster, mask 0b11),
//   timed on rank 0 to its own mbarrier's completion; the ranks meet at a
//   cluster barrier before each copy, outside the timed span;
// - tma.store.B.latency: cp.async.bulk of B bytes from shared to global
//   memory in a bulk group, then commit_group and wait_group 0;
// - tma.bulk.stream.sms_S.bytes_per_cycle: S SMs (1 and all) each stream
//   64 MiB / S through a ring of 4 x 16 KiB boxes (one thread issues, the
//   CTA waits on each box's mbarrier and reissues into it): bytes a cycle
//   an SM, from the slowest CTA's clock64 span.
// Every copy's last word is checked against the source.
//
// Output: METRIC VALUE UNIT, then ok or FAILED.
#include <cuda.h>

#include <cstdint>

#include "calib_common.h"

namespace {

__device__ __forceinline__ uint32_t sharedAddress(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void initBarrier(uint32_t bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\nfence.mbarrier_init.release.cluster;" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void expectBytes(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void waitPhase(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n.reg .pred p;\nWAIT_%=:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra WAIT_%=;\n}" ::"r"(bar),
      "r"(parity)
      : "memory");
}

__device__ __forceinline__ void bulkLoad(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

constexpr unsigned kMaxBytes = 16384;

// reps copies of `bytes` into shared memory, issue(r, box, barrier)
// issuing copy r; times[r]: its issue to its completion; last[r]: its last
// word.
template <typename Issue>
__device__ void timeCopies(uint8_t* box, uint32_t bytes, int reps, long long* times, uint32_t* last, Issue issue) {
  __shared__ __align__(8) uint64_t barrier;
  const uint32_t bar = sharedAddress(&barrier);
  initBarrier(bar);
  for (int r = 0; r < reps; ++r) {
    expectBytes(bar, bytes);
    long long t0 = clk();
    issue(r, sharedAddress(box), bar);
    waitPhase(bar, r & 1);
    long long t1 = clk();
    times[r] = t1 - t0;
    last[r] = *reinterpret_cast<volatile uint32_t*>(box + bytes - 4);
  }
}

// Copy r: `bytes` at src + r * stride.
__global__ void bulkLatency(const uint8_t* src, uint64_t stride, uint32_t bytes, int reps, long long* times,
                            uint32_t* last) {
  __shared__ __align__(128) uint8_t box[kMaxBytes];
  timeCopies(box, bytes, reps, times, last,
             [&](int r, uint32_t dst, uint32_t bar) { bulkLoad(dst, src + r * stride, bytes, bar); });
}

// Every copy: the box at (0, 0) of `map`.
__global__ void tensorLatency(const __grid_constant__ CUtensorMap map, uint32_t bytes, int reps, long long* times,
                              uint32_t* last) {
  __shared__ __align__(128) uint8_t box[kMaxBytes];
  timeCopies(box, bytes, reps, times, last, [&](int, uint32_t dst, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
            "r"(dst),
        "l"(reinterpret_cast<uint64_t>(&map)), "r"(0), "r"(0), "r"(bar)
        : "memory");
  });
}

// Every copy: the box at (0, 0) of `map`, multicast to both CTAs of the
// cluster by rank 0; times and last as rank 0 sees them.
__global__ void __cluster_dims__(2, 1, 1) multicastLatency(const __grid_constant__ CUtensorMap map, uint32_t bytes,
                                                            int reps, long long* times, uint32_t* last) {
  __shared__ __align__(128) uint8_t box[kMaxBytes];
  __shared__ __align__(8) uint64_t barrier;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const uint32_t bar = sharedAddress(&barrier);
  initBarrier(bar);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  for (int r = 0; r < reps; ++r) {
    expectBytes(bar, bytes);
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    long long t0 = clk();
    if (rank == 0) {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], "
          "[%1, {%2, %3}], [%4], %5;" ::"r"(sharedAddress(box)),
          "l"(reinterpret_cast<uint64_t>(&map)), "r"(0), "r"(0), "r"(bar), "h"(static_cast<uint16_t>(3))
          : "memory");
    }
    waitPhase(bar, r & 1);
    long long t1 = clk();
    if (rank == 0) {
      times[r] = t1 - t0;
      last[r] = *reinterpret_cast<volatile uint32_t*>(box + bytes - 4);
    }
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__global__ void storeLatency(uint8_t* dst, uint32_t bytes, int reps, long long* times) {
  __shared__ __align__(128) uint8_t box[kMaxBytes];
  for (uint32_t i = 0; i < bytes; ++i) box[i] = static_cast<uint8_t>(i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  for (int r = 0; r < reps; ++r) {
    long long t0 = clk();
    asm volatile(
        "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\ncp.async.bulk.commit_group;\n"
        "cp.async.bulk.wait_group 0;" ::"l"(dst),
        "r"(sharedAddress(box)), "r"(bytes)
        : "memory");
    long long t1 = clk();
    times[r] = t1 - t0;
  }
}

// Each CTA streams `perCta` bytes from src + blockIdx.x * perCta through a
// ring of 4 boxes of 16 KiB. spans[blockIdx.x]: its clock64 span.
constexpr unsigned kStages = 4, kBox = 16384;
__global__ void bulkStream(const uint8_t* src, uint64_t perCta, long long* spans, uint32_t* sums) {
  extern __shared__ __align__(128) uint8_t ring[];
  __shared__ __align__(8) uint64_t barriers[kStages];
  const uint8_t* mine = src + blockIdx.x * perCta;
  const uint64_t boxes = perCta / kBox;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < kStages; ++s) initBarrier(sharedAddress(&barriers[s]));
  }
  __syncthreads();
  long long t0 = clk();
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < kStages && s < boxes; ++s) {
      expectBytes(sharedAddress(&barriers[s]), kBox);
      bulkLoad(sharedAddress(ring + s * kBox), mine + s * kBox, kBox, sharedAddress(&barriers[s]));
    }
  }
  uint32_t sum = 0;
  for (uint64_t b = 0; b < boxes; ++b) {
    const unsigned s = b % kStages;
    waitPhase(sharedAddress(&barriers[s]), (b / kStages) & 1);
    sum += *reinterpret_cast<volatile uint32_t*>(ring + s * kBox + threadIdx.x * 4);
    __syncthreads();
    if (threadIdx.x == 0 && b + kStages < boxes) {
      expectBytes(sharedAddress(&barriers[s]), kBox);
      bulkLoad(sharedAddress(ring + s * kBox), mine + (b + kStages) * kBox, kBox, sharedAddress(&barriers[s]));
    }
  }
  long long t1 = clk();
  if (threadIdx.x == 0) spans[blockIdx.x] = t1 - t0;
  atomicAdd(&sums[blockIdx.x], sum);
}

uint32_t wordAt(const uint8_t* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

}  // namespace

int main() {
  reportClock();
  const bool quick = quickMode();
  const int reps = quick ? 3 : 9;
  const size_t bufferBytes = quick ? (size_t{16} << 20) : (size_t{512} << 20);
  uint8_t* buffer = nullptr;
  CUDA_CHECK(cudaMalloc(&buffer, bufferBytes));
  std::vector<uint8_t> pattern(1 << 20);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
  for (size_t o = 0; o < bufferBytes; o += pattern.size())
    CUDA_CHECK(cudaMemcpy(buffer + o, pattern.data(), pattern.size(), cudaMemcpyHostToDevice));
  long long* times = nullptr;
  uint32_t* last = nullptr;
  CUDA_CHECK(cudaMallocManaged(&times, 64 * sizeof(long long)));
  CUDA_CHECK(cudaMallocManaged(&last, 64 * sizeof(uint32_t)));
  auto medianOf = [&](int n) { return median(std::vector<long long>(times + 1, times + n)); };  // the first warms up
  auto checkLast = [&](const char* what, const uint8_t* base, uint64_t stride, uint32_t bytes, int n) {
    for (int r = 0; r < n; ++r) {
      const size_t offset = (base - buffer) + r * stride + bytes - 4;
      if (last[r] != wordAt(pattern.data() + offset % pattern.size())) fail("%s: copy %d's last word", what, r);
    }
  };
  for (uint32_t bytes : {128u, 1024u, 4096u, 16384u}) {
    // L2: the same bytes every time (the first copy brings them).
    bulkLatency<<<1, 1>>>(buffer, 0, bytes, reps, times, last);
    CUDA_CHECK(cudaDeviceSynchronize());
    checkLast("bulk l2", buffer, 0, bytes, reps);
    report("tma.bulk.l2." + std::to_string(bytes) + ".latency", medianOf(reps), "cycles");
    // DRAM: bytes no launch read before, 1 MiB apart.
    const size_t offset = (size_t{1} << 20) * (1 + 16 * (bytes / 128 % 16));
    bulkLatency<<<1, 1>>>(buffer + offset % (bufferBytes / 2), 1 << 20, bytes, reps, times, last);
    CUDA_CHECK(cudaDeviceSynchronize());
    checkLast("bulk dram", buffer + offset % (bufferBytes / 2), 1 << 20, bytes, reps);
    report("tma.bulk.dram." + std::to_string(bytes) + ".latency", medianOf(reps), "cycles");
    storeLatency<<<1, 1>>>(buffer + bufferBytes - kMaxBytes, bytes, reps, times);
    CUDA_CHECK(cudaDeviceSynchronize());
    report("tma.store." + std::to_string(bytes) + ".latency", medianOf(reps), "cycles");
  }
  // A 2D box through a tensor map: rows of W bytes of a 4096-byte-wide tensor.
  for (auto [w, h] : {std::pair{64u, 16u}, std::pair{128u, 32u}, std::pair{128u, 128u}}) {
    CUtensorMap map;
    cuuint64_t dims[2] = {4096, 4096}, strides[1] = {4096};
    cuuint32_t box[2] = {w, h}, elementStrides[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, buffer, dims, strides, box,
                                        elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      fail("cuTensorMapEncodeTiled %ux%u: %d", w, h, static_cast<int>(r));
      continue;
    }
    tensorLatency<<<1, 1>>>(map, w * h, reps, times, last);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < reps; ++k) {
      if (last[k] != wordAt(pattern.data() + (size_t{h - 1} * 4096 + w - 4) % pattern.size()))
        fail("tensor %ux%u: copy %d's last word", w, h, k);
    }
    report("tma.tensor2d.l2." + std::to_string(w) + "x" + std::to_string(h) + ".latency", medianOf(reps), "cycles");
    multicastLatency<<<2, 1>>>(map, w * h, reps, times, last);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < reps; ++k) {
      if (last[k] != wordAt(pattern.data() + (size_t{h - 1} * 4096 + w - 4) % pattern.size()))
        fail("multicast %ux%u: copy %d's last word", w, h, k);
    }
    report("tma.tensor2d.l2." + std::to_string(w) + "x" + std::to_string(h) + ".multicast_2.latency", medianOf(reps),
           "cycles");
  }
  // Streaming: one SM, then every SM.
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned ringBytes = kStages * kBox;
  CUDA_CHECK(cudaFuncSetAttribute(bulkStream, cudaFuncAttributeMaxDynamicSharedMemorySize, ringBytes));
  long long* spans = nullptr;
  uint32_t* sums = nullptr;
  CUDA_CHECK(cudaMallocManaged(&spans, sms * sizeof(long long)));
  CUDA_CHECK(cudaMallocManaged(&sums, sms * sizeof(uint32_t)));
  const uint64_t total = quick ? (uint64_t{4} << 20) : (uint64_t{64} << 20);
  for (int ctas : {1, sms}) {
    const uint64_t perCta = total / ctas / kBox * kBox;
    CUDA_CHECK(cudaMemset(sums, 0, sms * sizeof(uint32_t)));
    bulkStream<<<ctas, 128, ringBytes>>>(buffer, perCta, spans, sums);
    CUDA_CHECK(cudaDeviceSynchronize());
    long long slowest = 0;
    for (int c = 0; c < ctas; ++c) slowest = std::max(slowest, spans[c]);
    report("tma.bulk.stream.sms_" + std::to_string(ctas) + ".bytes_per_cycle",
           slowest > 0 ? static_cast<double>(perCta) / slowest : 0, "bytes/cycle");
  }
  return finish();
}
