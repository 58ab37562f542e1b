// Which atomics does the H100's L2 hold back? ptxsim's slice atomic unit
// (memory/l2_cache.h) passes one word's result on to the next operation on
// that word 1.45 cycles later, but makes an atomic to other words of a
// sector it has just updated wait l2.atomic_hazard_cycles (12.7, fitted to
// histogram_global alone). Each kernel here sends every warp's reductions
// (atomicAdd, result unused: RED) to one 128-byte line, so one L2 slice
// serves them all, and differs only in which words they update:
// - sameWord:      lane 0 of each warp, word 0 (atomic.one_address_one_lane);
// - rotateSector:  lane 0, warp w's k-th to word (w + k) % 8 of sector 0:
//                  nearly every request another word of the sector;
// - rotateLine:    lane 0, word (w + k) % 32: the same over the 4 sectors;
// - wholeLine:     all lanes, lane l to word l: every request the same 32
//                  words (histogram_shared's merge);
// - shiftedLine:   all lanes, lane l to word (l + w + k) % 32: the same
//                  words, each lane's word changing;
// - fourPerWord:   all lanes, lane l to word l % 8 of sector 0: 4
//                  operations on each of 8 words a request.
// Each kernel runs with ITERS and 2 x ITERS reductions a warp; Nsight
// Compute's gpc__cycles_elapsed.max of the two (record_atomic_hazard.sh)
// gives the cycles a request costs: (long - short) / (warps x ITERS).
// ptxsim's answer: the same program under `ptxsim run --timing --stats`.
#include <cuda_runtime.h>

#include <cstdio>

#include "../../../cuda/programs/check.h"

constexpr int kBlocks = 132 * 4, kThreads = 256, kIters = 8;

// `zero` is 0 read from memory: ptxas cannot see that addresses are
// uniform, so it does not sum a warp's lanes into one reduction.
__global__ void sameWord(unsigned* line, const unsigned* zero, int iters) {
  if (threadIdx.x % 32 != 0) return;
  unsigned* p = line + zero[0];
  for (int k = 0; k < iters; ++k) atomicAdd(p, 1u);
}

__global__ void rotateSector(unsigned* line, const unsigned* zero, int iters) {
  if (threadIdx.x % 32 != 0) return;
  unsigned w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 + zero[0];
  for (int k = 0; k < iters; ++k) atomicAdd(line + (w + k) % 8, 1u);
}

__global__ void rotateLine(unsigned* line, const unsigned* zero, int iters) {
  if (threadIdx.x % 32 != 0) return;
  unsigned w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 + zero[0];
  for (int k = 0; k < iters; ++k) atomicAdd(line + (w + k) % 32, 1u);
}

__global__ void wholeLine(unsigned* line, const unsigned* zero, int iters) {
  unsigned* p = line + (threadIdx.x % 32 + zero[0]) % 32;
  for (int k = 0; k < iters; ++k) atomicAdd(p, 1u);
}

__global__ void shiftedLine(unsigned* line, const unsigned* zero, int iters) {
  unsigned w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 + zero[0];
  for (int k = 0; k < iters; ++k) atomicAdd(line + (threadIdx.x % 32 + w + k) % 32, 1u);
}

__global__ void fourPerWord(unsigned* line, const unsigned* zero, int iters) {
  unsigned* p = line + (threadIdx.x % 8 + zero[0]) % 8;
  for (int k = 0; k < iters; ++k) atomicAdd(p, 1u);
}

int main() {
  unsigned *line, *zero;
  CHECK(cudaMalloc(&line, 128));
  CHECK(cudaMalloc(&zero, 4));
  CHECK(cudaMemset(zero, 0, 4));
  using Kernel = void (*)(unsigned*, const unsigned*, int);
  const struct {
    const char* name;
    Kernel kernel;
    unsigned opsPerIter;  // the reductions a block makes per iteration
  } kernels[] = {{"sameWord", sameWord, 8},        {"rotateSector", rotateSector, 8},
                 {"rotateLine", rotateLine, 8},    {"wholeLine", wholeLine, 256},
                 {"shiftedLine", shiftedLine, 256}, {"fourPerWord", fourPerWord, 256}};
  int failures = 0;
  for (const auto& k : kernels) {
    for (int iters : {kIters, 2 * kIters}) {
      CHECK(cudaMemset(line, 0, 128));
      k.kernel<<<kBlocks, kThreads>>>(line, zero, iters);
      CHECK(cudaGetLastError());
      unsigned words[32];
      CHECK(cudaMemcpy(words, line, 128, cudaMemcpyDeviceToHost));
      unsigned long long total = 0;
      for (unsigned v : words) total += v;
      const unsigned long long want = 1ull * kBlocks * k.opsPerIter * iters;
      const bool ok = total == want;
      failures += ok ? 0 : 1;
      std::printf("%s iters=%d warps=%d ops=%llu %s\n", k.name, iters, kBlocks * kThreads / 32, want,
                  ok ? "ok" : "FAILED");
    }
  }
  CHECK(cudaFree(line));
  CHECK(cudaFree(zero));
  return failures == 0 ? 0 : 1;
}
