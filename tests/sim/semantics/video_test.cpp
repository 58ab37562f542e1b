// The video instructions (scalar vadd..vset, vmad, SIMD vadd2..vset4)
// against a host reference written from the PTX ISA's pseudocode: every
// selector, signedness, .sat, secondary operation and merge form, on
// random operands mixed with edge values per byte (0, 0x7f, 0x80, 0xff,
// small shift amounts) and per word (0, 0x7fffffff, 0x80000000,
// 0xffffffff).
//
// The reference works on selector spellings ("b2", "h10", "b7654") and
// __int128, apart from the handlers' code.

#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "semantics_run.h"

namespace ptxsim {
namespace {

__extension__ typedef __int128 I128;

using Ref = std::function<uint32_t(uint32_t, uint32_t, uint32_t)>;
struct Case {
  std::string text;  // one instruction writing %d from %a, %b, %c
  Ref ref;
};

// Three operand sets of 32 threads: word edge values, then two random sets
// whose bytes are often edge values.
std::vector<std::array<std::vector<uint32_t>, 3>> inputSets() {
  const uint32_t words[] = {0,          1,          0x7f,       0x80,       0xff,       0x7fff,     0x8000,
                            0xffff,     0x7fffffff, 0x80000000, 0xffffffff, 0x807f80ff, 0x20,       0x21,
                            0x1f,       0xfffffffe, 0x00ff7f80, 0x80008000, 0x7fff7fff, 0x12345678};
  constexpr unsigned n = sizeof(words) / sizeof(words[0]);
  std::vector<std::array<std::vector<uint32_t>, 3>> sets;
  std::array<std::vector<uint32_t>, 3> edge;
  for (unsigned t = 0; t < 32; ++t) {
    edge[0].push_back(words[t % n]);
    edge[1].push_back(words[(t * 7 + 3) % n]);
    edge[2].push_back(words[(t * 11 + 5) % n]);
  }
  sets.push_back(edge);
  std::mt19937 rng(1234);
  const uint32_t bytes[] = {0, 0x7f, 0x80, 0xff, 1, 0x1f, 0x20, 0x21};
  for (int s = 0; s < 2; ++s) {
    std::array<std::vector<uint32_t>, 3> set;
    for (auto& v : set) {
      for (unsigned t = 0; t < 32; ++t) {
        uint32_t x = 0;
        for (int k = 0; k < 4; ++k) {
          uint32_t byte = rng() % 3 == 0 ? bytes[rng() % 8] : rng() & 0xff;
          x |= byte << (8 * k);
        }
        v.push_back(x);
      }
    }
    sets.push_back(set);
  }
  return sets;
}

// Runs the cases, up to 250 per kernel, and checks every lane.
void runCases(const std::vector<Case>& cases) {
  static const auto sets = inputSets();
  for (size_t first = 0; first < cases.size(); first += 250) {
    size_t count = std::min<size_t>(250, cases.size() - first);
    std::string body =
        "add.u64 %pin, %in, %tx8;\nadd.u64 %pout, %out, %tx8;\n"
        "ld.global.u32 %a, [%pin];\nld.global.u32 %b, [%pin+256];\nld.global.u32 %c, [%pin+512];\n";
    for (size_t k = 0; k < count; ++k) {
      body += cases[first + k].text + "\nst.global.u32 [%pout+" + std::to_string(k * 256) + "], %d;\n";
    }
    std::string ptx = test::ptxKernel(".reg .b32 %a, %b, %c, %d;\n.reg .u64 %pin, %pout;", body);
    for (const auto& set : sets) {
      std::vector<uint64_t> in;
      for (const auto& v : set) in.insert(in.end(), v.begin(), v.end());
      test::KernelRun run;
      try {
        run = test::runKernel(ptx, in, 32 * count);
      } catch (const std::exception& e) {
        FAIL() << e.what();
      }
      ASSERT_FALSE(run.result.error) << run.result.error.message;
      for (size_t k = 0; k < count; ++k) {
        const Case& c = cases[first + k];
        for (unsigned t = 0; t < 32; ++t) {
          uint32_t expected = c.ref(set[0][t], set[1][t], set[2][t]);
          uint64_t got = run.out[k * 32 + t];
          ASSERT_EQ(got, expected) << c.text << " with a=" << std::hex << set[0][t] << " b=" << set[1][t]
                                   << " c=" << set[2][t];
        }
      }
    }
  }
}

// --- Reference, from the ISA's pseudocode -----------------------------------

// partSelectSignExtend: sel is "" (the word), "b0".."b3", "h0", "h1".
I128 part(uint32_t x, const std::string& sel, bool isSigned) {
  unsigned width = sel.empty() ? 32 : sel[0] == 'b' ? 8 : 16;
  unsigned index = sel.empty() ? 0 : static_cast<unsigned>(sel[1] - '0');
  uint64_t v = (uint64_t{x} >> (index * width)) & ((uint64_t{1} << width) - 1);
  I128 r = static_cast<I128>(v);
  if (isSigned && v >= (uint64_t{1} << (width - 1))) r -= I128{1} << width;
  return r;
}

I128 clampBits(I128 v, unsigned bits, bool isSigned) {
  I128 hi = isSigned ? (I128{1} << (bits - 1)) - 1 : (I128{1} << bits) - 1;
  I128 lo = isSigned ? -(I128{1} << (bits - 1)) : 0;
  if (v > hi) return hi;
  if (v < lo) return lo;
  return v;
}

uint32_t low32(I128 v) { return static_cast<uint32_t>(static_cast<uint64_t>(v)); }

// optSaturate, optSecOp, optMerge of the scalar instructions as ptxas's
// sm_90 sequences compute them (the H100 has no video hardware): the value
// is a 64-bit one; .sat takes its low 34 bits as a signed .s34 and clamps
// to dtype's range, an unsigned range only from below except for the shifts;
// vadd/vsub (always) and the shifts (after .sat) continue with the low word
// sign-extended; .min/.max compare with c signed and sign-extended for a
// .s32 dtype, unsigned and zero-extended for .u32. (The merge is generated
// for vset only: the simulator refuses the others.)
uint32_t scalarTail(const std::string& op, I128 tmp, bool sat, bool dSigned, const std::string& dsel,
                    const std::string& op2, uint32_t c) {
  bool shift = op == "vshl" || op == "vshr";
  I128 w = static_cast<int64_t>(static_cast<uint64_t>(tmp));  // the 64-bit register pair
  if (!dsel.empty()) {
    unsigned width = dsel[0] == 'b' ? 8 : 16;
    unsigned pos = static_cast<unsigned>(dsel[1] - '0') * width;
    uint32_t m = ((width == 8 ? 0xffu : 0xffffu) << pos);
    return ((low32(w) << pos) & m) | (c & ~m);
  }
  if (sat) {
    I128 s34 = w & ((I128{1} << 34) - 1);
    if (s34 >= (I128{1} << 33)) s34 -= I128{1} << 34;
    w = dSigned || shift ? clampBits(s34, 32, dSigned) : std::max<I128>(s34, 0);
  }
  if (op == "vadd" || op == "vsub" || (shift && sat)) w = static_cast<int32_t>(low32(w));
  uint32_t t = low32(w);
  // The compared pair: as signed 64-bit values, or as unsigned ones.
  I128 tv = dSigned ? w : I128{static_cast<uint64_t>(w)};
  I128 cv = dSigned ? I128{static_cast<int32_t>(c)} : I128{c};
  if (op2 == "add") return t + c;
  if (op2 == "min") return tv < cv ? t : c;
  if (op2 == "max") return tv > cv ? t : c;
  return t;
}

const char* typeName(bool s) { return s ? "s32" : "u32"; }
std::string sel(const std::string& s) { return s.empty() ? "" : "." + s; }

const std::vector<std::string> kScalarSels = {"", "b0", "b1", "b2", "b3", "h0", "h1"};

bool compareRef(const std::string& cmp, I128 a, I128 b) {
  if (cmp == "eq") return a == b;
  if (cmp == "ne") return a != b;
  if (cmp == "lt") return a < b;
  if (cmp == "le") return a <= b;
  if (cmp == "gt") return a > b;
  return a >= b;
}

// One scalar case: op in vadd vsub vabsdiff vmin vmax vshl vshr; extra is the
// shift mode.
Case scalarCase(const std::string& op, bool dS, bool aS, bool bS, const std::string& asel, const std::string& bsel,
                bool sat, const std::string& op2, const std::string& dsel, const std::string& extra = "") {
  bool shift = op == "vshl" || op == "vshr";
  std::string text = op + "." + typeName(dS) + "." + typeName(aS) + "." + (shift ? "u32" : typeName(bS)) +
                     (sat ? ".sat" : "") + (extra.empty() ? "" : "." + extra) + (op2.empty() ? "" : "." + op2) +
                     " %d" + sel(dsel) + ", %a" + sel(asel) + ", %b" + sel(bsel) +
                     (op2.empty() && dsel.empty() ? ";" : ", %c;");
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    I128 ta = part(a, asel, aS), tb = part(b, bsel, shift ? false : bS), tmp = 0;
    if (op == "vadd") tmp = ta + tb;
    if (op == "vsub") tmp = ta - tb;
    if (op == "vabsdiff") tmp = ta > tb ? ta - tb : tb - ta;
    if (op == "vmin") tmp = std::min(ta, tb);
    if (op == "vmax") tmp = std::max(ta, tb);
    if (shift) {
      if (extra == "clamp" && tb > 32) tb = 32;
      if (extra == "wrap") tb &= 0x1f;
      // ta << tb on the exact value; >> is arithmetic (floor division).
      I128 scale = I128{1} << static_cast<int>(tb);
      if (op == "vshl") tmp = ta * scale;
      else tmp = ta >= 0 ? ta / scale : -((-ta + scale - 1) / scale);
    }
    return scalarTail(op, tmp, sat, dS, dsel, op2, c);
  };
  return {text, ref};
}

TEST(VideoScalar, EveryOperationSelectorAndSignedness) {
  std::vector<Case> cases;
  for (const char* op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}) {
    for (int types = 0; types < 8; ++types) {
      for (const auto& asel : kScalarSels) {
        for (const auto& bsel : kScalarSels) {
          bool sat = (asel.size() + bsel.size() + types) % 2 == 0;
          cases.push_back(scalarCase(op, types & 1, types & 2, types & 4, asel, bsel, sat, "", ""));
        }
      }
    }
  }
  runCases(cases);
}

TEST(VideoScalar, SaturationAndSecondaryOperation) {
  std::vector<Case> cases;
  const std::string tails[] = {"add", "min", "max", ""};
  int k = 0;
  for (const char* op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}) {
    for (int types = 0; types < 8; ++types) {
      for (bool sat : {false, true}) {
        for (const auto& tail : tails) {
          bool merge = tail.size() == 2;
          const std::string& asel = kScalarSels[k % 7];
          const std::string& bsel = kScalarSels[(k * 3 + 1) % 7];
          ++k;
          cases.push_back(scalarCase(op, types & 1, types & 2, types & 4, asel, bsel, sat && !merge,
                                     merge ? "" : tail, merge ? tail : ""));
        }
      }
    }
  }
  runCases(cases);
}

TEST(VideoScalar, ShiftsClampAndWrap) {
  std::vector<Case> cases;
  const std::string tails[] = {"", "add", "min", "max", "", "add"};
  int k = 0;
  for (const char* op : {"vshl", "vshr"}) {
    for (int types = 0; types < 4; ++types) {
      for (const char* mode : {"clamp", "wrap"}) {
        for (const auto& asel : kScalarSels) {
          for (const auto& bsel : kScalarSels) {
            const std::string& tail = tails[k % 6];
            bool merge = tail.size() == 2;
            bool sat = (k / 6) % 2 == 1 && !merge;
            ++k;
            cases.push_back(scalarCase(op, types & 1, types & 2, false, asel, bsel, sat, merge ? "" : tail,
                                       merge ? tail : "", mode));
          }
        }
      }
    }
  }
  runCases(cases);
}

TEST(VideoScalar, SetComparesWithSecondaryOperationAndMerge) {
  std::vector<Case> cases;
  const std::string tails[] = {"", "add", "min", "max", "b0", "b3", "h0", "h1"};
  int k = 0;
  for (int types = 0; types < 4; ++types) {
    bool aS = types & 1, bS = types & 2;
    for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"}) {
      for (const auto& asel : kScalarSels) {
        for (const auto& bsel : kScalarSels) {
          std::string tail = tails[k++ % 8];
          bool merge = tail.size() == 2;
          std::string cmpName = cmp;
          std::string text = std::string("vset.") + typeName(aS) + "." + typeName(bS) + "." + cmp +
                             (merge || tail.empty() ? "" : "." + tail) + " %d" + (merge ? "." + tail : "") +
                             ", %a" + sel(asel) + ", %b" + sel(bsel) + (tail.empty() ? ";" : ", %c;");
          Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
            I128 tmp = compareRef(cmpName, part(a, asel, aS), part(b, bsel, bS)) ? 1 : 0;
            return scalarTail("vset", tmp, false, aS, merge ? tail : "", merge ? "" : tail, c);
          };
          cases.push_back({text, ref});
        }
      }
    }
  }
  runCases(cases);
}

// Whether the simulator implements the vmad form (see video_mad.cpp): a
// negation only with two .s32 sources, or -a -b unscaled and unclamped.
bool madSupported(bool aS, bool bS, bool na, bool nb, bool nc, int shr, bool sat) {
  return (aS && bS) || (!na && !nb && !nc) || (na && nb && !nc && shr == 0 && !sat);
}

// vmad: without a negation as ptxas's sm_90 sequence computes it (the parts,
// extended to 32 bits, multiply as signed 32-bit values, c is
// sign-extended, the result is signed iff a source is .s32: an arithmetic
// or a logical 64-bit shift, a signed or unsigned clamp); with one, the
// ISA's pseudocode.
Case madCase(bool aS, bool bS, bool dS, const std::string& asel, const std::string& bsel, bool na, bool nb, bool nc,
             bool po, bool sat, int shr) {
  std::string text = std::string("vmad.") + typeName(dS) + "." + typeName(aS) + "." + typeName(bS) +
                     (po ? ".po" : "") + (sat ? ".sat" : "") + (shr ? ".shr" + std::to_string(shr) : "") + " %d, " +
                     (na ? "-" : "") + "%a" + sel(asel) + ", " + (nb ? "-" : "") + "%b" + sel(bsel) + ", " +
                     (nc ? "-" : "") + "%c;";
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    bool signedFinal = aS || bS || (na != nb) || nc;
    I128 tmp;
    if (na == nb && !nc) {
      auto asInt32 = [](I128 v) { return I128{static_cast<int32_t>(low32(v))}; };
      tmp = asInt32(part(a, asel, aS)) * asInt32(part(b, bsel, bS)) + static_cast<int32_t>(c) + (po ? 1 : 0);
    } else {
      tmp = part(a, asel, aS) * part(b, bsel, bS);
      if (na != nb) {
        tmp = ~tmp;
      } else {
        c = ~c;
      }
      tmp = tmp + static_cast<int32_t>(c) + 1;
    }
    I128 scale = I128{1} << shr;
    I128 result = tmp;
    if (shr && signedFinal) result = tmp >= 0 ? tmp / scale : -((-tmp + scale - 1) / scale);
    if (shr && !signedFinal) result = I128{static_cast<uint64_t>(tmp)} / scale;
    if (sat) result = clampBits(result, 32, signedFinal);
    return low32(result);
  };
  return {text, ref};
}

TEST(VideoMad, SelectorsSignednessScaleAndSaturation) {
  std::vector<Case> cases;
  int k = 0;
  for (int types = 0; types < 8; ++types) {
    for (const auto& asel : kScalarSels) {
      for (const auto& bsel : kScalarSels) {
        int variant = k++ % 6;  // plain, .po, .sat, .shr7, .shr15, .sat.shr15
        cases.push_back(madCase(types & 1, types & 2, types & 4, asel, bsel, false, false, false, variant == 1,
                                variant == 2 || variant == 5, variant == 3 ? 7 : variant >= 4 ? 15 : 0));
      }
    }
  }
  runCases(cases);
}

TEST(VideoMad, NegatedOperandsAndPlusOne) {
  std::vector<Case> cases;
  int k = 0;
  for (int types = 0; types < 8; ++types) {
    for (int neg = 0; neg < 5; ++neg) {  // -a, -b, -c, -a -b, .po
      for (bool sat : {false, true}) {
        for (int shr : {0, 7, 15}) {
          const std::string& asel = kScalarSels[k % 7];
          const std::string& bsel = kScalarSels[(k * 5 + 2) % 7];
          ++k;
          bool na = neg == 0 || neg == 3, nb = neg == 1 || neg == 3;
          if (!madSupported(types & 1, types & 2, na, nb, neg == 2, shr, sat)) continue;
          cases.push_back(madCase(types & 1, types & 2, types & 4, asel, bsel, neg == 0 || neg == 3,
                                  neg == 1 || neg == 3, neg == 2, neg == 4, sat, shr));
        }
      }
    }
  }
  runCases(cases);
}

// --- Hand-derived values of ptxas's sequences ---------------------------------

// One instruction on one (a, b, c), every value worked out by hand from the
// sm_90 sequence; most differ from the PTX ISA's pseudocode.
struct Handmade {
  const char* text;
  uint32_t a, b, c, expected;
};

void runHandmade(const Handmade& h) {
  std::string ptx = test::ptxKernel(".reg .b32 %a, %b, %c, %d;\n.reg .u64 %pin, %pout;",
                                    "add.u64 %pin, %in, %tx8;\nadd.u64 %pout, %out, %tx8;\n"
                                    "ld.global.u32 %a, [%pin];\nld.global.u32 %b, [%pin+8];\n"
                                    "ld.global.u32 %c, [%pin+16];\n" +
                                        std::string(h.text) + "\nst.global.u32 [%pout], %d;\n");
  test::KernelRun run = test::runKernel(ptx, {h.a, h.b, h.c}, 1, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out[0], h.expected) << h.text << std::hex << " a=" << h.a << " b=" << h.b << " c=" << h.c;
}

TEST(VideoScalar, HandDerivedValuesOfTheH100Sequences) {
  const Handmade cases[] = {
      // The 32-bit sum 0x80000000 sign-extends: as a u32 dtype's 64-bit
      // value it is above every c, so .min takes c and .max the sum.
      {"vadd.u32.u32.u32.min %d, %a, %b, %c;", 0x7fffffff, 1, 0x90000000, 0x90000000},
      {"vadd.u32.u32.u32.max %d, %a, %b, %c;", 0x7fffffff, 1, 0x90000000, 0x80000000},
      {"vsub.u32.u32.u32.min %d, %a, %b, %c;", 0, 1, 5, 5},
      // A .s32 dtype: the sum 0xffffffff is -1, below c = 0.
      {"vadd.s32.u32.u32.min %d, %a, %b, %c;", 0xffffffff, 0, 0, 0xffffffff},
      // .u32 .sat only lifts negative values: 0xffffffff + 1 wraps to 0, and
      // 1 - 2 gives 0; |-2^31 - (2^32 - 1)| = 0x17fffffff keeps its low word.
      {"vadd.u32.u32.u32.sat %d, %a, %b;", 0xffffffff, 1, 0, 0},
      {"vsub.u32.u32.u32.sat %d, %a, %b;", 1, 2, 0, 0},
      {"vabsdiff.u32.s32.u32.sat %d, %a, %b;", 0x80000000, 0xffffffff, 0, 0x7fffffff},
      // ... and .min then compares the whole 64-bit 0x17fffffff: c is less.
      {"vabsdiff.u32.s32.u32.sat.min %d, %a, %b, %c;", 0x80000000, 0xffffffff, 0x80000000, 0x80000000},
      // .s32 .sat, then .add: clamp to 0x7fffffff, plus 1 wraps.
      {"vadd.s32.s32.s32.sat.add %d, %a, %b, %c;", 0x7fffffff, 1, 1, 0x80000000},
      // vmin/vmax keep the exact value: 0xfffffffe is positive, above c = 0.
      {"vmin.s32.u32.u32.min %d, %a, %b, %c;", 0xffffffff, 0xfffffffe, 0, 0},
      {"vmax.s32.u32.u32.max %d, %a, %b, %c;", 0xffffffff, 0xfffffffe, 0, 0xffffffff},
      // vshl in 64 bits: 0x80000000 << 1 = 0x100000000, above c = 7.
      {"vshl.u32.u32.u32.wrap.min %d, %a, %b, %c;", 0x80000000, 1, 7, 7},
      // .sat on the .s34 value: 0x7fffffff << 31 = 0x3fffffff80000000 whose
      // low 34 bits 0x380000000 are -2^31: in range, so 0x80000000.
      {"vshl.s32.s32.u32.wrap.sat %d, %a, %b;", 0x7fffffff, 31, 0, 0x80000000},
      {"vshl.u32.u32.u32.clamp.sat %d, %a, %b;", 2, 31, 0, 0xffffffff},
      // vset: c signed when atype is .s32 (-1 < 1), unsigned when .u32.
      {"vset.s32.u32.lt.min %d, %a, %b, %c;", 0, 1, 0xffffffff, 0xffffffff},
      {"vset.u32.s32.lt.min %d, %a, %b, %c;", 0, 1, 0xffffffff, 1},
  };
  for (const Handmade& h : cases) runHandmade(h);
}

TEST(VideoMad, HandDerivedValuesOfTheH100Sequences) {
  const Handmade cases[] = {
      // The words multiply as signed values and c is sign-extended, even
      // for .u32 types: -1 * 1 + 0 and 0 * 1 + (-2^31) are negative, so the
      // unsigned .sat gives 0.
      {"vmad.u32.u32.u32.sat %d, %a, %b, %c;", 0xffffffff, 1, 0, 0},
      {"vmad.u32.u32.u32.sat %d, %a, %b, %c;", 0, 1, 0x80000000, 0},
      {"vmad.u32.u32.u32.sat %d, %a, %b, %c;", 0x10000, 0x10000, 0, 0xffffffff},
      // Two .u32 sources: a logical 64-bit shift of -2^31, whatever dtype.
      {"vmad.u32.u32.u32.shr7 %d, %a, %b, %c;", 0x80000000, 1, 0, 0xff000000},
      {"vmad.s32.u32.u32.shr7 %d, %a, %b, %c;", 0x80000000, 1, 0, 0xff000000},
      // A .s32 source: arithmetic shift and a signed clamp; 0xffffffff is -1.
      {"vmad.u32.u32.s32.shr7 %d, %a, %b, %c;", 0x80000000, 1, 0, 0xff000000},
      {"vmad.u32.u32.s32.sat %d, %a, %b, %c;", 0xffffffff, 2, 0, 0xfffffffe},
      {"vmad.u32.s32.u32.sat %d, %a, %b, %c;", 0x7fffffff, 0xffffffff, 0, 0x80000001},
      // .po adds one before the scaling: (3 * 5 + 0x70 + 1) >> 7 = 1.
      {"vmad.u32.u32.u32.shr7.po %d, %a, %b, %c;", 3, 5, 0x70, 1},
  };
  for (const Handmade& h : cases) runHandmade(h);
}

// --- SIMD -----------------------------------------------------------------

// One SIMD case. asel/bsel/mask are the selector spellings without the dot
// ("" for the default); form is "merge" or "add".
Case simdCase(const std::string& op, int n, bool dS, bool aS, bool bS, const std::string& asel,
              const std::string& bsel, const std::string& mask, bool sat, bool add, const std::string& cmp = "") {
  bool isSet = op == "vset";
  std::string name = op + std::to_string(n);
  std::string types = isSet ? std::string(typeName(aS)) + "." + typeName(bS) + "." + cmp
                            : std::string(typeName(dS)) + "." + typeName(aS) + "." + typeName(bS);
  std::string text = name + "." + types + (sat ? ".sat" : "") + (add ? ".add" : "") + " %d" + sel(mask) + ", %a" +
                     sel(asel) + ", %b" + sel(bsel) + ", %c;";
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    unsigned width = 32 / n;
    uint64_t ab = (uint64_t{b} << 32) | a;
    // Element i's source digit is the i-th from the right of the selector.
    auto pick = [&](const std::string& s, unsigned i, unsigned dflt, bool isSigned) {
      unsigned index = s.empty() ? dflt : static_cast<unsigned>(s[s.size() - 1 - i] - '0');
      uint64_t v = (ab >> (index * width)) & ((uint64_t{1} << width) - 1);
      I128 r = static_cast<I128>(v);
      if (isSigned && v >> (width - 1)) r -= I128{1} << width;
      return r;
    };
    bool inMask[4] = {mask.empty(), mask.empty(), mask.empty(), mask.empty()};
    for (size_t j = 1; j < mask.size(); ++j) inMask[mask[j] - '0'] = true;
    uint32_t d = add ? c : 0;
    for (int i = 0; i < n; ++i) {
      I128 va = pick(asel, i, i, aS), vb = pick(bsel, i, i + n, bS), t = 0;
      if (op == "vadd") t = va + vb;
      if (op == "vsub") t = va - vb;
      if (op == "vavrg") {
        I128 s = va + vb;
        t = s >= 0 ? (s + 1) / 2 : (s - 1) / 2;  // s odd and negative: away from zero
        if (s < 0 && s % 2 == 0) t = s / 2;
      }
      if (op == "vabsdiff") t = va > vb ? va - vb : vb - va;
      if (op == "vmin") t = std::min(va, vb);
      if (op == "vmax") t = std::max(va, vb);
      if (isSet) t = compareRef(cmp, va, vb) ? 1 : 0;
      if (sat) t = clampBits(t, width, dS);
      uint32_t fieldMask = (width == 8 ? 0xffu : 0xffffu) << (i * width);
      if (add) {
        if (inMask[i]) d = low32(I128{d} + t);
      } else {
        d |= ((inMask[i] ? low32(t) : c >> (i * width)) << (i * width)) & fieldMask;
      }
    }
    return d;
  };
  return {text, ref};
}

const std::vector<std::string> kMask2 = {"", "h0", "h1", "h10"};
const std::vector<std::string> kMask4 = {"",     "b0",   "b1",   "b10",  "b2",   "b20",  "b21",  "b210",
                                         "b3",   "b30",  "b31",  "b310", "b32",  "b320", "b321", "b3210"};

TEST(VideoSimd, DualHalfWordEverySelectorMaskAndForm) {
  std::vector<Case> cases;
  int k = 0;
  for (const char* op : {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"}) {
    bool isSet = std::string(op) == "vset";
    const char* cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (int types = 0; types < 8; ++types) {
      if (isSet && types >= 4) break;
      for (int s = 0; s < 17; ++s) {
        // s == 16: the default selectors; otherwise every .hxy for a, and a
        // spread of them for b.
        std::string asel = s == 16 ? "" : "h" + std::to_string(s / 4) + std::to_string(s % 4);
        int t = (s * 7 + types) % 16;
        std::string bsel = s == 16 ? "" : "h" + std::to_string(t / 4) + std::to_string(t % 4);
        bool add = k % 3 == 0;
        bool sat = !isSet && !add && k % 2 == 0;
        const std::string& mask = kMask2[k % 4];
        std::string cmp = cmps[k % 6];
        ++k;
        bool dS = types & 1, aS = types & 2, bS = types & 4;
        if (isSet) aS = types & 1, bS = types & 2;
        cases.push_back(simdCase(op, 2, dS, aS, bS, asel, bsel, mask, sat, add, cmp));
      }
    }
  }
  runCases(cases);
}

TEST(VideoSimd, QuadByteSelectorsMasksAndForms) {
  std::vector<Case> cases;
  std::mt19937 rng(99);
  int k = 0;
  for (const char* op : {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"}) {
    bool isSet = std::string(op) == "vset";
    const char* cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (int types = 0; types < 8; ++types) {
      if (isSet && types >= 4) break;
      for (int s = 0; s < 24; ++s) {
        std::string asel = "b", bsel = "b";
        for (int j = 0; j < 4; ++j) {
          asel += std::to_string(rng() % 8);
          bsel += std::to_string(rng() % 8);
        }
        if (s == 0) asel = bsel = "";
        bool add = k % 3 == 0;
        bool sat = !isSet && !add && k % 2 == 0;
        const std::string& mask = kMask4[k % 16];
        std::string cmp = cmps[k % 6];
        ++k;
        bool dS = types & 1, aS = types & 2, bS = types & 4;
        if (isSet) aS = types & 1, bS = types & 2;
        cases.push_back(simdCase(op, 4, dS, aS, bS, asel, bsel, mask, sat, add, cmp));
      }
    }
  }
  runCases(cases);
}

// --- Forms refused at load, and selectors outside video instructions ---------

TEST(VideoForms, InvalidFormsFailToLoad) {
  auto load = [](const std::string& inst) { return test::loadError(".reg .b32 %a, %b, %c, %d;", inst); };
  EXPECT_EQ(load("vset.u32.u32.lt %d.h1, %a.b2, %b.h0, %c;"), "");
  EXPECT_EQ(load("vmad.s32.s32.s32 %d, -%a.h1, %b, %c;"), "");
  for (const char* good : {"vmad.u32.u32.u32.sat %d, %a, %b, %c;", "vadd.u32.u32.u32.sat.max %d, %a, %b, %c;",
                           "vshl.u32.u32.u32.sat.clamp %d, %a, %b;", "vset.s32.u32.lt.min %d, %a, %b, %c;",
                           "vmad.s32.s32.u32 %d, %a, %b, %c;", "vmad.u32.u32.u32.shr7 %d, %a, %b, %c;",
                           "vmad.u32.u32.u32 %d, -%a, -%b, %c;"}) {
    EXPECT_EQ(load(good), "") << good;
  }
  // Refused by the semantics, with the reason.
  for (const char* bad :
       {"vmad.s32.s32.s32 %d, -%a, %b, -%c;", "vmad.u32.u32.u32.po %d, %a, -%b, %c;",
        "vadd.u32.u32.u32.add %d.b0, %a, %b, %c;", "vadd.u32.u32.u32 %d, %a, %b, %c;",
        "vadd.u32.u32.u32.min %d, %a, %b;", "vadd.u32.u32.u32 %d, %a.h2, %b;",
        "vadd.u32.u32.u32 %d, %a.b10, %b;", "vadd2.u32.u32.u32 %d, %a.b10, %b, %c;",
        "vadd2.u32.u32.u32 %d.h01, %a, %b, %c;", "vadd4.u32.u32.u32 %d, %a.b3210, %b.h10, %c;",
        "vadd4.u32.u32.u32 %d.b0123, %a, %b, %c;",
        // Forms where the H100 differs from the pseudocode in ways not modelled yet.
        "vadd.s32.s32.s32.sat %d.h0, %a, %b, %c;", "vsub.s32.s32.s32 %d.b1, %a, %b, %c;",
        "vmad.u32.u32.u32 %d, -%a, %b, %c;", "vmad.s32.u32.s32.shr7 %d, %a, %b, -%c;",
        "vmad.u32.u32.u32.sat %d, -%a, -%b, %c;"}) {
    EXPECT_NE(load(bad).find("unsupported instruction"), std::string::npos) << bad << ": " << load(bad);
  }
  // Rejected by the front end, with ptxas's message.
  EXPECT_NE(load("vadd2.u32.u32.u32.sat.add %d, %a, %b, %c;").find("Illegal combination of .sat and .add"),
            std::string::npos);
  EXPECT_NE(load("vadd2.u32.u32.u32.min %d, %a, %b, %c;").find("Illegal secondary operation"),
            std::string::npos);
  EXPECT_NE(load("vshl.u32.u32.u32 %d, %a, %b;").find("needs a modifier"), std::string::npos);
  EXPECT_NE(load("add.u32 %d, %a.b0, %b;").find("only video instructions"), std::string::npos);
  EXPECT_NE(load("add.u32 %d, -%a, %b;").find("only vmad"), std::string::npos);
}

}  // namespace
}  // namespace ptxsim
