// calls.cu - covers: non-inlined device function calls (.func with .param
// arguments and return values of many types: f16, s8, f64, structs by value,
// float4), recursion (__noinline__ recursive functions: Ackermann, tree walk),
// mutual recursion, function pointers and __device__ function-pointer tables
// (call through .callprototype), virtual functions (vtables), template
// __noinline__ functions (.weak linkage), and a kernel calling a kernel helper.
#include <cuda_fp16.h>

struct Pair { int a; float b; double c; };
struct Big { float v[9]; char tag; };

__device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

struct Node { int value; int left, right; };
__device__ __noinline__ long long tree_sum(const Node *nodes, int idx, int depth) {
  if (idx < 0 || depth > 64) return 0;
  const Node &nd = nodes[idx];
  return nd.value + tree_sum(nodes, nd.left, depth + 1) + tree_sum(nodes, nd.right, depth + 1);
}

__device__ __noinline__ Pair make_pair_dev(int a, float b, double c) { return Pair{a, b * 2.f, c + a}; }
__device__ __noinline__ float sum_big(Big big) {
  float s = 0.f;
  for (int k = 0; k < 9; ++k) s += big.v[k];
  return s + big.tag;
}
__device__ __noinline__ __half half_mix(__half x, signed char c, unsigned short u, bool flag) {
  return flag ? __hadd(x, __int2half_rn(c)) : __hsub(x, __ushort2half_rn(u));
}
__device__ __noinline__ float4 scale4(float4 v, float s) { return make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }
template <typename T> __device__ __noinline__ T clamp_dev(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

typedef float (*unary_fn)(float);
typedef int (*binary_fn)(int, int);
__device__ float f_square(float x) { return x * x; }
__device__ float f_negate(float x) { return -x; }
__device__ float f_half(float x) { return 0.5f * x; }
__device__ int b_add(int a, int b) { return a + b; }
__device__ int b_mul(int a, int b) { return a * b; }
__device__ int b_max(int a, int b) { return a > b ? a : b; }
__device__ unary_fn unary_table[3] = {f_square, f_negate, f_half};
__device__ binary_fn binary_table[] = {b_add, b_mul, b_max, b_add};

__global__ void direct_calls(const Node *nodes, const float4 *vin, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Pair p = make_pair_dev(i, 1.5f, 2.25);
  Big big;
  for (int k = 0; k < 9; ++k) big.v[k] = (float)(k * i);
  big.tag = (char)i;
  __half h = half_mix(__float2half((float)i), (signed char)(i & 0x7f), (unsigned short)i, i & 1);
  float4 s = scale4(vin[i], p.b);
  out[i] = (float)ackermann(2, i & 3) + (float)is_even((unsigned)i & 15) + (float)tree_sum(nodes, 0, 0) + p.a +
           (float)p.c + sum_big(big) + __half2float(h) + s.x + s.y + s.z + s.w + clamp_dev(s.x, -1.f, 1.f) +
           (float)clamp_dev(i, 2, 9) + (float)clamp_dev(p.c, 0.0, 3.0);
}

__global__ void indirect_calls(const int *sel, const float *x, float *y, int *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unary_fn f = unary_table[sel[i] % 3];
  binary_fn g = binary_table[(sel[i] >> 2) & 3];
  y[i] = f(x[i]) + unary_table[(i + 1) % 3](x[i]);
  z[i] = g(i, sel[i]);
}

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual float perimeter() const { return 0.f; }
  __device__ virtual ~Shape() {}
};
struct Circle : Shape {
  float r;
  __device__ explicit Circle(float r_) : r(r_) {}
  __device__ float area() const override { return 3.14159265f * r * r; }
  __device__ float perimeter() const override { return 6.2831853f * r; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
  __device__ float area() const override { return w * h; }
  __device__ float perimeter() const override { return 2.f * (w + h); }
};
struct Square final : Rect {
  __device__ explicit Square(float s) : Rect(s, s) {}
  __device__ float area() const override { return w * w + 0.f; }
};

__global__ void virtual_calls(const float *dims, const int *kinds, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Circle c(dims[i]);
  Rect r(dims[i], 2.f);
  Square s(dims[i] + 1.f);
  Shape *shapes[3] = {&c, &r, &s};
  Shape *sh = shapes[kinds[i] % 3];
  out[i] = sh->area() + sh->perimeter();
}
