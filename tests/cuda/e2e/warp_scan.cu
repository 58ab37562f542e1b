// An inclusive scan of each 32-element warp with __shfl_up_sync (Kogge-Stone
// over the lanes); past n a lane contributes zero.

extern "C" __global__ void warp_scan(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 0u;
  int lane = threadIdx.x % 32;
  for (int delta = 1; delta < 32; delta *= 2) {
    unsigned up = __shfl_up_sync(0xffffffffu, v, delta);
    if (lane >= delta) v += up;
  }
  if (i < n) out[i] = v;
}
