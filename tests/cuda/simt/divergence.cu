// Control flow that splits warps in every way: nested divergence with
// break, continue, early return and exit inside divergent code; recursion
// whose depth differs per lane; an indirect branch (a dense switch) and
// indirect calls with a different target per lane; shuffles, votes and
// ballots over partial masks. Each thread writes values a host replay of
// the same code computes, so every SIMT mode and schedule must agree.

__device__ int collatzSteps(int x) {
  int steps = 0;
  while (x != 1) {
    if (steps > 200) break;  // break inside divergent code
    if (x % 2 == 0) {
      x /= 2;
      ++steps;
      continue;  // continue inside divergent code
    }
    x = 3 * x + 1;
    ++steps;
  }
  return steps;
}

__device__ int depthSum(int n) {  // recursion to a per-lane depth
  if (n <= 0) return 0;
  return n + depthSum(n - 1 - (n % 3 == 0));
}

__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }

extern "C" __global__ void nested(int* out, int* exitedMarker) {
  int t = threadIdx.x;
  int* o = out + t * 8;
  if (t % 7 == 6) {
    exitedMarker[t] = 1;
    asm volatile("exit;");  // exit inside divergent code
  }
  o[0] = collatzSteps(t + 1);
  if (t % 5 == 4) return;  // early return inside divergent code
  o[1] = depthSum(t % 11);
  int r;
  switch (t % 9) {  // a dense switch: an indirect branch
    case 0: r = t + 100; break;
    case 1: r = t * 3; break;
    case 2: r = t - 50; break;
    case 3: r = t ^ 0x55; break;
    case 4: r = t << 2; break;
    case 5: r = t * t; break;
    case 6: r = 7 - t; break;
    case 7: r = t | 0x100; break;
    default: r = -t; break;
  }
  o[2] = r;
  int (*table[3])(int) = {twice, square, negate};
  o[3] = table[t % 3](t + 1);  // indirect calls, three targets per warp
}

extern "C" __global__ void partial_masks(int* out) {
  int t = threadIdx.x;
  int* o = out + t * 4;
  if (t % 2 == 0) {
    unsigned even = 0x55555555u;
    o[0] = __shfl_sync(even, t * 10, (t + 2) % 32);  // from the next even lane
    o[1] = static_cast<int>(__ballot_sync(even, t % 4 == 0));
    o[2] = __any_sync(even, t == 30) + 2 * __all_sync(even, t < 32);
  } else if (t < 16) {
    unsigned lowOdd = 0x0000aaaau;
    o[0] = __shfl_xor_sync(lowOdd, t, 2);
    o[1] = static_cast<int>(__ballot_sync(lowOdd, t > 8));
    o[2] = __reduce_add_sync(lowOdd, t);
  } else {
    unsigned active = __activemask();
    o[0] = __popc(active);
    o[1] = __shfl_down_sync(active, t, 2);  // lanes past the end keep their own value
    o[2] = static_cast<int>(__match_any_sync(active, t / 8));
  }
  __syncwarp();
  o[3] = __ballot_sync(0xffffffffu, o[0] > 100);
}
