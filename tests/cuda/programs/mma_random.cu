// mma.sync's floating-point forms on random operands: m16n8k16 with f16
// inputs (f32 and f16 accumulators) and bf16 inputs, m16n8k8 with f16 and
// tf32 inputs, m16n8k4 with tf32 inputs. mma_numerics.cu's designed cases
// tell adder models apart; these hold the fitted model to ordinary data
// (families of a few binades, wide spreads, accumulators large and small).
// Each case prints D's 128 words (f16 accumulators: 64 words of pairs).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "check.h"

namespace {

uint64_t state = 0x3c6ef372fe94f82bull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

enum Form { kF16F32K16, kF16F16K16, kBF16K16, kF16K8, kTF32K8, kTF32K4, kForms };
const char* kFormNames[kForms] = {"m16n8k16 f32.f16", "m16n8k16 f16.f16", "m16n8k16 f32.bf16",
                                  "m16n8k8 f32.f16",  "m16n8k8 f32.tf32", "m16n8k4 f32.tf32"};
bool isTf32(int form) { return form == kTF32K8 || form == kTF32K4; }

struct Tile {
  uint32_t a[16][16];  // raw element bits, row-major (16-bit or 32-bit elements)
  uint32_t b[16][8];   // b[k][n]
  uint32_t c[16][8];   // f32 bits, or f16 bits for f16 accumulators
};

// The PTX fragments: A register r holds row g + 8 (r & 1), columns
// (r / 2) 4E + tE .. (E elements a register); B register r column g, rows
// r 4E + tE ..; C element i row g + 8 (i / 2), column 2t + (i & 1).
template <int kForm>
__global__ void tileMma(const Tile* tile, uint32_t* d) {
  constexpr unsigned K = kForm <= kBF16K16 ? 16 : kForm == kTF32K4 ? 4 : 8;
  constexpr bool tf32 = kForm == kTF32K8 || kForm == kTF32K4;
  constexpr unsigned E = tf32 ? 1 : 2;
  constexpr unsigned aRegs = 16 * K / 32 / E, bRegs = K * 8 / 32 / E;
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  uint32_t a[4] = {}, b[2] = {}, c[4], out[4];
  for (unsigned r = 0; r < aRegs; ++r)
    for (unsigned e = 0; e < E; ++e)
      a[r] |= tile->a[g + 8 * (r & 1)][(r >> 1) * 4 * E + t * E + e] << (16 * e);
  for (unsigned r = 0; r < bRegs; ++r)
    for (unsigned e = 0; e < E; ++e) b[r] |= tile->b[r * 4 * E + t * E + e][g] << (16 * e);
  for (int i = 0; i < 4; ++i) c[i] = tile->c[g + 8 * (i >> 1)][2 * t + (i & 1)];
  if constexpr (kForm == kF16F32K16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
  } else if constexpr (kForm == kF16F16K16) {
    uint32_t c2[2] = {c[0] | (c[1] << 16), c[2] | (c[3] << 16)}, o2[2];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(o2[0]), "=r"(o2[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c2[0]), "r"(c2[1]));
    out[0] = o2[0] & 0xffff, out[1] = o2[0] >> 16, out[2] = o2[1] & 0xffff, out[3] = o2[1] >> 16;
  } else if constexpr (kForm == kBF16K16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
  } else if constexpr (kForm == kF16K8) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  } else if constexpr (kForm == kTF32K8) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};"
                 : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),
                   "r"(c[2]), "r"(c[3]));
  } else {
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  }
  for (int i = 0; i < 4; ++i) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = out[i];
}

// An element with a random sign and significand and an exponent in [lo, hi].
uint32_t element(int form, int lo, int hi) {
  int e = lo + static_cast<int>(next() % static_cast<unsigned>(hi - lo + 1));
  uint32_t sign = next() & 1;
  if (isTf32(form)) return (sign << 31) | (uint32_t(e + 127) << 23) | (next() & 0x7fffff);
  if (form == kBF16K16) return (sign << 15) | (uint32_t(e + 127) << 7) | (next() & 0x7f);
  return (sign << 15) | (uint32_t(e + 15) << 10) | (next() & 0x3ff);
}

struct Family {
  const char* name;
  int lo, hi;
  int c;  // the accumulator's binade, or kNoC
};
constexpr int kNoC = 1000;

void fill(Tile& tile, int form, const Family& f) {
  for (auto& row : tile.a)
    for (uint32_t& v : row) v = element(form, f.lo, f.hi);
  for (auto& row : tile.b)
    for (uint32_t& v : row) v = element(form, f.lo, f.hi);
  for (auto& row : tile.c) {
    for (uint32_t& v : row) {
      if (f.c == kNoC) {
        v = 0;
      } else {
        int e = f.c + static_cast<int>(next() % 3) - 1;
        v = form == kF16F16K16 ? ((next() & 1) << 15) | (uint32_t(e + 15) << 10) | (next() & 0x3ff)
                               : ((next() & 1) << 31) | (uint32_t(e + 127) << 23) | (next() & 0x7fffff);
      }
    }
  }
}

}  // namespace

int main() {
  const Family families[] = {{"one binade", 0, 0, kNoC},      {"a few binades", -2, 2, kNoC},
                             {"wide", -7, 7, kNoC},           {"accumulator", -2, 2, 2},
                             {"large accumulator", -2, 2, 12}, {"small accumulator", -2, 2, -10}};
  Tile* tile = nullptr;
  uint32_t* d = nullptr;
  CHECK(cudaMallocManaged(&tile, sizeof(Tile)));
  CHECK(cudaMallocManaged(&d, 128 * sizeof(uint32_t)));
  for (int form = 0; form < kForms; ++form) {
    for (const Family& f : families) {
      for (int repeat = 0; repeat < 2; ++repeat) {
        fill(*tile, form, f);
        switch (form) {
          case kF16F32K16: tileMma<kF16F32K16><<<1, 32>>>(tile, d); break;
          case kF16F16K16: tileMma<kF16F16K16><<<1, 32>>>(tile, d); break;
          case kBF16K16: tileMma<kBF16K16><<<1, 32>>>(tile, d); break;
          case kF16K8: tileMma<kF16K8><<<1, 32>>>(tile, d); break;
          case kTF32K8: tileMma<kTF32K8><<<1, 32>>>(tile, d); break;
          default: tileMma<kTF32K4><<<1, 32>>>(tile, d); break;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::printf("%s %s %d:", kFormNames[form], f.name, repeat);
        bool half = form == kF16F16K16;
        for (int i = 0; i < 128; ++i) std::printf(half ? " %04x" : " %08x", d[i]);
        std::printf("\n");
      }
    }
  }
  return 0;
}
