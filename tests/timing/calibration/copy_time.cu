// What a cudaMemcpy costs between two events: device to device, host to
// device and device to host (from pinned and from pageable host memory),
// 4 KiB to 64 MiB, each the best of 20 after a warm-up.
#include <cstdio>
#include <string>

#include "calib_common.h"

int main() {
  reportClock();
  const int runs = 20;
  const size_t sizes[] = {size_t{4} << 10, size_t{1} << 20, size_t{16} << 20, size_t{64} << 20};
  const size_t most = sizes[3];
  void *a = nullptr, *b = nullptr, *pinned = nullptr;
  CUDA_CHECK(cudaMalloc(&a, most));
  CUDA_CHECK(cudaMalloc(&b, most));
  CUDA_CHECK(cudaMallocHost(&pinned, most));
  std::vector<char> pageable(most, 1);
  for (size_t bytes : sizes) {
    const std::string size = std::to_string(bytes >> 10) + "KiB";
    report("copy.d2d." + size + "_us",
           bestMs(runs, [&] { CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); }) * 1e3, "us");
    report("copy.h2d_pinned." + size + "_us",
           bestMs(runs, [&] { CUDA_CHECK(cudaMemcpy(a, pinned, bytes, cudaMemcpyHostToDevice)); }) * 1e3, "us");
    report("copy.d2h_pinned." + size + "_us",
           bestMs(runs, [&] { CUDA_CHECK(cudaMemcpy(pinned, a, bytes, cudaMemcpyDeviceToHost)); }) * 1e3, "us");
    report("copy.h2d_pageable." + size + "_us",
           bestMs(runs, [&] { CUDA_CHECK(cudaMemcpy(a, pageable.data(), bytes, cudaMemcpyHostToDevice)); }) * 1e3,
           "us");
  }
  CUDA_CHECK(cudaFreeHost(pinned));
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  std::printf("ok\n");
  return 0;
}
