// How much device memory the driver keeps for a context, which
// cudaMemGetInfo never reports free (the H100 preset's
// context_reserved_bytes), and how allocations change the free figure.
// Run on the GPU machine; its output is kept beside it.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  cudaFree(nullptr);  // create the context
  size_t freeBytes = 0, totalBytes = 0;
  cudaMemGetInfo(&freeBytes, &totalBytes);
  std::printf("total %zu free %zu reserved %zu\n", totalBytes, freeBytes, totalBytes - freeBytes);
  for (size_t bytes : {size_t{1}, size_t{1} << 20, size_t{1} << 30}) {
    void* p = nullptr;
    cudaMalloc(&p, bytes);
    size_t after = 0;
    cudaMemGetInfo(&after, &totalBytes);
    std::printf("after cudaMalloc(%zu): free fell by %zu\n", bytes, freeBytes - after);
    cudaFree(p);
  }
  return 0;
}
