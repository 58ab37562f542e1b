// __prof_trigger(n) (PTX pmevent): the profiler's prof_trigger_0n counters
// count once per warp that executes the trigger, whatever the number of its
// threads. Block of 96 threads (3 warps), grid of 2 blocks:
// - trigger 0 by every thread: once per warp;
// - trigger 1 by odd threads only: still once per warp;
// - trigger 2 in a loop warp w runs w+1 times: 1 + 2 + 3 per block;
// - trigger 3 on both sides of a branch: twice per warp;
// - trigger 7 by one thread of the grid: once.
extern "C" __global__ void triggers(int* out) {
  int t = threadIdx.x;
  __prof_trigger(0);
  if (t % 2 == 1) __prof_trigger(1);
  for (int i = 0; i <= t / 32; ++i) __prof_trigger(2);
  if (t % 32 < 16) {
    __prof_trigger(3);
  } else {
    __prof_trigger(3);
  }
  if (blockIdx.x == 1 && t == 95) __prof_trigger(7);
  out[blockIdx.x * blockDim.x + t] = t;
}
