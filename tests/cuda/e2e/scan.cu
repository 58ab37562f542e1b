// Exclusive prefix sums of u32.
//
// scan_blocks: Blelloch's work-efficient scan (up-sweep, then down-sweep)
// of 2 * blockDim.x elements per block in shared memory; each block's total
// goes to sums[blockIdx.x] when sums is not null. Missing elements past n
// count as zero. add_offsets then adds the scanned block totals, giving a
// scan of the whole array in three launches.

extern "C" __global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* sums, int n) {
  extern __shared__ unsigned temp[];
  int t = threadIdx.x, width = 2 * blockDim.x;
  int base = blockIdx.x * width;
  temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0u;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0u;
  int offset = 1;
  for (int d = width / 2; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) {
    if (sums != nullptr) sums[blockIdx.x] = temp[width - 1];
    temp[width - 1] = 0;
  }
  for (int d = 1; d < width; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned left = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += left;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}

extern "C" __global__ void add_offsets(unsigned* data, const unsigned* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += offsets[i / (2 * blockDim.x)];
}
