// vote.sync (all, any, uni, ballot; negated predicates; split member
// masks), activemask in converged, divergent and predicated code,
// match.sync (any/all, b32/b64, the predicate of .all), redux.sync (add,
// min, max on u32/s32, and/or/xor) and elect.sync. Every lane's 32-bit
// result is recorded: a case is 16 words, lanes 2k and 2k+1 in word k.
#include <cstdint>

__device__ unsigned int case_count = 16 * 18;

__device__ void emit(unsigned long long* out, unsigned n, unsigned value) {
  __shared__ unsigned words[32];
  __syncwarp();
  words[threadIdx.x] = value;
  __syncwarp();
  if (threadIdx.x < 16) out[n + threadIdx.x] = words[2 * threadIdx.x] | (uint64_t(words[2 * threadIdx.x + 1]) << 32);
  __syncwarp();
}

extern "C" __global__ void cases(unsigned long long* out) {
  unsigned lane = threadIdx.x;
  unsigned n = 0;
  unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  unsigned r;
  // vote: all/any/uni as bits 0-2, per predicate and mask.
  {
    unsigned v = 0, t;
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(0xffffffffu));
    v |= t;
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.any.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(0xffffffffu));
    v |= t << 1;
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.uni.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(0xffffffffu));
    v |= t << 2;
    // The same over each half's own mask: uniform within a half.
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(half));
    v |= t << 3;
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.any.pred q, !p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(half));
    v |= t << 4;
    asm volatile("{.reg .pred p, q; setp.lt.u32 p, %1, 16; vote.sync.uni.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(half));
    v |= t << 5;
    asm volatile("{.reg .pred p, q; setp.eq.u32 p, %1, 5; vote.sync.uni.pred q, p, %2; selp.u32 %0, 1, 0, q;}"
                 : "=r"(t) : "r"(lane), "r"(half));
    v |= t << 6;
    emit(out, n, v);
    n += 16;
  }  // n = 16
  asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2;}"
               : "=r"(r) : "r"(lane % 3), "r"(0xffffffffu));
  emit(out, n, r);
  n += 16;
  asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, !p, %2;}"
               : "=r"(r) : "r"(lane % 3), "r"(half));
  emit(out, n, r);
  n += 16;  // n = 48
  // activemask: converged, in a branch, and under a guard predicate.
  asm volatile("activemask.b32 %0;" : "=r"(r));
  emit(out, n, r);
  n += 16;
  r = 0;
  if (lane % 4 == 1) asm volatile("activemask.b32 %0;" : "=r"(r));
  emit(out, n, r);
  n += 16;
  r = 0;
  asm volatile("{.reg .pred p; setp.lt.u32 p, %1, 8; @p activemask.b32 %0;}" : "+r"(r) : "r"(lane));
  emit(out, n, r);
  n += 16;  // n = 96
  // Ballot inside a branch with the branch's lanes as member mask.
  r = 0;
  if (lane >= 20) {
    asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2;}"
                 : "=r"(r) : "r"(lane & 1), "r"(0xfff00000u));
  }
  emit(out, n, r);
  n += 16;  // n = 112
  // match.any b32 and b64; match.all with its predicate.
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(lane % 3), "r"(0xffffffffu));
  emit(out, n, r);
  n += 16;
  {
    unsigned long long value = (uint64_t(lane & 1) << 40) | (lane & 2);
    asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(r) : "l"(value), "r"(0xffffffffu));
    emit(out, n, r);
    n += 16;
    unsigned p;
    asm volatile("{.reg .pred q; match.all.sync.b32 %0|q, %2, %3; selp.u32 %1, 1, 0, q;}"
                 : "=r"(r), "=r"(p) : "r"(lane < 16 ? 7u : 9u), "r"(half));
    emit(out, n, r ^ p);
    n += 16;
    asm volatile("{.reg .pred q; match.all.sync.b64 %0|q, %2, %3; selp.u32 %1, 1, 0, q;}"
                 : "=r"(r), "=r"(p) : "l"(uint64_t(lane < 30 ? 1 : 3) << 33), "r"(0xffffffffu));
    emit(out, n, r ^ (p << 1));
    n += 16;
  }  // n = 176
  // redux.sync.
  {
    int sv = int(lane) - 20;
    asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(r) : "r"(sv), "r"(0xffffffffu));
    emit(out, n, r);
    n += 16;
    unsigned a, b;
    asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(a) : "r"(sv), "r"(half));
    asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(b) : "r"(sv), "r"(half));
    emit(out, n, a ^ (b << 8));
    n += 16;
    asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(a) : "r"(sv), "r"(half));
    asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(b) : "r"(sv), "r"(half));
    emit(out, n, a ^ (b << 4));
    n += 16;
    unsigned x = 0x80000001u << (lane % 5) | lane << 8;
    asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(a) : "r"(x | 0x10000u), "r"(0xffffffffu));
    asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(b) : "r"(x), "r"(half));
    emit(out, n, a ^ b);
    n += 16;
    asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(a) : "r"(x), "r"(0xffffffffu));
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(b) : "r"(0xfffffff0u + lane), "r"(half));
    emit(out, n, a ^ (b << 3));
    n += 16;
  }  // n = 256
  // elect.sync: full mask, per-half masks, and in a branch of lanes 9-31.
  {
    unsigned d, p;
    asm volatile("{.reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q;}" : "=r"(d), "=r"(p) : "r"(0xffffffffu));
    unsigned v = d | (p << 8);
    asm volatile("{.reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q;}" : "=r"(d), "=r"(p) : "r"(half));
    v |= (d << 16) | (p << 24);
    emit(out, n, v);
    n += 16;
    v = 0;
    if (lane >= 9) {
      asm volatile("{.reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q;}" : "=r"(d), "=r"(p) : "r"(0xfffffe00u));
      v = d | (p << 8) | 0x10000;
    }
    emit(out, n, v);
    n += 16;
  }  // n = 288
}

#include "harness.h"
