// Sorts each block's blockDim.x consecutive u32 keys ascending with a
// bitonic network in shared memory (blockDim.x a power of two, one key per
// thread).

extern "C" __global__ void bitonic_sort(unsigned* keys) {
  extern __shared__ unsigned s[];
  unsigned t = threadIdx.x, size = blockDim.x;
  unsigned* block = keys + blockIdx.x * size;
  s[t] = block[t];
  __syncthreads();
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      unsigned partner = t ^ j;
      if (partner > t) {
        bool ascending = (t & k) == 0;
        unsigned a = s[t], b = s[partner];
        if ((a > b) == ascending) {
          s[t] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  block[t] = s[t];
}
