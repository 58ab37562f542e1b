// Every wmma shape and type sm_90 has, through CUDA's wmma API: f16 (f16
// and f32 accumulators) and bf16 at m16n16k16, m32n8k16 and m8n32k16; tf32
// at m16n16k8; f64 at m8n8k4; s8/u8 at the three 16-deep shapes; s4/u4 at
// m8n8k32 and b1 at m8n8k128 (XOR and AND with popc). For each: A and B in
// both layouts, from global and from shared memory, C loaded and D stored
// row- and column-major with a stride wider than the matrix. Each case
// prints a hash of D's bits and D's first words. The "layout" lines load
// matrices whose elements hold their own (row, column) numbers and print
// what each lane's fragment holds: where the GPU keeps every element.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "bits_hash.h"
#include "check.h"

using namespace nvcuda;
namespace prec = wmma::experimental::precision;

namespace {

uint64_t state = 0x853c49e6748fea9bull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

// The element type a fragment is loaded from in memory, and its bits.
template <typename T>
struct Storage {
  using type = T;
  static constexpr int bits = 8 * sizeof(T);
};
template <>
struct Storage<wmma::precision::tf32> {
  using type = float;
  static constexpr int bits = 32;
};
template <>
struct Storage<prec::s4> {
  using type = int;
  static constexpr int bits = 4;
};
template <>
struct Storage<prec::u4> {
  using type = unsigned;
  static constexpr int bits = 4;
};
template <>
struct Storage<prec::b1> {
  using type = unsigned;
  static constexpr int bits = 1;
};

constexpr int kMaxBytes = 64 * 64 * 8;

struct Buffers {
  uint8_t a[kMaxBytes], b[kMaxBytes], c[kMaxBytes], d[kMaxBytes];
  uint32_t fragments[3][32][32];  // A, B, C: each lane's storage words
};

template <typename Frag>
__device__ void dumpFragment(const Frag& f, uint32_t (&out)[32][32]) {
  constexpr int bytes = sizeof(f.x);
  uint32_t words[(bytes + 3) / 4] = {};
  memcpy(words, &f.x[0], bytes);
  for (int i = 0; i < (bytes + 3) / 4; ++i) out[threadIdx.x][i] = words[i];
}

// One warp: loads A, B (from shared memory if kShared) and C, multiplies,
// stores D; dumps the three fragments as loaded.
template <int M, int N, int K, typename In, typename Acc, typename LA, typename LB, bool kShared, int kOp>
__global__ void wmmaCase(Buffers* buf, unsigned lda, unsigned ldb, unsigned ldc, bool cColumns, bool dColumns) {
  using S = typename Storage<In>::type;
  __shared__ __align__(256) uint8_t sa[kMaxBytes / 2], sb[kMaxBytes / 2];
  const S* a = reinterpret_cast<const S*>(buf->a);
  const S* b = reinterpret_cast<const S*>(buf->b);
  if (kShared) {
    for (int i = threadIdx.x; i < kMaxBytes / 2; i += 32) sa[i] = buf->a[i], sb[i] = buf->b[i];
    __syncwarp();
    a = reinterpret_cast<const S*>(sa);
    b = reinterpret_cast<const S*>(sb);
  }
  wmma::fragment<wmma::matrix_a, M, N, K, In, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, In, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::load_matrix_sync(fc, reinterpret_cast<const Acc*>(buf->c), ldc,
                         cColumns ? wmma::mem_col_major : wmma::mem_row_major);
  dumpFragment(fa, buf->fragments[0]);
  dumpFragment(fb, buf->fragments[1]);
  dumpFragment(fc, buf->fragments[2]);
  if constexpr (std::is_same_v<In, prec::b1>) {
    wmma::bmma_sync(fc, fa, fb, fc, kOp == 0 ? wmma::experimental::bmmaBitOpXOR : wmma::experimental::bmmaBitOpAND);
  } else {
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(reinterpret_cast<Acc*>(buf->d), fc, ldc,
                          dColumns ? wmma::mem_col_major : wmma::mem_row_major);
}

template <typename T>
const char* nameOf() {
  if constexpr (std::is_same_v<T, __half>) return "f16";
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  if constexpr (std::is_same_v<T, wmma::precision::tf32>) return "tf32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, int>) return "s32";
  if constexpr (std::is_same_v<T, signed char>) return "s8";
  if constexpr (std::is_same_v<T, unsigned char>) return "u8";
  if constexpr (std::is_same_v<T, prec::s4>) return "s4";
  if constexpr (std::is_same_v<T, prec::u4>) return "u4";
  if constexpr (std::is_same_v<T, prec::b1>) return "b1";
  return "?";
}

// A random element's bits: floats over a few binades, integers over their range.
template <typename T>
uint64_t randomElement() {
  uint32_t sign = next() & 1, e = next() % 5;
  if constexpr (std::is_same_v<T, __half>) return (sign << 15) | ((13 + e) << 10) | (next() & 0x3ff);
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return (sign << 15) | ((125 + e) << 7) | (next() & 0x7f);
  if constexpr (std::is_same_v<T, wmma::precision::tf32> || std::is_same_v<T, float>)
    return (uint64_t{sign} << 31) | ((125u + e) << 23) | (next() & 0x7fffff);
  if constexpr (std::is_same_v<T, double>)
    return (uint64_t{sign} << 63) | (uint64_t{1021 + e} << 52) | (uint64_t{next()} << 20) | next();
  return next();
}

// Writes element (row, col) of a rows x cols matrix stored with `ld` in
// the given order.
template <typename T>
void put(uint8_t* base, bool columns, unsigned ld, unsigned row, unsigned col, uint64_t value) {
  unsigned index = columns ? col * ld + row : row * ld + col;
  constexpr int bits = Storage<T>::bits;
  if constexpr (bits >= 8) {
    std::memcpy(base + index * (bits / 8), &value, bits / 8);
  } else {
    unsigned bit = index * bits;
    unsigned mask = (1u << bits) - 1;
    base[bit / 8] = static_cast<uint8_t>((base[bit / 8] & ~(mask << (bit % 8))) | ((value & mask) << (bit % 8)));
  }
}

// The bits of the integer v as an element of T (for the layout lines).
template <typename T>
uint64_t indexElement(unsigned v) {
  if constexpr (std::is_same_v<T, __half>) {
    __half h = __float2half(static_cast<float>(v));
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
  }
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat16 h = __float2bfloat16(static_cast<float>(v));
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
  }
  if constexpr (std::is_same_v<T, wmma::precision::tf32> || std::is_same_v<T, float>) {
    float f = static_cast<float>(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  if constexpr (std::is_same_v<T, double>) {
    double f = v;
    uint64_t bits;
    std::memcpy(&bits, &f, 8);
    return bits;
  }
  return v;
}

template <typename T>
unsigned long long printFragment(const char* what, const uint32_t (&words)[32][32], int count) {
  std::printf("  %s:", what);
  for (int lane = 0; lane < 32; ++lane) {
    std::printf(" |");
    for (int i = 0; i < count; ++i) {
      uint32_t w = words[lane][i];
      if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) {
        for (int h = 0; h < 2; ++h) {
          uint16_t bits = static_cast<uint16_t>(w >> (16 * h));
          float f;
          if constexpr (std::is_same_v<T, __half>) {
            __half x;
            std::memcpy(&x, &bits, 2);
            f = __half2float(x);
          } else {
            __nv_bfloat16 x;
            std::memcpy(&x, &bits, 2);
            f = __bfloat162float(x);
          }
          std::printf(" %g", f);
        }
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, wmma::precision::tf32>) {
        float f;
        std::memcpy(&f, &w, 4);
        std::printf(" %g", f);
      } else if constexpr (std::is_same_v<T, double>) {
        if (i % 2 == 0) {
          uint64_t bits = w | (uint64_t{words[lane][i + 1]} << 32);
          double f;
          std::memcpy(&f, &bits, 8);
          std::printf(" %g", f);
        }
      } else if constexpr (std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>) {
        for (int byte = 0; byte < 4; ++byte) std::printf(" %u", (w >> (8 * byte)) & 0xff);
      } else if constexpr (std::is_same_v<T, int>) {
        std::printf(" %d", static_cast<int>(w));
      } else {
        std::printf(" %08x", w);
      }
    }
  }
  std::printf("\n");
  return 0;
}

template <int M, int N, int K, typename In, typename Acc, typename LA, typename LB, bool kShared, int kOp>
int runCase(Buffers* buf, bool layoutProbe, bool cColumns, bool dColumns, unsigned pad) {
  constexpr bool aCols = std::is_same_v<LA, wmma::col_major>, bCols = std::is_same_v<LB, wmma::col_major>;
  constexpr bool packed = Storage<In>::bits < 8;
  // Strides in elements; packed types keep the tight stride (a multiple of 128 bits).
  // A row (or column) of a fragment must start 16-byte aligned: 8-bit
  // inputs pad by twice as many elements.
  unsigned inputPad = packed ? 0 : Storage<In>::bits == 8 ? 2 * pad : pad;
  unsigned lda = (aCols ? M : K) + inputPad, ldb = (bCols ? K : N) + inputPad;
  unsigned ldc = (cColumns || dColumns ? M : N) + pad;
  std::memset(buf, 0, sizeof(Buffers));
  for (unsigned r = 0; r < M; ++r)
    for (unsigned k = 0; k < K; ++k)
      put<In>(buf->a, aCols, lda, r, k, layoutProbe ? indexElement<In>(r * K + k) : randomElement<In>());
  for (unsigned k = 0; k < K; ++k)
    for (unsigned n = 0; n < N; ++n)
      put<In>(buf->b, bCols, ldb, k, n, layoutProbe ? indexElement<In>(k * N + n) : randomElement<In>());
  for (unsigned r = 0; r < M; ++r)
    for (unsigned n = 0; n < N; ++n)
      put<Acc>(buf->c, cColumns, ldc, r, n, layoutProbe ? indexElement<Acc>(r * N + n) : randomElement<Acc>());
  wmmaCase<M, N, K, In, Acc, LA, LB, kShared, kOp><<<1, 32>>>(buf, lda, ldb, ldc, cColumns, dColumns);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("m%dn%dk%d %s.%s %s.%s %s, C %s, D %s, pad %u%s:", M, N, K, nameOf<In>(), nameOf<Acc>(),
              aCols ? "col" : "row", bCols ? "col" : "row", kShared ? "shared" : "global", cColumns ? "col" : "row",
              dColumns ? "col" : "row", pad, kOp == 1 ? ", and" : "");
  if (layoutProbe) {
    std::printf(" layout\n");
    using Frags = wmma::fragment<wmma::matrix_a, M, N, K, In, LA>;
    using FragB = wmma::fragment<wmma::matrix_b, M, N, K, In, LB>;
    using FragC = wmma::fragment<wmma::accumulator, M, N, K, Acc>;
    printFragment<In>("A", buf->fragments[0], static_cast<int>((sizeof(Frags::x) + 3) / 4));
    printFragment<In>("B", buf->fragments[1], static_cast<int>((sizeof(FragB::x) + 3) / 4));
    printFragment<Acc>("C", buf->fragments[2], static_cast<int>((sizeof(FragC::x) + 3) / 4));
    return 0;
  }
  unsigned dElements = (dColumns ? N : M) * ldc;
  const uint8_t* d = buf->d;
  std::printf(" %016llx", bitsHash(d, dElements * sizeof(Acc)));
  for (int i = 0; i < 4; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, d + i * sizeof(Acc), sizeof(Acc));
    std::printf(" %0*llx", static_cast<int>(2 * sizeof(Acc)), static_cast<unsigned long long>(bits));
  }
  std::printf("\n");
  return 0;
}

// Every combination of layouts for one shape and type: the layout probes
// (row/col A with col/row B), then random cases.
template <int M, int N, int K, typename In, typename Acc>
int shapeCases(Buffers* buf) {
  using R = wmma::row_major;
  using C = wmma::col_major;
  int failed = 0;
  failed |= runCase<M, N, K, In, Acc, R, C, false, 0>(buf, true, false, false, 0);
  failed |= runCase<M, N, K, In, Acc, C, R, false, 0>(buf, true, false, false, 0);
  failed |= runCase<M, N, K, In, Acc, R, C, false, 0>(buf, false, false, false, 0);
  failed |= runCase<M, N, K, In, Acc, R, R, true, 0>(buf, false, true, false, 8);
  failed |= runCase<M, N, K, In, Acc, C, C, false, 0>(buf, false, false, true, 16);
  failed |= runCase<M, N, K, In, Acc, C, R, true, 0>(buf, false, true, true, 0);
  return failed;
}

// s4/u4 and b1 take A row-major and B column-major only.
template <int M, int N, int K, typename In, int kOp>
int packedCases(Buffers* buf, bool withLayout) {
  using R = wmma::row_major;
  using C = wmma::col_major;
  int failed = 0;
  if (withLayout) failed |= runCase<M, N, K, In, int, R, C, false, kOp>(buf, true, false, false, 0);
  failed |= runCase<M, N, K, In, int, R, C, false, kOp>(buf, false, false, false, 0);
  failed |= runCase<M, N, K, In, int, R, C, true, kOp>(buf, false, true, true, 4);
  return failed;
}

}  // namespace

int main() {
  Buffers* buf = nullptr;
  CHECK(cudaMallocManaged(&buf, sizeof(Buffers)));
  int failed = 0;
  failed |= shapeCases<16, 16, 16, __half, float>(buf);
  failed |= shapeCases<16, 16, 16, __half, __half>(buf);
  failed |= shapeCases<32, 8, 16, __half, float>(buf);
  failed |= shapeCases<32, 8, 16, __half, __half>(buf);
  failed |= shapeCases<8, 32, 16, __half, float>(buf);
  failed |= shapeCases<8, 32, 16, __half, __half>(buf);
  failed |= shapeCases<16, 16, 16, __nv_bfloat16, float>(buf);
  failed |= shapeCases<32, 8, 16, __nv_bfloat16, float>(buf);
  failed |= shapeCases<8, 32, 16, __nv_bfloat16, float>(buf);
  failed |= shapeCases<16, 16, 8, wmma::precision::tf32, float>(buf);
  failed |= shapeCases<8, 8, 4, double, double>(buf);
  failed |= shapeCases<16, 16, 16, signed char, int>(buf);
  failed |= shapeCases<32, 8, 16, signed char, int>(buf);
  failed |= shapeCases<8, 32, 16, unsigned char, int>(buf);
  failed |= shapeCases<32, 8, 16, unsigned char, int>(buf);
  failed |= packedCases<8, 8, 32, prec::s4, 0>(buf, true);
  failed |= packedCases<8, 8, 32, prec::u4, 0>(buf, false);
  failed |= packedCases<8, 8, 128, prec::b1, 0>(buf, true);
  failed |= packedCases<8, 8, 128, prec::b1, 1>(buf, false);
  return failed;
}
