// An intra-warp spin lock: every thread of the block takes the same lock in
// turn to increment a counter without an atomic. Under independent thread
// scheduling the thread holding the lock makes progress while the others
// spin; under the pre-Volta reconvergence stack the holder waits at the
// loop's exit for the spinning threads, which wait for it: a livelock.
extern "C" __global__ void locked_increment(int* lock, int* counter, int* order) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  int ticket = *counter;  // the lock makes this read-modify-write safe
  *counter = ticket + 1;
  order[ticket] = threadIdx.x;
  __threadfence();
  atomicExch(lock, 0);
}

// A thread waiting for a flag no thread ever sets: a lost wake-up.
extern "C" __global__ void wait_for_flag(volatile int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
  }
  out[threadIdx.x] = threadIdx.x;
}
