// One thread's fixed integer work; prints its wall time in ms.
#include <stdio.h>
#include <stdint.h>
#include <time.h>
int main(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  volatile uint64_t sink = 0;
  uint64_t x = 88172645463325252ull, acc = 0;
  for (uint64_t i = 0; i < 600000000ull; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; acc += x; }
  sink = acc;
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%.0f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
  return (int)(sink & 0);
}
