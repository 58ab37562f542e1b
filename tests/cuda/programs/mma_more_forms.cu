// mma.sync forms the H100 recordings do not cover yet (issue 46): m8n8k4
// with f16 inputs in all four layouts and f16/f32 accumulators, fp8
// (e4m3/e5m2) m16n8k32 with f16 accumulators and m16n8k16 with f16 and f32
// ones, s4/u4 (m8n8k32, m16n8k32, m16n8k64, wrapping and .satfinite), b1
// (m8n8k128, m16n8k128, m16n8k256, .and.popc and .xor.popc) and m8n8k16
// s8/u8. Every lane's registers are raw words drawn on the host from a
// fixed generator (elements of the form's types; three families for the
// floating-point forms: a few binades, many binades with subnormals, and
// zeros, infinities and NaNs mixed in), so the output holds the layouts and
// the numerics together. Each case prints a hash of its D registers (all
// lanes) and D's first eight words.
// nvcc flags: -diag-suppress 550
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../../cuda/programs/bits_hash.h"
#include "../../cuda/programs/check.h"

constexpr int kLanes = 32, kInRegs = 14, kOutRegs = 8;

// Register operand lists, by how many registers D, A, B and C take and
// whether D/C are f32 ("f") or 32-bit words ("r").
#define SIG_D8F_A2_B2_C8F(I)                                                                                   \
  asm volatile(I " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};"       \
               : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]), "=f"(df[4]), "=f"(df[5]), "=f"(df[6]), \
                 "=f"(df[7])                                                                                   \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]),  \
                 "f"(cf[4]), "f"(cf[5]), "f"(cf[6]), "f"(cf[7]))
#define SIG_D8F_A2_B2_C4(I)                                                                                    \
  asm volatile(I " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15};"                       \
               : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]), "=f"(df[4]), "=f"(df[5]), "=f"(df[6]), \
                 "=f"(df[7])                                                                                   \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define SIG_D4_A2_B2_C4(I)                                                                            \
  asm volatile(I " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};"                                \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                       \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define SIG_D2_A4_B2_C2(I)                                                            \
  asm volatile(I " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"                        \
               : "=r"(d[0]), "=r"(d[1])                                               \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]))
#define SIG_D2_A2_B1_C2(I) \
  asm volatile(I " {%0,%1}, {%2,%3}, {%4}, {%5,%6};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
#define SIG_D4F_A2_B1_C4F(I)                                                      \
  asm volatile(I " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                \
               : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3])               \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]))
#define SIG_D2_A1_B1_C2(I) \
  asm volatile(I " {%0,%1}, {%2}, {%3}, {%4,%5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
#define SIG_D4_A2_B1_C4(I)                                                                     \
  asm volatile(I " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"                             \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define SIG_D4_A4_B2_C4(I)                                                                                 \
  asm volatile(I " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                             \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                            \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), \
                 "r"(c[2]), "r"(c[3]))

// A kernel per form: registers A 0-3, B 4-5 and C 6-13 of the input (one
// word a lane each), D to output registers 0-7.
#define FORM(NAME, SIG, INSTR)                                                        \
  __global__ void NAME(const uint32_t* in, uint32_t* out) {                           \
    int lane = threadIdx.x;                                                           \
    uint32_t a[4], b[2], c[8], d[8] = {};                                             \
    float cf[8], df[8] = {};                                                          \
    for (int r = 0; r < 4; ++r) a[r] = in[r * kLanes + lane];                         \
    for (int r = 0; r < 2; ++r) b[r] = in[(4 + r) * kLanes + lane];                   \
    for (int r = 0; r < 8; ++r) c[r] = in[(6 + r) * kLanes + lane];                   \
    for (int r = 0; r < 8; ++r) cf[r] = __uint_as_float(c[r]);                        \
    SIG(INSTR);                                                                       \
    for (int r = 0; r < 8; ++r) out[r * kLanes + lane] = d[r] | __float_as_uint(df[r]); \
  }

// m8n8k4: D.A.B.C types after the layouts.
FORM(m884_rr_f32f32, SIG_D8F_A2_B2_C8F, "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32")
FORM(m884_rc_f32f32, SIG_D8F_A2_B2_C8F, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32")
FORM(m884_cr_f32f32, SIG_D8F_A2_B2_C8F, "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32")
FORM(m884_cc_f32f32, SIG_D8F_A2_B2_C8F, "mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32")
FORM(m884_rr_f16f16, SIG_D4_A2_B2_C4, "mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16")
FORM(m884_rc_f16f16, SIG_D4_A2_B2_C4, "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16")
FORM(m884_cr_f16f16, SIG_D4_A2_B2_C4, "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16")
FORM(m884_cc_f16f16, SIG_D4_A2_B2_C4, "mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16")
FORM(m884_rc_f32f16, SIG_D8F_A2_B2_C4, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16")
FORM(m884_cr_f32f16, SIG_D8F_A2_B2_C4, "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16")
// fp8.
FORM(k32_f16_e4e4, SIG_D2_A4_B2_C2, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16")
FORM(k32_f16_e4e5, SIG_D2_A4_B2_C2, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16")
FORM(k32_f16_e5e4, SIG_D2_A4_B2_C2, "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16")
FORM(k32_f16_e5e5, SIG_D2_A4_B2_C2, "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16")
FORM(k16_f16_e4e4, SIG_D2_A2_B1_C2, "mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16")
FORM(k16_f16_e5e4, SIG_D2_A2_B1_C2, "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16")
FORM(k16_f32_e4e4, SIG_D4F_A2_B1_C4F, "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32")
FORM(k16_f32_e4e5, SIG_D4F_A2_B1_C4F, "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32")
FORM(k16_f32_e5e5, SIG_D4F_A2_B1_C4F, "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32")
// s4/u4, s8/u8 m8n8k16 and b1.
FORM(m8k32_s4s4, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32")
FORM(m8k32_u4s4_sat, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32")
FORM(m16k32_s4u4, SIG_D4_A2_B1_C4, "mma.sync.aligned.m16n8k32.row.col.s32.s4.u4.s32")
FORM(m16k32_u4u4_sat, SIG_D4_A2_B1_C4, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.u4.s32")
FORM(m16k64_s4s4, SIG_D4_A4_B2_C4, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")
FORM(m16k64_s4s4_sat, SIG_D4_A4_B2_C4, "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32")
FORM(m8k16_s8u8, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32")
FORM(m8k16_s8s8_sat, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32")
FORM(m8k128_and, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc")
FORM(m8k128_xor, SIG_D2_A1_B1_C2, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc")
FORM(m16k128_and, SIG_D4_A2_B1_C4, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc")
FORM(m16k128_xor, SIG_D4_A2_B1_C4, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc")
FORM(m16k256_and, SIG_D4_A4_B2_C4, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc")
FORM(m16k256_xor, SIG_D4_A4_B2_C4, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc")

enum Elem { kF16, kF32, kE4M3, kE5M2, kInt, kNone };

struct Case {
  const char* name;
  void (*kernel)(const uint32_t*, uint32_t*);
  Elem a, b, c;       // element formats of A, B and C (kInt: raw words)
  int aRegs, bRegs, cRegs, dRegs;
};

const Case kCases[] = {
    {"m8n8k4 row.row f32.f32", m884_rr_f32f32, kF16, kF16, kF32, 2, 2, 8, 8},
    {"m8n8k4 row.col f32.f32", m884_rc_f32f32, kF16, kF16, kF32, 2, 2, 8, 8},
    {"m8n8k4 col.row f32.f32", m884_cr_f32f32, kF16, kF16, kF32, 2, 2, 8, 8},
    {"m8n8k4 col.col f32.f32", m884_cc_f32f32, kF16, kF16, kF32, 2, 2, 8, 8},
    {"m8n8k4 row.row f16.f16", m884_rr_f16f16, kF16, kF16, kF16, 2, 2, 4, 4},
    {"m8n8k4 row.col f16.f16", m884_rc_f16f16, kF16, kF16, kF16, 2, 2, 4, 4},
    {"m8n8k4 col.row f16.f16", m884_cr_f16f16, kF16, kF16, kF16, 2, 2, 4, 4},
    {"m8n8k4 col.col f16.f16", m884_cc_f16f16, kF16, kF16, kF16, 2, 2, 4, 4},
    {"m8n8k4 row.col f32.f16", m884_rc_f32f16, kF16, kF16, kF16, 2, 2, 4, 8},
    {"m8n8k4 col.row f32.f16", m884_cr_f32f16, kF16, kF16, kF16, 2, 2, 4, 8},
    {"m16n8k32 f16.e4m3.e4m3", k32_f16_e4e4, kE4M3, kE4M3, kF16, 4, 2, 2, 2},
    {"m16n8k32 f16.e4m3.e5m2", k32_f16_e4e5, kE4M3, kE5M2, kF16, 4, 2, 2, 2},
    {"m16n8k32 f16.e5m2.e4m3", k32_f16_e5e4, kE5M2, kE4M3, kF16, 4, 2, 2, 2},
    {"m16n8k32 f16.e5m2.e5m2", k32_f16_e5e5, kE5M2, kE5M2, kF16, 4, 2, 2, 2},
    {"m16n8k16 f16.e4m3.e4m3", k16_f16_e4e4, kE4M3, kE4M3, kF16, 2, 1, 2, 2},
    {"m16n8k16 f16.e5m2.e4m3", k16_f16_e5e4, kE5M2, kE4M3, kF16, 2, 1, 2, 2},
    {"m16n8k16 f32.e4m3.e4m3", k16_f32_e4e4, kE4M3, kE4M3, kF32, 2, 1, 4, 4},
    {"m16n8k16 f32.e4m3.e5m2", k16_f32_e4e5, kE4M3, kE5M2, kF32, 2, 1, 4, 4},
    {"m16n8k16 f32.e5m2.e5m2", k16_f32_e5e5, kE5M2, kE5M2, kF32, 2, 1, 4, 4},
    {"m8n8k32 s4.s4", m8k32_s4s4, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m8n8k32 satfinite u4.s4", m8k32_u4s4_sat, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m16n8k32 s4.u4", m16k32_s4u4, kInt, kInt, kInt, 2, 1, 4, 4},
    {"m16n8k32 satfinite u4.u4", m16k32_u4u4_sat, kInt, kInt, kInt, 2, 1, 4, 4},
    {"m16n8k64 s4.s4", m16k64_s4s4, kInt, kInt, kInt, 4, 2, 4, 4},
    {"m16n8k64 satfinite s4.s4", m16k64_s4s4_sat, kInt, kInt, kInt, 4, 2, 4, 4},
    {"m8n8k16 s8.u8", m8k16_s8u8, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m8n8k16 satfinite s8.s8", m8k16_s8s8_sat, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m8n8k128 b1 and.popc", m8k128_and, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m8n8k128 b1 xor.popc", m8k128_xor, kInt, kInt, kInt, 1, 1, 2, 2},
    {"m16n8k128 b1 and.popc", m16k128_and, kInt, kInt, kInt, 2, 1, 4, 4},
    {"m16n8k128 b1 xor.popc", m16k128_xor, kInt, kInt, kInt, 2, 1, 4, 4},
    {"m16n8k256 b1 and.popc", m16k256_and, kInt, kInt, kInt, 4, 2, 4, 4},
    {"m16n8k256 b1 xor.popc", m16k256_xor, kInt, kInt, kInt, 4, 2, 4, 4},
};

// A fixed generator (xorshift64), the same on every host.
struct Rng {
  uint64_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<uint32_t>(s >> 16);
  }
  uint32_t below(uint32_t n) { return next() % n; }
};

// Families of floating-point inputs: 0 a few binades around 1, 1 fifteen
// binades with subnormals, 2 as 1 with zeros, infinities and NaNs mixed in.
// Integer inputs: 0 random words, 1 the same with C near the s32 limits.
constexpr int kFamilies = 3;
const char* kFamilyNames[kFamilies] = {"narrow", "wide", "special"};

uint32_t special(Rng& r, Elem e) {
  uint32_t sign = r.below(2);
  switch (r.below(3)) {
    case 0: return e == kF32 ? sign << 31 : e == kF16 ? sign << 15 : sign << 7;  // zero
    case 1:  // infinity (e4m3 has none: its largest finite)
      return e == kF32 ? (sign << 31) | 0x7f800000u : e == kF16 ? (sign << 15) | 0x7c00 : e == kE5M2 ? (sign << 7) | 0x7c : (sign << 7) | 0x7e;
    default: return e == kF32 ? 0x7fc00000u : e == kF16 ? 0x7e00 : e == kE5M2 ? 0x7e : 0x7f;  // NaN
  }
}

uint32_t element(Rng& r, Elem e, int family) {
  if (family == 2 && r.below(64) == 0) return special(r, e);  // most dot products stay finite
  uint32_t sign = r.below(2);
  // exponent bits, mantissa bits, bias, narrow half-width
  int eb = e == kF32 ? 8 : e == kF16 ? 5 : e == kE5M2 ? 5 : 4;
  int mb = e == kF32 ? 23 : e == kF16 ? 10 : e == kE5M2 ? 2 : 3;
  int bias = (1 << (eb - 1)) - 1, top = (1 << eb) - 2;  // largest finite biased exponent
  // Wide: 7 binades either side of 1 (products and sums stay finite
  // mostly), one element in 8 with the subnormals' exponent.
  int span = bias < 7 ? bias : 7;
  int exponent = family == 0 ? bias - 2 + static_cast<int>(r.below(5))
                 : r.below(8) == 0 ? 0
                                   : bias - span + static_cast<int>(r.below(2 * span + 1));
  exponent = exponent > top ? top : exponent;
  uint32_t mantissa = r.next() & ((1u << mb) - 1);
  if (e == kE4M3 && exponent == 15 && mantissa == 7) mantissa = 6;  // e4m3's NaN
  return (sign << (eb + mb)) | (static_cast<uint32_t>(exponent) << mb) | mantissa;
}

uint32_t word(Rng& r, Elem e, int family, bool accumulator) {
  if (e == kInt) {
    if (accumulator && family == 1) return r.below(2) ? 0x7fffff00u + r.below(256) : 0x80000000u + r.below(256);
    return r.next() ^ (r.next() << 16);
  }
  if (e == kF32) return element(r, e, family);
  int bits = e == kF16 ? 16 : 8;
  uint32_t w = 0;
  for (int i = 0; i < 32 / bits; ++i) w |= element(r, e, family) << (i * bits);
  return w;
}

int main() {
  uint32_t *in, *out;
  CHECK(cudaMalloc(&in, kInRegs * kLanes * sizeof(uint32_t)));
  CHECK(cudaMalloc(&out, kOutRegs * kLanes * sizeof(uint32_t)));
  uint32_t host[kInRegs * kLanes], result[kOutRegs * kLanes];
  for (const Case& c : kCases) {
    int families = c.a == kInt ? 2 : kFamilies;
    for (int family = 0; family < families; ++family) {
      Rng r{0x9e3779b97f4a7c15ull ^ (static_cast<uint64_t>(family) << 32) ^ std::strlen(c.name)};
      std::memset(host, 0, sizeof host);
      for (int reg = 0; reg < c.aRegs; ++reg)
        for (int lane = 0; lane < kLanes; ++lane) host[reg * kLanes + lane] = word(r, c.a, family, false);
      for (int reg = 0; reg < c.bRegs; ++reg)
        for (int lane = 0; lane < kLanes; ++lane) host[(4 + reg) * kLanes + lane] = word(r, c.b, family, false);
      for (int reg = 0; reg < c.cRegs; ++reg)
        for (int lane = 0; lane < kLanes; ++lane) host[(6 + reg) * kLanes + lane] = word(r, c.c, family, true);
      CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(out, 0, sizeof result));
      c.kernel<<<1, kLanes>>>(in, out);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
      std::printf("%s %s: %016llx", c.name, c.a == kInt ? (family ? "big-c" : "random") : kFamilyNames[family],
                  bitsHash(result, static_cast<size_t>(c.dRegs) * kLanes));
      for (int i = 0; i < 8; ++i) std::printf(" %08x", result[i]);
      std::printf("\n");
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
