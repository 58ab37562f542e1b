// Recursive device functions (kept out of line so the recursion is real
// call/ret in PTX): Fibonacci with two recursive calls and a factorial,
// each lane recursing to its own depth.

__device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned long long factorial(unsigned n) {
  if (n <= 1) return 1;
  return n * factorial(n - 1);
}

extern "C" __global__ void recursion(const unsigned* depth, unsigned* fibs, unsigned long long* facts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    fibs[i] = fib(depth[i]);
    facts[i] = factorial(depth[i]);
  }
}
