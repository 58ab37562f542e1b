// Indirect calls through a __device__ table of __device__ function
// pointers; neighbouring lanes pick different entries, so one warp calls
// several targets from the same call site.

typedef int (*BinaryOp)(int, int);

__device__ __noinline__ int opAdd(int a, int b) { return a + b; }
__device__ __noinline__ int opSub(int a, int b) { return a - b; }
__device__ __noinline__ int opMul(int a, int b) { return a * b; }
__device__ __noinline__ int opXorShift(int a, int b) { return (a ^ b) << 1; }

__device__ BinaryOp opTable[4] = {opAdd, opSub, opMul, opXorShift};

extern "C" __global__ void apply_ops(const int* a, const int* b, const int* selector, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = opTable[selector[i] & 3](a[i], b[i]);
}
