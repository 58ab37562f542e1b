// The 8-bit integer forms of wmma, as cuBLASLt's int8 kernels use them:
// m16n16k16 fragments of s8 and u8 loaded from shared and global memory in
// both layouts, multiplied into s32 with and without saturation, stored
// in both layouts; and cvt.pack.sat, which packs s32 results into bytes
// (and its 4- and 16-bit forms). Every wmma result is checked against the
// host and the first elements printed; the packed words are printed. And where each element lives: the fragments' layout,
// which PTX leaves to the GPU, printed lane by lane for u8 A and B in both
// layouts and the s32 accumulator (element (r, c) holding 16 r + c).
#include <mma.h>

#include <cstdint>
#include <cstdio>

#include "check.h"

using namespace nvcuda;

struct Inputs {
  int8_t a[16 * 16];  // A as stored: row-major for row layout, column-major for col
  int8_t b[16 * 16];
  int32_t c[16 * 16];  // row-major
};

template <typename LayoutA, typename LayoutB, typename Elem, bool kShared, bool kSaturate, bool kColumnStore>
__global__ void wmmaTile(const Inputs* in, int32_t* d) {
  __shared__ int8_t sa[256], sb[256];
  __shared__ int32_t sd[256];
  for (int i = threadIdx.x; i < 256; i += 32) {
    sa[i] = in->a[i];
    sb[i] = in->b[i];
  }
  __syncwarp();
  const Elem* a = reinterpret_cast<const Elem*>(kShared ? sa : in->a);
  const Elem* b = reinterpret_cast<const Elem*>(kShared ? sb : in->b);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, Elem, LayoutA> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, Elem, LayoutB> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int32_t> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, in->c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, kSaturate);
  const auto layout = kColumnStore ? wmma::mem_col_major : wmma::mem_row_major;
  if (kShared) {
    wmma::store_matrix_sync(sd, fc, 16, layout);
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32) d[i] = sd[i];
  } else {
    wmma::store_matrix_sync(d, fc, 16, layout);
  }
}

// Each form of cvt.pack.sat on the pairs in[2i], in[2i + 1]: out[6 form + i].
__global__ void packPairs(const int32_t* in, uint32_t* out, int count) {
  int i = threadIdx.x;
  if (i >= count) return;
  int32_t a = in[2 * i], b = in[2 * i + 1];
  uint32_t c = 0x0000abcd, d[6];
  asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(d[0]) : "r"(a), "r"(b), "r"(c));
  asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d[1]) : "r"(a), "r"(b), "r"(c));
  asm("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(d[2]) : "r"(a), "r"(b), "r"(c));
  asm("cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;" : "=r"(d[3]) : "r"(a), "r"(b), "r"(c));
  asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(d[4]) : "r"(a), "r"(b));
  asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(d[5]) : "r"(a), "r"(b));
  for (int f = 0; f < 6; ++f) out[f * count + i] = d[f];
}

// Each lane's fragment elements, as 16 r + c of the element they hold.
template <typename Layout, typename Use>
__device__ void dumpFragment(const uint8_t* m, uint8_t* out) {
  wmma::fragment<Use, 16, 16, 16, uint8_t, Layout> f;
  wmma::load_matrix_sync(f, m, 16);
  for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * f.num_elements + i] = f.x[i];
}

__global__ void fragmentLayouts(const uint8_t* rowMajor, const int32_t* c, uint8_t* out, int32_t* cOut) {
  dumpFragment<wmma::row_major, wmma::matrix_a>(rowMajor, out);
  dumpFragment<wmma::col_major, wmma::matrix_a>(rowMajor, out + 256);
  dumpFragment<wmma::row_major, wmma::matrix_b>(rowMajor, out + 512);
  dumpFragment<wmma::col_major, wmma::matrix_b>(rowMajor, out + 768);
  wmma::fragment<wmma::accumulator, 16, 16, 16, int32_t> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int i = 0; i < fc.num_elements; ++i) cOut[threadIdx.x * fc.num_elements + i] = fc.x[i];
}

namespace {

int hostElement(const Inputs& in, bool rowA, bool rowB, bool unsignedIn, bool saturate, int row, int col) {
  int64_t sum = in.c[row * 16 + col];
  for (int k = 0; k < 16; ++k) {
    int8_t a = rowA ? in.a[row * 16 + k] : in.a[k * 16 + row];
    int8_t b = rowB ? in.b[k * 16 + col] : in.b[col * 16 + k];
    int64_t x = unsignedIn ? uint8_t(a) : a, y = unsignedIn ? uint8_t(b) : b;
    sum += x * y;
  }
  if (saturate) sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
  return static_cast<int32_t>(static_cast<uint32_t>(sum));
}

template <typename LayoutA, typename LayoutB, typename Elem, bool kShared, bool kSaturate, bool kColumnStore>
int run(const char* name, Inputs* in, int32_t* d) {
  wmmaTile<LayoutA, LayoutB, Elem, kShared, kSaturate, kColumnStore><<<1, 32>>>(in, d);
  CHECK(cudaDeviceSynchronize());
  constexpr bool rowA = std::is_same_v<LayoutA, wmma::row_major>, rowB = std::is_same_v<LayoutB, wmma::row_major>;
  int wrong = 0;
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      int want = hostElement(*in, rowA, rowB, std::is_same_v<Elem, uint8_t>, kSaturate, r, c);
      wrong += d[kColumnStore ? c * 16 + r : r * 16 + c] != want ? 1 : 0;
    }
  }
  std::printf("%-44s %d of 256 differ; d[0..2] %d %d %d\n", name, wrong, d[0], d[1], d[2]);
  return 0;
}

}  // namespace

int main() {
  Inputs* in = nullptr;
  int32_t* d = nullptr;
  CHECK(cudaMallocManaged(&in, sizeof(Inputs)));
  CHECK(cudaMallocManaged(&d, 256 * sizeof(int32_t)));
  for (int i = 0; i < 256; ++i) {
    in->a[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
    in->b[i] = static_cast<int8_t>((i * 53 + 7) % 256 - 128);
    in->c[i] = (i % 7 - 3) * 1000;
  }
  run<wmma::row_major, wmma::col_major, int8_t, true, true, false>("s8 row.col shared, satfinite, row store", in, d);
  run<wmma::row_major, wmma::row_major, int8_t, true, true, false>("s8 row.row shared, satfinite", in, d);
  run<wmma::col_major, wmma::col_major, int8_t, true, true, false>("s8 col.col shared, satfinite", in, d);
  run<wmma::col_major, wmma::row_major, int8_t, true, true, true>("s8 col.row shared, satfinite, col store", in, d);
  run<wmma::row_major, wmma::col_major, int8_t, false, false, false>("s8 row.col global, wrapping", in, d);
  run<wmma::row_major, wmma::col_major, uint8_t, false, false, false>("u8 row.col global, wrapping", in, d);
  // Saturation: each C 5 inside the s32 limit its products head for, so
  // every element overflows.
  for (int i = 0; i < 256; ++i) in->c[i] = 0;
  for (int i = 0; i < 256; ++i) {
    int products = hostElement(*in, true, false, false, false, i / 16, i % 16);
    in->c[i] = products >= 0 ? INT32_MAX - 5 : INT32_MIN + 5;
  }
  run<wmma::row_major, wmma::col_major, int8_t, true, true, false>("s8 row.col, C at the s32 limits, satfinite", in,
                                                                   d);
  run<wmma::row_major, wmma::col_major, int8_t, true, false, false>("s8 row.col, C at the s32 limits, wrapping",
                                                                    in, d);

  // Fragment layouts: a col-major load reads the same memory as its
  // transpose, so the printed index is that of memory.
  uint8_t *indices = nullptr, *layouts = nullptr;
  int32_t *cIndices = nullptr, *cLayout = nullptr;
  CHECK(cudaMallocManaged(&indices, 256));
  CHECK(cudaMallocManaged(&layouts, 1024));
  CHECK(cudaMallocManaged(&cIndices, 256 * sizeof(int32_t)));
  CHECK(cudaMallocManaged(&cLayout, 256 * sizeof(int32_t)));
  for (int i = 0; i < 256; ++i) indices[i] = static_cast<uint8_t>(i), cIndices[i] = i;
  fragmentLayouts<<<1, 32>>>(indices, cIndices, layouts, cLayout);
  CHECK(cudaDeviceSynchronize());
  const char* names[] = {"A row", "A col", "B row", "B col"};
  for (int f = 0; f < 4; ++f) {
    std::printf("%s fragment:", names[f]);
    for (int lane = 0; lane < 32; lane += 1) {
      std::printf(" |");
      for (int i = 0; i < 8; ++i) std::printf(" %d", layouts[f * 256 + lane * 8 + i]);
    }
    std::printf("\n");
  }
  std::printf("C fragment:");
  for (int lane = 0; lane < 32; ++lane) {
    std::printf(" |");
    for (int i = 0; i < 8; ++i) std::printf(" %d", cLayout[lane * 8 + i]);
  }
  std::printf("\n");

  const int32_t values[] = {0,     1,     -1,    127,   128,   -128,      -129,      1000,
                            -1000, 7,     -8,    8,     15,    16,        32767,     32768,
                            -32768, -32769, 65535, 65536, 77,  INT32_MAX, INT32_MIN, -5};
  const int pairs = sizeof values / sizeof values[0] / 2;
  int32_t* dv = nullptr;
  uint32_t* packed = nullptr;
  CHECK(cudaMallocManaged(&dv, sizeof values));
  CHECK(cudaMallocManaged(&packed, 6 * pairs * sizeof(uint32_t)));
  for (int i = 0; i < 2 * pairs; ++i) dv[i] = values[i];
  packPairs<<<1, 32>>>(dv, packed, pairs);
  CHECK(cudaDeviceSynchronize());
  const char* forms[] = {"s8.s32.b32", "u8.s32.b32", "s4.s32.b32", "u4.s32.b32", "s16.s32", "u16.s32"};
  for (int f = 0; f < 6; ++f) {
    std::printf("cvt.pack.sat.%s:", forms[f]);
    for (int i = 0; i < pairs; ++i) std::printf(" %08x", packed[f * pairs + i]);
    std::printf("\n");
  }
  return 0;
}
