// copy_residency: what a copy or a fill leaves in the L2, seen by the kernel
// launched right after it. For each buffer size and each way of writing the
// buffer, the L2 is first flushed (a 256 MiB scratch buffer written and
// read), the buffer is written, and one thread then chases 2048 random
// 32-byte sectors of it with ld.global.cg (L1 bypassed), timing each load on
// its own (clock64, load, a shared store that waits for the value,
// clock64). The chase's next address is base + offset[k] + (value & mask)
// with mask = 0 at run time, so the loads depend on each other whatever the
// buffer holds (a memset's zeros too).
//
// Ways of writing (the "scenario"):
//   flushed        written by cudaMemcpy, then the L2 flushed: every load a miss
//   rechase        a second chase of the same sectors: L2 hits where they fit
//   h2d_pageable   cudaMemcpy from pageable host memory
//   h2d_pinned     cudaMemcpy from pinned host memory
//   h2d_async      cudaMemcpyAsync from pinned memory, the kernel in the same stream
//   d2d            cudaMemcpy device to device (the destination chased)
//   d2d_source     cudaMemcpy device to device (the source chased)
//   d2h_source     cudaMemcpy device to host (the source chased)
//   memset         cudaMemset
//   memset_async   cudaMemsetAsync, the kernel in the same stream
//
// CALIB_SCENARIOS, when set, names the scenarios to run (all by default).
//
// Output, per size and scenario:
//   copy_residency.<scenario>.<MiB>MiB.mean      mean cycles a load
//   copy_residency.<scenario>.<MiB>MiB.hit       fraction of loads under the
//                                                 threshold (L2 hits)
//   copy_residency.<scenario>.<MiB>MiB.hit_by_eighth  the same fraction for
//       each eighth of the buffer, first written to last (as eight numbers)
#include "calib_common.h"

#include <cstdint>
#include <random>

namespace {

constexpr int kLoads = 2048;
constexpr unsigned kThreshold = 500;  // cycles: between an L2 hit (~300) and DRAM (~600+)

__global__ void chase(const char* base, const unsigned* offsets, uint64_t mask, unsigned* latencies) {
  __shared__ unsigned offset[kLoads];
  __shared__ uint64_t sinkSlot[1];
  for (int k = 0; k < kLoads; ++k) offset[k] = offsets[k];
  // st.shared takes the slot's address in the shared window (the generic
  // pointer's low 32 bits are what the GPU used; ptxsim checks the window).
  const unsigned sinkAddress = unsigned(__cvta_generic_to_shared(sinkSlot));
  uint64_t x = 0;
  for (int k = 0; k < kLoads; ++k) {
    const char* address = base + offset[k] + (x & mask) * 32;
    long long t0 = clock64();
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(x) : "l"(address) : "memory");
    asm volatile("st.shared.u64 [%0], %1;" ::"r"(sinkAddress), "l"(x) : "memory");
    long long t1 = clock64();
    latencies[k] = unsigned(t1 - t0);
  }
}

__global__ void scribble(uint64_t* p, size_t n, uint64_t value) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = p[i] + value + i;
}

struct Result {
  double mean = 0, hit = 0, hitByEighth[8] = {};
};

Result summarise(const std::vector<unsigned>& latency, const std::vector<unsigned>& offset, size_t bytes) {
  Result r;
  int inEighth[8] = {}, hitsInEighth[8] = {};
  for (int k = 0; k < kLoads; ++k) {
    r.mean += latency[k];
    bool hit = latency[k] < kThreshold;
    r.hit += hit;
    int eighth = int(uint64_t(offset[k]) * 8 / bytes);
    inEighth[eighth]++;
    hitsInEighth[eighth] += hit;
  }
  r.mean /= kLoads;
  r.hit /= kLoads;
  for (int e = 0; e < 8; ++e) r.hitByEighth[e] = inEighth[e] ? double(hitsInEighth[e]) / inEighth[e] : 0;
  return r;
}

// CALIB_SCENARIOS="a b" runs only those scenarios (a simulator's replay
// of some of them); unset, every one.
bool chosen(const std::string& scenario) {
  const char* only = std::getenv("CALIB_SCENARIOS");
  if (only == nullptr) return true;
  std::string list = std::string(" ") + only + " ";
  return list.find(" " + scenario + " ") != std::string::npos;
}

}  // namespace

int main() {
  const size_t mib = size_t(1) << 20;
  std::vector<size_t> sizes = {1, 4, 8, 16, 24, 32, 40, 48, 64, 96, 128};
  if (quickMode()) sizes = {1, 8};
  const size_t scratchBytes = (quickMode() ? 64 : 256) * mib;
  size_t largest = sizes.back() * mib;

  char *buffer = nullptr, *source = nullptr;
  uint64_t* scratch = nullptr;
  unsigned *dOffsets = nullptr, *dLatencies = nullptr;
  CUDA_CHECK(cudaMalloc(&buffer, largest));
  CUDA_CHECK(cudaMalloc(&source, largest));
  CUDA_CHECK(cudaMalloc(&scratch, scratchBytes));
  CUDA_CHECK(cudaMalloc(&dOffsets, kLoads * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dLatencies, kLoads * sizeof(unsigned)));
  std::vector<char> pageable(largest, 1);
  char* pinned = nullptr;
  CUDA_CHECK(cudaMallocHost(&pinned, largest));
  std::memset(pinned, 1, largest);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  auto flush = [&] {
    scribble<<<264, 512>>>(scratch, scratchBytes / 8, 1);
    CUDA_CHECK(cudaDeviceSynchronize());
  };
  std::vector<unsigned> latency(kLoads), offsets(kLoads);
  std::mt19937 random(12345);
  const char* scenarios[] = {"flushed", "rechase", "h2d_pageable", "h2d_pinned", "h2d_async",
                             "d2d", "d2d_source", "d2h_source", "memset", "memset_async"};
  for (size_t size : sizes) {
    size_t bytes = size * mib;
    // kLoads distinct sectors spread over the whole buffer.
    size_t sectors = bytes / 32;
    for (int k = 0; k < kLoads; ++k) {
      size_t stride = sectors / kLoads;
      offsets[k] = unsigned((k * stride + random() % stride) * 32);
    }
    std::shuffle(offsets.begin(), offsets.end(), random);
    CUDA_CHECK(cudaMemcpy(dOffsets, offsets.data(), kLoads * sizeof(unsigned), cudaMemcpyHostToDevice));
    for (const char* scenario : scenarios) {
      std::string s = scenario;
      if (!chosen(s)) continue;
      cudaStream_t launchStream = nullptr;
      const char* chased = buffer;
      flush();
      if (s == "flushed" || s == "rechase") {
        CUDA_CHECK(cudaMemcpy(buffer, pinned, bytes, cudaMemcpyHostToDevice));
        flush();
        if (s == "rechase") {
          chase<<<1, 1>>>(buffer, dOffsets, 0, dLatencies);
          CUDA_CHECK(cudaDeviceSynchronize());
        }
      } else if (s == "h2d_pageable") {
        CUDA_CHECK(cudaMemcpy(buffer, pageable.data(), bytes, cudaMemcpyHostToDevice));
      } else if (s == "h2d_pinned") {
        CUDA_CHECK(cudaMemcpy(buffer, pinned, bytes, cudaMemcpyHostToDevice));
      } else if (s == "h2d_async") {
        CUDA_CHECK(cudaMemcpyAsync(buffer, pinned, bytes, cudaMemcpyHostToDevice, stream));
        launchStream = stream;
      } else if (s == "d2d") {
        CUDA_CHECK(cudaMemcpy(buffer, source, bytes, cudaMemcpyDeviceToDevice));
      } else if (s == "d2d_source") {
        CUDA_CHECK(cudaMemcpy(source, buffer, bytes, cudaMemcpyDeviceToDevice));
      } else if (s == "d2h_source") {
        CUDA_CHECK(cudaMemcpy(pinned, buffer, bytes, cudaMemcpyDeviceToHost));
      } else if (s == "memset") {
        CUDA_CHECK(cudaMemset(buffer, 0, bytes));
      } else if (s == "memset_async") {
        CUDA_CHECK(cudaMemsetAsync(buffer, 0, bytes, stream));
        launchStream = stream;
      }
      chase<<<1, 1, 0, launchStream>>>(chased, dOffsets, 0, dLatencies);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      CUDA_CHECK(cudaMemcpy(latency.data(), dLatencies, kLoads * sizeof(unsigned), cudaMemcpyDeviceToHost));
      Result r = summarise(latency, offsets, bytes);
      std::string prefix = "copy_residency." + s + "." + std::to_string(size) + "MiB";
      report((prefix + ".mean").c_str(), r.mean, "cycles");
      report((prefix + ".hit").c_str(), r.hit, "fraction");
      std::printf("%s.hit_by_eighth", prefix.c_str());
      for (double h : r.hitByEighth) std::printf(" %.3f", h);
      std::printf(" fraction\n");
    }
  }
  return finish();
}
