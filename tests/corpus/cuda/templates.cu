// templates.cu - covers: function/class templates with several instantiations
// (int, float, double, long long, unsigned char), non-type template parameters,
// functors as template arguments, compile-time recursion, templated shared
// memory reductions, vector types (float4/int2/double2/uchar4) loads and stores.
#include <cstdint>

template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Max  { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T> struct Min  { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };

// Compile-time recursion: Pow<N>::eval(x) = x^N.
template <int N> struct Pow {
  template <typename T> __device__ static T eval(T x) { return x * Pow<N - 1>::eval(x); }
};
template <> struct Pow<0> {
  template <typename T> __device__ static T eval(T) { return T(1); }
};

template <typename T, int BLOCK, typename Op>
__global__ void block_reduce(const T *__restrict__ in, T *__restrict__ out, int n, T identity) {
  __shared__ T buf[BLOCK];
  Op op;
  int tid = threadIdx.x;
  T acc = identity;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) acc = op(acc, in[i]);
  buf[tid] = acc;
  __syncthreads();
#pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) buf[tid] = op(buf[tid], buf[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = buf[0];
}

template <typename T, int N>
__global__ void poly_eval(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = Pow<N>::eval(x[i]) + Pow<N / 2>::eval(x[i]) - T(N);
}

template <typename V>
__device__ __forceinline__ V vadd(V a, V b);
template <> __device__ __forceinline__ float4 vadd(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
template <> __device__ __forceinline__ int2 vadd(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
template <> __device__ __forceinline__ double2 vadd(double2 a, double2 b) {
  return make_double2(a.x + b.x, a.y + b.y);
}
template <> __device__ __forceinline__ uchar4 vadd(uchar4 a, uchar4 b) {
  return make_uchar4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

template <typename V>
__global__ void vector_add(const V *__restrict__ a, const V *__restrict__ b, V *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = vadd(a[i], b[i]);
}

template <typename T, typename U>
__global__ void convert(const T *in, U *out, int n, U scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<U>(in[i]) * scale;
}

template <typename T, int TILE>
__global__ void transpose(const T *in, T *out, int w, int h) {
  __shared__ T tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

template __global__ void block_reduce<int, 128, Plus<int>>(const int *, int *, int, int);
template __global__ void block_reduce<float, 256, Max<float>>(const float *, float *, int, float);
template __global__ void block_reduce<double, 64, Plus<double>>(const double *, double *, int, double);
template __global__ void block_reduce<long long, 128, Min<long long>>(const long long *, long long *, int, long long);
template __global__ void block_reduce<unsigned char, 32, Max<unsigned char>>(const unsigned char *, unsigned char *, int, unsigned char);
template __global__ void poly_eval<float, 5>(const float *, float *, int);
template __global__ void poly_eval<double, 7>(const double *, double *, int);
template __global__ void poly_eval<int, 3>(const int *, int *, int);
template __global__ void vector_add<float4>(const float4 *, const float4 *, float4 *, int);
template __global__ void vector_add<int2>(const int2 *, const int2 *, int2 *, int);
template __global__ void vector_add<double2>(const double2 *, const double2 *, double2 *, int);
template __global__ void vector_add<uchar4>(const uchar4 *, const uchar4 *, uchar4 *, int);
template __global__ void convert<int, float>(const int *, float *, int, float);
template __global__ void convert<float, double>(const float *, double *, int, double);
template __global__ void convert<double, long long>(const double *, long long *, int, long long);
template __global__ void convert<unsigned, short>(const unsigned *, short *, int, short);
template __global__ void convert<float, unsigned long long>(const float *, unsigned long long *, int, unsigned long long);
template __global__ void transpose<float, 32>(const float *, float *, int, int);
template __global__ void transpose<double, 16>(const double *, double *, int, int);
