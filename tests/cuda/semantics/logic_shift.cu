// Logic and shifts: lop3 (with the predicate-output form), shf.l/.r with
// .wrap/.clamp, shl/shr of 16/32/64-bit types with amounts at and past the
// width, prmt in every mode, cnot. Inputs come from device arrays.
#include <cstdint>

__device__ unsigned int case_count = 280;

__device__ uint32_t words[4] = {0x80000001u, 0x12345678u, 0xfedcba98u, 0u};
__device__ uint32_t shifts[7] = {0u, 1u, 15u, 16u, 31u, 32u, 65u};
__device__ uint32_t selectors[8] = {0x3210u, 0x7654u, 0x0123u, 0x8a4fu, 0xc9b1u, 0x1u, 0x2u, 0xfffff00bu};

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  const volatile uint32_t* w = words;
  const volatile uint32_t* sh = shifts;
  const volatile uint32_t* sel = selectors;
  unsigned n = 0;
  // lop3: 4 x 4 = 16 cases; predicate forms: 4 x 3 = 12 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    uint32_t a = w[i], b = w[(i + 1) % 4], c = w[(i + 2) % 4], d, p;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0x1b;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0xca;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %2, 0;\n\t"
                 "lop3.or.b32 %0|r, %2, %3, %4, 0x80, q;\n\tselp.u32 %1, 1, 0, r; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    out[n++] = (static_cast<uint64_t>(p) << 32) | d;
    asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %2, 0;\n\t"
                 "lop3.and.b32 %0|r, %2, %3, %4, 0xfe, q;\n\tselp.u32 %1, 1, 0, r; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    out[n++] = (static_cast<uint64_t>(p) << 32) | d;
    asm volatile("{ .reg .pred q, r; setp.eq.u32 q, %2, 0;\n\t"
                 "lop3.and.b32 %0|r, %2, %3, %4, 0x3c, !q;\n\tselp.u32 %1, 1, 0, r; }"
                 : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c));
    out[n++] = (static_cast<uint64_t>(p) << 32) | d;
  }
  // Shifts: 7 amounts x 2 words x 12 = 168 cases.
#pragma unroll 1
  for (int k = 0; k < 7; ++k) {
#pragma unroll 1
    for (int i = 1; i < 3; ++i) {
      uint32_t a = w[i], b = w[i - 1], s = sh[k], d;
      uint16_t h;
      uint64_t q, x = (static_cast<uint64_t>(a) << 32) | b;
      asm volatile("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
      out[n++] = d;
      asm volatile("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
      out[n++] = d;
      asm volatile("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
      out[n++] = d;
      asm volatile("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
      out[n++] = d;
      asm volatile("shl.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s));
      out[n++] = d;
      asm volatile("shr.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s));
      out[n++] = d;
      asm volatile("shr.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s));
      out[n++] = d;
      asm volatile("shl.b16 %0, %1, %2;" : "=h"(h) : "h"(static_cast<uint16_t>(a)), "r"(s));
      out[n++] = h;
      asm volatile("shr.s16 %0, %1, %2;" : "=h"(h) : "h"(static_cast<uint16_t>(a >> 16)), "r"(s));
      out[n++] = h;
      asm volatile("shl.b64 %0, %1, %2;" : "=l"(q) : "l"(x), "r"(s));
      out[n++] = q;
      asm volatile("shr.s64 %0, %1, %2;" : "=l"(q) : "l"(x), "r"(s));
      out[n++] = q;
      asm volatile("shr.u64 %0, %1, %2;" : "=l"(q) : "l"(x), "r"(s));
      out[n++] = q;
    }
  }
  // prmt: 8 selectors x 7 modes = 56 cases.
#pragma unroll 1
  for (int k = 0; k < 8; ++k) {
    uint32_t a = w[1], b = w[2], c = sel[k], d;
    asm volatile("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(b), "r"(a), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
    asm volatile("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    out[n++] = d;
  }
  // cnot: 4 x 2 = 8 cases.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    uint32_t a = w[i], d;
    uint16_t h;
    asm volatile("cnot.b32 %0, %1;" : "=r"(d) : "r"(a));
    out[n++] = d;
    asm volatile("cnot.b16 %0, %1;" : "=h"(h) : "h"(static_cast<uint16_t>(a)));
    out[n++] = h;
  }
  // 16+12+168+56+8 = 260; 20 more: xor/and/or of predicates and b64.
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    uint32_t a = w[i], b = w[(i + 1) % 4], d;
    uint64_t q, x = (static_cast<uint64_t>(a) << 32) | b;
    asm volatile("{ .reg .pred p, q, r; setp.ne.u32 p, %1, 0; setp.ne.u32 q, %2, 0;\n\t"
                 "xor.pred r, p, !q;\n\tselp.u32 %0, 1, 0, r; }" : "=r"(d) : "r"(a), "r"(b));
    out[n++] = d;
    asm volatile("{ .reg .pred p, q, r; setp.ne.u32 p, %1, 0; setp.ne.u32 q, %2, 0;\n\t"
                 "or.pred r, !p, q;\n\tselp.u32 %0, 1, 0, r; }" : "=r"(d) : "r"(a), "r"(b));
    out[n++] = d;
    asm volatile("{ .reg .pred p, r; setp.ne.u32 p, %1, 0;\n\tnot.pred r, p;\n\tselp.u32 %0, 1, 0, r; }"
                 : "=r"(d) : "r"(a));
    out[n++] = d;
    asm volatile("and.b64 %0, %1, %2;" : "=l"(q) : "l"(x), "l"(~x >> 3));
    out[n++] = q;
    asm volatile("not.b64 %0, %1;" : "=l"(q) : "l"(x));
    out[n++] = q;
  }
}

#include "harness.h"
