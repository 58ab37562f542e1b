// Dynamic shared memory (extern __shared__, sized at launch), carved into
// two arrays: each block reverses its slice of the input and writes each
// element's neighbour sum, using a second u32 array placed after the
// floats.

extern "C" __global__ void reverse_and_neighbours(const float* in, float* reversed, unsigned* keys,
                                                  unsigned* neighbourSums, int n) {
  extern __shared__ float shared[];
  float* values = shared;
  unsigned* ids = reinterpret_cast<unsigned*>(shared + blockDim.x);
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  values[t] = i < n ? in[i] : 0.0f;
  ids[t] = i < n ? keys[i] : 0u;
  __syncthreads();
  int r = blockDim.x - 1 - t;
  int j = blockIdx.x * blockDim.x + r;
  if (j < n) reversed[j] = values[t];
  if (i < n) {
    unsigned left = t > 0 ? ids[t - 1] : 0u, right = t + 1 < blockDim.x ? ids[t + 1] : 0u;
    neighbourSums[i] = left + right;
  }
}
