// Device printf from several blocks and threads. The order of lines from
// different threads is not defined on a GPU, so the program captures its
// own standard output while the kernels run, checks that nothing appears
// before cudaDeviceSynchronize, and prints the captured lines sorted.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"

__device__ const char* kWords[] = {"alpha", "beta", "gamma", "delta"};

__global__ void greet(float scale) {
  int t = threadIdx.x, b = blockIdx.x;
  // Threads of both warps of each block, not all of them.
  if (t % 13 != 0 && t != 63) return;
  float f = scale * static_cast<float>(b * 64 + t);
  double d = 1.0 / (1 + b * 64 + t);
  printf("b%d t%02d: int %d unsigned %u hex %#x char %c str %s\n", b, t, -t * 1000 - b, 4000000000u + t,
         b * 4096 + t, 'a' + t % 26, kWords[(b + t) % 4]);
  printf("b%d t%02d: float %.3f %8.2e %g double %.15f %G long %lld %llx pct %%\n", b, t, f, f * 1e5f, f, d,
         d * 1e-9, -1234567890123LL * (b + 1), 0xfedcba9876543210ULL >> t % 8);
}

__global__ void oneLine(int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) printf("second kernel says %d %s\n", value, "(one line)");
}

__global__ void manyArgs() {
  printf("many: %d %d %d %d %d %d %d %d %d %d %d %d %5s|%-5s|%05d|%+d|%x\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
         "ab", "cd", 42, 7, 255u);
}

int lineCount(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return -1;
  int lines = 0;
  for (int c; (c = std::fgetc(f)) != EOF;) lines += c == '\n';
  std::fclose(f);
  return lines;
}

int main() {
  char path[] = "/tmp/printf_capture_XXXXXX";
  int file = mkstemp(path);
  if (file < 0) return 2;
  std::fflush(stdout);
  int saved = dup(1);
  dup2(file, 1);

  greet<<<3, 64>>>(0.25f);
  cudaError_t launch = cudaGetLastError();
  int beforeSync = lineCount(path);
  cudaError_t sync = cudaDeviceSynchronize();
  std::fflush(stdout);
  int afterSync = lineCount(path);
  oneLine<<<2, 32>>>(7);
  manyArgs<<<1, 1>>>();
  cudaError_t sync2 = cudaDeviceSynchronize();
  std::fflush(stdout);
  int afterSecond = lineCount(path);

  dup2(saved, 1);
  close(saved);
  std::printf("launch: %s, sync: %s, second sync: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(sync2));
  std::printf("lines before cudaDeviceSynchronize: %d\n", beforeSync);
  std::printf("lines after cudaDeviceSynchronize: %d\n", afterSync);
  std::printf("lines after the second synchronize: %d\n", afterSecond);

  std::vector<std::string> lines;
  FILE* f = std::fopen(path, "r");
  char buffer[512];
  while (f != nullptr && std::fgets(buffer, sizeof buffer, f) != nullptr) lines.emplace_back(buffer);
  if (f != nullptr) std::fclose(f);
  close(file);
  unlink(path);
  std::sort(lines.begin(), lines.end());
  for (const std::string& line : lines) std::fputs(line.c_str(), stdout);
  std::printf("done\n");
  return 0;
}
