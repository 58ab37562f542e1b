// The constant bank: a __constant__ array's address converted to a
// constant-space offset with cvta.to.const (what pointer-chasing code and
// hand-written PTX do), ld.const through such offsets, and cvta.const back
// to a generic pointer that ordinary loads read. Offsets are printed
// relative to the first one, since where the bank starts is the
// toolchain's choice.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

__constant__ unsigned table[64];
__constant__ unsigned second[8];

__global__ void readThroughOffsets(unsigned* out) {
  unsigned long long tableOffset, secondOffset;
  asm("cvta.to.const.u64 %0, %1;" : "=l"(tableOffset) : "l"(table));
  asm("cvta.to.const.u64 %0, %1;" : "=l"(secondOffset) : "l"(second));
  unsigned i = threadIdx.x;
  // A 32-bit offset register, as a chase through 32-bit words holds it.
  unsigned offset32 = static_cast<unsigned>(tableOffset) + 4 * i;
  unsigned viaOffset;
  asm volatile("ld.const.u32 %0, [%1];" : "=r"(viaOffset) : "l"(static_cast<unsigned long long>(offset32)));
  unsigned long long generic;
  asm("cvta.const.u64 %0, %1;" : "=l"(generic) : "l"(tableOffset + 8 * i));
  unsigned viaGeneric = *reinterpret_cast<const unsigned*>(generic);
  out[3 * i] = viaOffset;
  out[3 * i + 1] = viaGeneric;
  out[3 * i + 2] = static_cast<unsigned>(secondOffset - tableOffset) >= 256 ? 1 : 0;
}

int main() {
  unsigned host[64];
  for (int i = 0; i < 64; ++i) host[i] = 1000 + 7 * i;
  CHECK(cudaMemcpyToSymbol(table, host, sizeof host));
  unsigned* out;
  CHECK(cudaMalloc(&out, 3 * 32 * sizeof(unsigned)));
  readThroughOffsets<<<1, 32>>>(out);
  CHECK(cudaGetLastError());
  unsigned result[3 * 32];
  CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 32; ++i) {
    if (result[3 * i] != host[i] || result[3 * i + 1] != host[2 * i]) ++bad;
  }
  std::printf("lane 0: offset read %u, generic read %u\n", result[0], result[1]);
  std::printf("lane 31: offset read %u, generic read %u\n", result[93], result[94]);
  std::printf("second array lies past the first: %u\n", result[2]);
  std::printf("mismatches: %d\n", bad);
  CHECK(cudaFree(out));
  return 0;
}
