// shfl.sync in every mode with the c operand's clamp value (c[4:0]) and
// segment mask (c[12:8]) at their edges, b beyond 31 (only b[4:0] counts),
// the predicate output, lanes with different member masks, and sources
// that have exited. Each lane's a is 64 + its lane number, so its result
// names the lane it read; a case packs every lane's result byte
// ((d - 64) | p << 7) into four words.
#include <cstdint>

__device__ unsigned int case_count = 4 * 42;

struct Shfl {
  char mode;  // u d b i
  unsigned b;
  unsigned c;
};

__device__ __forceinline__ unsigned shfl(char mode, unsigned a, unsigned b, unsigned c, unsigned mask, bool& p) {
  unsigned d;
  unsigned pv;
  switch (mode) {
    case 'u':
      asm volatile("{.reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q;}"
                   : "=r"(d), "=r"(pv) : "r"(a), "r"(b), "r"(c), "r"(mask));
      break;
    case 'd':
      asm volatile("{.reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q;}"
                   : "=r"(d), "=r"(pv) : "r"(a), "r"(b), "r"(c), "r"(mask));
      break;
    case 'b':
      asm volatile("{.reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q;}"
                   : "=r"(d), "=r"(pv) : "r"(a), "r"(b), "r"(c), "r"(mask));
      break;
    default:
      asm volatile("{.reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q;}"
                   : "=r"(d), "=r"(pv) : "r"(a), "r"(b), "r"(c), "r"(mask));
      break;
  }
  p = pv != 0;
  return d;
}

// Writes the 32 result bytes of one case as 4 words (lane 0 in the low
// byte of the first); lanes outside `lanes` (and exited ones) give 0xff.
// Called by the whole warp, or by the lanes that have not exited.
__device__ void emit(unsigned long long* out, unsigned n, unsigned d, bool p, unsigned lanes) {
  __shared__ unsigned char bytes[32];
  unsigned lane = threadIdx.x;
  bytes[lane] = static_cast<unsigned char>(((d - 64) & 0x7f) | (p ? 0x80 : 0));
  __syncwarp(__activemask());
  if (lane < 4) {
    unsigned long long word = 0;
    for (int k = 7; k >= 0; --k) word = (word << 8) | (((lanes >> (lane * 8 + k)) & 1) ? bytes[lane * 8 + k] : 0xff);
    out[n + lane] = word;
  }
  __syncwarp(__activemask());
}

extern "C" __global__ void cases(unsigned long long* out) {
  const Shfl table[] = {
      {'i', 5, 0x1f},    {'i', 37, 0x1f},   {'i', 5, 0x181f},  {'i', 3, 0x1c1f},  {'i', 7, 0x10},
      {'i', 20, 0x10},   {'i', 5, 0x0},     {'i', 13, 0x1f1f}, {'i', 9, 0x1807},  {'i', 31, 0x0f},
      {'u', 1, 0x0},     {'u', 3, 0x1800},  {'u', 33, 0x0},    {'u', 0, 0x0},     {'u', 1, 0x1f},
      {'u', 4, 0x1f00},  {'u', 2, 0x1c03},  {'u', 17, 0x5},
      {'d', 1, 0x1f},    {'d', 2, 0x181f},  {'d', 1, 0x0f},    {'d', 31, 0x1f},   {'d', 1, 0x1807},
      {'d', 0, 0x0},     {'d', 4, 0x1f1f},
      {'b', 1, 0x1f},    {'b', 16, 0x1f},   {'b', 16, 0x0f},   {'b', 3, 0x1c1f},  {'b', 8, 0x181f},
      {'b', 8, 0x1807},  {'b', 31, 0x1f},   {'b', 0, 0x0},
  };
  const unsigned count = sizeof(table) / sizeof(table[0]);  // 33
  unsigned lane = threadIdx.x;
  unsigned a = 64 + lane;
  unsigned n = 0;
  for (unsigned i = 0; i < count; ++i) {
    bool p;
    unsigned d = shfl(table[i].mode, a, table[i].b, table[i].c, 0xffffffffu, p);
    emit(out, n, d, p, 0xffffffffu);
    n += 4;
  }  // n = 132
  // Per-lane b: idx with b = 31 - lane, and down with b = lane.
  {
    bool p;
    unsigned d = shfl('i', a, 31 - lane, 0x1f, 0xffffffffu, p);
    emit(out, n, d, p, 0xffffffffu);
    n += 4;
    d = shfl('d', a, lane, 0x1f, 0xffffffffu, p);
    emit(out, n, d, p, 0xffffffffu);
    n += 4;
  }  // n = 140
  // Two groups with their own member masks: lanes 0-15 and 16-31, each
  // reading lane 3 of its own half (b = 3, segment mask 0x10).
  {
    bool p;
    unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    unsigned d = shfl('i', a, 3, 0x101f, mask, p);
    emit(out, n, d, p, 0xffffffffu);
    n += 4;
  }  // n = 144
  // Half of the warp in a branch, with its member mask, reading within it.
  {
    bool p = false;
    unsigned d = 0;
    if (lane >= 16) d = shfl('d', a, 2, 0x1f, 0xffff0000u, p);
    __syncwarp();
    emit(out, n, d, p, 0xffff0000u);
    n += 4;  // n = 148
    if (lane < 16) d = shfl('b', a, 5, 0x1f, 0x0000ffffu, p);
    __syncwarp();
    emit(out, n, d, p, 0x0000ffffu);
    n += 4;  // n = 152
  }
  // Sources outside the reading lane's member mask: executing the same
  // shfl under another mask, and diverged into the other branch.
  {
    bool p = false;
    unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    unsigned d = shfl('i', a, lane < 16 ? 20 : 3, 0x1f, mask, p);
    emit(out, n, d, p, 0xffffffffu);
    n += 4;  // n = 156
    if (lane < 16) d = shfl('i', a, 20, 0x1f, 0x0000ffffu, p);
    __syncwarp();
    emit(out, n, d, p, 0x0000ffffu);
    n += 4;  // n = 160
  }
  // Lanes 16-31 exit; the rest read exited lanes (in range, so p is true).
  if (lane >= 16) return;
  {
    bool p;
    unsigned d = shfl('i', a, 20, 0x1f, 0x0000ffffu, p);
    emit(out, n, d, p, 0x0000ffffu);
    n += 4;
    d = shfl('d', a, 8, 0x1f, 0x0000ffffu, p);
    emit(out, n, d, p, 0x0000ffffu);
    n += 4;
  }  // n = 168
}

#include "harness.h"
