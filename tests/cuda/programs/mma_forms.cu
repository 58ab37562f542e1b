// Warp-level matrix instructions, each form nvcc emits for sm_80/sm_90
// code, on small-integer matrices whose products and sums are exact in
// every format (so the result does not depend on the order of summation):
// mma.sync.aligned m16n8k16/m16n8k8/m16n8k4 with f16, bf16 and tf32 inputs,
// m16n8k32/m16n8k16 with s8/u8 inputs (wrapping and .satfinite), m8n8k4
// .f64; then ldmatrix .x1/.x2/.x4{.trans} and stmatrix. Each result is
// checked against a host reference and summarised.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "check.h"

enum Kind { kF16, kBF16, kTF32, kF32, kF64, kS8, kU8, kS32 };

constexpr int kMaxK = 32;

struct Problem {
  int a[16][kMaxK];  // A, row-major (M x K)
  int b[kMaxK][8];   // B (K x N)
  int c[16][8];
};

// The bits of one element of the given format holding the integer v.
__device__ uint32_t elementBits(Kind kind, int v) {
  switch (kind) {
    case kF16: return __half_as_ushort(__int2half_rn(v));
    case kBF16: return __bfloat16_as_ushort(__int2bfloat16_rn(v));
    case kTF32:
    case kF32: return __float_as_uint(static_cast<float>(v));
    case kS8:
    case kU8: return static_cast<uint32_t>(v) & 0xff;
    default: return static_cast<uint32_t>(v);
  }
}

__device__ int elementBitsWidth(Kind kind) {
  return kind == kF16 || kind == kBF16 ? 16 : kind == kS8 || kind == kU8 ? 8 : 32;
}

// Register r of this lane's A (16 x K) fragment, as the PTX ISA's
// "Matrix Fragments for mma.m16n8k*" place the elements.
__device__ uint32_t fragmentA(const Problem& p, Kind kind, int lane, int r) {
  int width = elementBitsWidth(kind), per = 32 / width, group = lane >> 2, t = lane & 3;
  uint32_t bits = 0;
  for (int e = 0; e < per; ++e) {
    int row = group + 8 * (r & 1), col = (r >> 1) * 4 * per + t * per + e;
    bits |= elementBits(kind, p.a[row][col]) << (e * width);
  }
  return bits;
}

__device__ uint32_t fragmentB(const Problem& p, Kind kind, int lane, int r) {
  int width = elementBitsWidth(kind), per = 32 / width, group = lane >> 2, t = lane & 3;
  uint32_t bits = 0;
  for (int e = 0; e < per; ++e)
    bits |= elementBits(kind, p.b[r * 4 * per + t * per + e][group]) << (e * width);
  return bits;
}

// Accumulator element i (0..3) of this lane: row, column.
__device__ int accRow(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }
__device__ int accCol(int lane, int i) { return 2 * (lane & 3) + (i & 1); }

__device__ void storeF32(long long* d, int lane, const float* v) {
  for (int i = 0; i < 4; ++i) d[accRow(lane, i) * 8 + accCol(lane, i)] = static_cast<long long>(v[i]);
}

__device__ void storeS32(long long* d, int lane, const int* v) {
  for (int i = 0; i < 4; ++i) d[accRow(lane, i) * 8 + accCol(lane, i)] = v[i];
}

enum Form {
  kF32F16K16,
  kF16F16K16,
  kF32BF16K16,
  kF32F16K8,
  kF32BF16K8,
  kF32TF32K8,
  kF32TF32K4,
  kS8K32,
  kU8K32,
  kS8U8K32Sat,
  kS8K16,
  kS8K16Sat,
  kFormCount
};

__global__ void runMma(Form form, const Problem* problem, long long* d) {
  const Problem& p = *problem;
  int lane = threadIdx.x;
  float f[4];
  int s[4];
  for (int i = 0; i < 4; ++i) {
    f[i] = static_cast<float>(p.c[accRow(lane, i)][accCol(lane, i)]);
    s[i] = p.c[accRow(lane, i)][accCol(lane, i)];
  }
  switch (form) {
    case kF32F16K16: {
      uint32_t a[4], b[2];
      for (int r = 0; r < 4; ++r) a[r] = fragmentA(p, kF16, lane, r);
      for (int r = 0; r < 2; ++r) b[r] = fragmentB(p, kF16, lane, r);
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%0,%1,%2,%3};"
          : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      storeF32(d, lane, f);
      break;
    }
    case kF16F16K16: {
      uint32_t a[4], b[2], c[2];
      for (int r = 0; r < 4; ++r) a[r] = fragmentA(p, kF16, lane, r);
      for (int r = 0; r < 2; ++r) b[r] = fragmentB(p, kF16, lane, r);
      for (int r = 0; r < 2; ++r) {
        c[r] = elementBits(kF16, s[2 * r]) | (elementBits(kF16, s[2 * r + 1]) << 16);
      }
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
          : "+r"(c[0]), "+r"(c[1])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      for (int i = 0; i < 4; ++i) {
        __half h = __ushort_as_half(static_cast<unsigned short>(c[i / 2] >> (16 * (i % 2))));
        f[i] = __half2float(h);
      }
      storeF32(d, lane, f);
      break;
    }
    case kF32BF16K16: {
      uint32_t a[4], b[2];
      for (int r = 0; r < 4; ++r) a[r] = fragmentA(p, kBF16, lane, r);
      for (int r = 0; r < 2; ++r) b[r] = fragmentB(p, kBF16, lane, r);
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%0,%1,%2,%3};"
          : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      storeF32(d, lane, f);
      break;
    }
    case kF32F16K8:
    case kF32BF16K8: {
      Kind kind = form == kF32F16K8 ? kF16 : kBF16;
      uint32_t a[2] = {fragmentA(p, kind, lane, 0), fragmentA(p, kind, lane, 1)};
      uint32_t b = fragmentB(p, kind, lane, 0);
      if (kind == kF16) {
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
            : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
            : "r"(a[0]), "r"(a[1]), "r"(b));
      } else {
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
            : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
            : "r"(a[0]), "r"(a[1]), "r"(b));
      }
      storeF32(d, lane, f);
      break;
    }
    case kF32TF32K8: {
      uint32_t a[4], b[2];
      for (int r = 0; r < 4; ++r) a[r] = fragmentA(p, kTF32, lane, r);
      for (int r = 0; r < 2; ++r) b[r] = fragmentB(p, kTF32, lane, r);
      asm volatile(
          "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%0,%1,%2,%3};"
          : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      storeF32(d, lane, f);
      break;
    }
    case kF32TF32K4: {
      uint32_t a[2] = {fragmentA(p, kTF32, lane, 0), fragmentA(p, kTF32, lane, 1)};
      uint32_t b = fragmentB(p, kTF32, lane, 0);
      asm volatile(
          "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
          : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
          : "r"(a[0]), "r"(a[1]), "r"(b));
      storeF32(d, lane, f);
      break;
    }
    case kS8K32:
    case kU8K32:
    case kS8U8K32Sat: {
      Kind ka = form == kU8K32 ? kU8 : kS8, kb = form == kS8K32 ? kS8 : kU8;
      uint32_t a[4], b[2];
      for (int r = 0; r < 4; ++r) a[r] = fragmentA(p, ka, lane, r);
      for (int r = 0; r < 2; ++r) b[r] = fragmentB(p, kb, lane, r);
      if (form == kS8K32) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      } else if (form == kU8K32) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      } else {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      }
      storeS32(d, lane, s);
      break;
    }
    case kS8K16:
    case kS8K16Sat: {
      uint32_t a[2] = {fragmentA(p, kS8, lane, 0), fragmentA(p, kS8, lane, 1)};
      uint32_t b = fragmentB(p, kS8, lane, 0);
      if (form == kS8K16) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
            : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
            : "r"(a[0]), "r"(a[1]), "r"(b));
      } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
            "{%0,%1,%2,%3};"
            : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3])
            : "r"(a[0]), "r"(a[1]), "r"(b));
      }
      storeS32(d, lane, s);
      break;
    }
    default: break;
  }
}

// m8n8k4.f64: A 8x4 (one element a lane), B 4x8, C/D 8x8 (two a lane).
__global__ void runMmaF64(const Problem* problem, long long* d) {
  const Problem& p = *problem;
  int lane = threadIdx.x, group = lane >> 2, t = lane & 3;
  double a = p.a[group][t], b = p.b[t][group];
  double c0 = p.c[group][2 * t], c1 = p.c[group][2 * t + 1];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(c0), "+d"(c1)
               : "d"(a), "d"(b));
  d[group * 8 + 2 * t] = static_cast<long long>(c0);
  d[group * 8 + 2 * t + 1] = static_cast<long long>(c1);
}

// ldmatrix: four 8x8 matrices of 16-bit values m*64 + row*8 + col in
// shared memory, each row at its own address; every lane's registers
// written out as they come back. mode: 0 .x1, 1 .x2, 2 .x4, 3 .x4.trans.
__global__ void runLdmatrix(int mode, uint32_t* out) {
  __shared__ __align__(16) unsigned short tiles[4][8][8];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) (&tiles[0][0][0])[i] = static_cast<unsigned short>(i);
  __syncwarp();
  // Rows in reverse order within each matrix, to see that every lane's
  // address counts.
  uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(&tiles[(lane / 8) % 4][7 - lane % 8][0]));
  uint32_t r[4] = {0, 0, 0, 0};
  switch (mode) {
    case 0:
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(address));
      break;
    case 1:
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(address));
      break;
    case 2:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(address));
      break;
    default:
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(address));
      break;
  }
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = r[i];
}

// stmatrix .x4 (trans: .x4.trans): each lane stores lane*8 + i*2 and
// lane*8 + i*2 + 1 from its register i; the shared tiles are copied out.
__global__ void runStmatrix(int trans, unsigned short* out) {
  __shared__ __align__(16) unsigned short tiles[4][8][8];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) (&tiles[0][0][0])[i] = 0xffff;
  __syncwarp();
  uint32_t address = static_cast<uint32_t>(__cvta_generic_to_shared(&tiles[lane / 8][7 - lane % 8][0]));
  uint32_t r[4];
  for (int i = 0; i < 4; ++i)
    r[i] = static_cast<uint32_t>(lane * 8 + i * 2) | (static_cast<uint32_t>(lane * 8 + i * 2 + 1) << 16);
  if (trans) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(address),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  } else {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(address), "r"(r[0]),
                 "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  }
  __syncwarp();
  for (int i = lane; i < 256; i += 32) out[i] = (&tiles[0][0][0])[i];
}

struct FormInfo {
  const char* name;
  int k;
  int aLow, aHigh, bLow, bHigh;  // input ranges
  long long cLow, cHigh;
  bool wrap, saturate;  // s32 result behaviour
};

const FormInfo kForms[kFormCount] = {
    {"m16n8k16.f32.f16.f16.f32", 16, -4, 4, -4, 4, -100, 100, false, false},
    {"m16n8k16.f16.f16.f16.f16", 16, -4, 4, -4, 4, -100, 100, false, false},
    {"m16n8k16.f32.bf16.bf16.f32", 16, -4, 4, -4, 4, -100, 100, false, false},
    {"m16n8k8.f32.f16.f16.f32", 8, -8, 8, -8, 8, -1000, 1000, false, false},
    {"m16n8k8.f32.bf16.bf16.f32", 8, -8, 8, -8, 8, -1000, 1000, false, false},
    {"m16n8k8.f32.tf32.tf32.f32", 8, -500, 500, -500, 500, -100000, 100000, false, false},
    {"m16n8k4.f32.tf32.tf32.f32", 4, -500, 500, -500, 500, -100000, 100000, false, false},
    {"m16n8k32.s32.s8.s8.s32", 32, -128, 127, -128, 127, 2147000000LL, 2147483647LL, true, false},
    {"m16n8k32.s32.u8.u8.s32", 32, 0, 255, 0, 255, -5000, 5000, true, false},
    {"m16n8k32.satfinite.s32.s8.u8.s32", 32, -128, 127, 0, 255, 2147000000LL, 2147483647LL, false, true},
    {"m16n8k16.s32.s8.s8.s32", 16, -128, 127, -128, 127, -2147483648LL, -2147000000LL, true, false},
    {"m16n8k16.satfinite.s32.s8.s8.s32", 16, -128, 127, -128, 127, -2147483648LL, -2147000000LL, false, true},
};

// A fixed pseudo-random sequence (the same on every machine).
uint32_t nextRandom(uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

int inRange(uint32_t& state, long long low, long long high) {
  return static_cast<int>(low +
                          static_cast<long long>(nextRandom(state) % static_cast<uint32_t>(high - low + 1)));
}

void fill(Problem& p, const FormInfo& f, int m, int n, uint32_t seed) {
  std::memset(&p, 0, sizeof p);
  uint32_t state = seed;
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < f.k; ++k) p.a[i][k] = inRange(state, f.aLow, f.aHigh);
  for (int k = 0; k < f.k; ++k)
    for (int j = 0; j < n; ++j) p.b[k][j] = inRange(state, f.bLow, f.bHigh);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) p.c[i][j] = inRange(state, f.cLow, f.cHigh);
}

long long reference(const Problem& p, const FormInfo& f, int i, int j) {
  long long sum = p.c[i][j];
  for (int k = 0; k < f.k; ++k) sum += static_cast<long long>(p.a[i][k]) * p.b[k][j];
  if (f.saturate) return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
  if (f.wrap) return static_cast<int32_t>(static_cast<uint32_t>(static_cast<unsigned long long>(sum)));
  return sum;
}

// Prints the form's summary; returns whether D matched the reference.
bool report(const char* name, const Problem& p, const FormInfo& f, const long long* d, int m, int n) {
  int mismatches = 0, firstRow = -1, firstCol = -1, clamped = 0, wrapped = 0;
  long long checksum = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      long long want = reference(p, f, i, j);
      checksum += d[i * 8 + j];
      if (want == INT32_MAX || want == INT32_MIN) ++clamped;
      long long exact = p.c[i][j];
      for (int k = 0; k < f.k; ++k) exact += static_cast<long long>(p.a[i][k]) * p.b[k][j];
      if (exact != want && f.wrap) ++wrapped;
      if (d[i * 8 + j] != want && mismatches++ == 0) {
        firstRow = i;
        firstCol = j;
      }
    }
  }
  std::printf("%-34s d[0][0]=%lld d[%d][%d]=%lld checksum=%lld", name, d[0], m - 1, n - 1,
              d[(m - 1) * 8 + n - 1], checksum);
  if (f.saturate) std::printf(" saturated=%d", clamped);
  if (f.wrap) std::printf(" wrapped=%d", wrapped);
  if (mismatches == 0) {
    std::printf(" ok\n");
  } else {
    std::printf(" MISMATCH %d, first d[%d][%d]=%lld want %lld\n", mismatches, firstRow, firstCol,
                d[firstRow * 8 + firstCol], reference(p, f, firstRow, firstCol));
  }
  return mismatches == 0;
}

int main() {
  Problem* problem;
  long long* d;
  CHECK(cudaMallocManaged(&problem, sizeof(Problem)));
  CHECK(cudaMallocManaged(&d, 16 * 8 * sizeof(long long)));
  bool allOk = true;
  for (int form = 0; form < kFormCount; ++form) {
    fill(*problem, kForms[form], 16, 8, 12345u + form);
    runMma<<<1, 32>>>(static_cast<Form>(form), problem, d);
    CHECK(cudaDeviceSynchronize());
    allOk &= report(kForms[form].name, *problem, kForms[form], d, 16, 8);
  }
  const FormInfo f64{"m8n8k4.f64.f64.f64.f64",
                     4,
                     -1000000,
                     1000000,
                     -1000000,
                     1000000,
                     -1000000000,
                     1000000000,
                     false,
                     false};
  fill(*problem, f64, 8, 8, 777u);
  runMmaF64<<<1, 32>>>(problem, d);
  CHECK(cudaDeviceSynchronize());
  allOk &= report(f64.name, *problem, f64, d, 8, 8);

  // ldmatrix: lane l's register i holds, low half first, elements
  // (row l/4, columns 2(l%4), 2(l%4)+1) of matrix i, or with .trans
  // (rows 2(l%4), 2(l%4)+1, column l/4); rows come from the lanes'
  // addresses (reversed) and, with fewer matrices, lanes give none.
  uint32_t* words;
  CHECK(cudaMallocManaged(&words, 32 * 4 * sizeof(uint32_t)));
  const char* ldNames[4] = {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans"};
  for (int mode = 0; mode < 4; ++mode) {
    runLdmatrix<<<1, 32>>>(mode, words);
    CHECK(cudaDeviceSynchronize());
    int count = mode == 0 ? 1 : mode == 1 ? 2 : 4, bad = 0;
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < count; ++i) {
        uint32_t want = 0;
        for (int half = 0; half < 2; ++half) {
          int a = lane / 4, b = 2 * (lane % 4) + half;
          int row = mode == 3 ? b : a, col = mode == 3 ? a : b;
          want |= static_cast<uint32_t>(i * 64 + (7 - row) * 8 + col) << (16 * half);
        }
        if (words[lane * 4 + i] != want) ++bad;
      }
    }
    std::printf("%-18s lane0=%08x lane31=%08x %s\n", ldNames[mode], words[0], words[31 * 4 + count - 1],
                bad == 0 ? "ok" : "MISMATCH");
    allOk &= bad == 0;
  }

  unsigned short* tiles;
  CHECK(cudaMallocManaged(&tiles, 256 * sizeof(unsigned short)));
  for (int trans = 0; trans < 2; ++trans) {
    runStmatrix<<<1, 32>>>(trans, tiles);
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 4; ++i) {
        for (int half = 0; half < 2; ++half) {
          int a = lane / 4, b = 2 * (lane % 4) + half;
          int row = trans ? b : a, col = trans ? a : b;
          int value = lane * 8 + i * 2 + half;
          if (tiles[i * 64 + (7 - row) * 8 + col] != value) ++bad;
        }
      }
    }
    std::printf("%-18s tile[0]=%u tile[255]=%u %s\n", trans ? "stmatrix.x4.trans" : "stmatrix.x4", tiles[0],
                tiles[255], bad == 0 ? "ok" : "MISMATCH");
    allOk &= bad == 0;
  }
  std::printf(allOk ? "all forms ok\n" : "SOME FORMS FAILED\n");
  return allOk ? 0 : 1;
}
