// What a device memset costs between two events: cudaMemset of 4 KiB to
// 64 MiB timed alone, an empty kernel alone, and the two together (as
// bandwidth.cu times its atomics: a memset, then the kernel). Each the best
// of 20 after a warm-up. The simulator's events count a launch's cycles and
// launch.overhead; this says what a memset adds on the GPU.
#include <cstdio>
#include <vector>

#include "calib_common.h"

__global__ void emptyKernel() {}

int main() {
  reportClock();
  const int runs = 20;
  const size_t sizes[] = {size_t{4} << 10, size_t{64} << 10, size_t{1} << 20, size_t{4} << 20, size_t{16} << 20,
                          size_t{64} << 20};
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, sizes[5]));
  float empty = bestMs(runs, [] { emptyKernel<<<1, 32>>>(); });
  report("launch.empty_kernel_us", empty * 1e3, "us");
  for (size_t bytes : sizes) {
    float alone = bestMs(runs, [&] { CUDA_CHECK(cudaMemset(p, 0, bytes)); });
    float withKernel = bestMs(runs, [&] {
      CUDA_CHECK(cudaMemset(p, 0, bytes));
      emptyKernel<<<1, 32>>>();
    });
    const std::string name = "memset." + std::to_string(bytes >> 10) + "KiB";
    report(name + "_us", alone * 1e3, "us");
    report(name + "_then_empty_kernel_us", withKernel * 1e3, "us");
  }
  CUDA_CHECK(cudaFree(p));
  std::printf("ok\n");
  return 0;
}
