// Memory latency and bandwidth as seen from the CPU this runs on (pin it
// with taskset): a dependent pointer chase through a random cycle of
// 64-byte lines in a 256 MiB buffer (ns per load), then a sum over it
// (GB/s). The buffer is first touched by this process, so the figures show
// where the machine places its memory relative to each CPU.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  const size_t bytes = (size_t)256 << 20, lines = bytes / 64, stride = 64 / sizeof(uint64_t);
  uint64_t* buffer = aligned_alloc(64, bytes);
  uint64_t* order = malloc(lines * sizeof(uint64_t));
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  uint64_t seed = 88172645463325252ull;
  for (size_t i = lines - 1; i > 0; --i) {  // Fisher-Yates with xorshift
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    size_t j = seed % (i + 1), t = order[i];
    order[i] = order[j], order[j] = t;
  }
  for (size_t i = 0; i < lines; ++i) buffer[order[i] * stride] = order[(i + 1) % lines] * stride;
  const size_t steps = 20 * 1000 * 1000;
  uint64_t at = 0;
  double start = now();
  for (size_t i = 0; i < steps; ++i) at = buffer[at];
  const double latency = (now() - start) / steps * 1e9;
  uint64_t sum = 0;
  start = now();
  for (int pass = 0; pass < 4; ++pass)
    for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) sum += buffer[i];
  const double bandwidth = 4.0 * bytes / (now() - start) / 1e9;
  printf("%.1f ns/load %.1f GB/s (%llu)\n", latency, bandwidth, (unsigned long long)(sum + at) % 10);
  return 0;
}
