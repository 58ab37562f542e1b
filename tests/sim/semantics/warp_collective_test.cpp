// Warp collectives: activemask, vote, shfl (every mode, the c operand's
// clamp and segment mask, the predicate output), match, redux, elect,
// against host references that follow the ISA's pseudocode; member-mask
// errors.

#include <bit>
#include <cmath>
#include <functional>

#include "../../support/ptx_kernel.h"

namespace ptxsim {
namespace {

constexpr uint32_t kFull = 0xffffffffu;

// Runs a body that leaves a 32-bit result in %r (and optionally a predicate
// in %q, stored as bit 32) for every lane; `in` is read as lane l's %x.
std::vector<uint64_t> runLanes(const std::string& body, const std::vector<uint64_t>& in = {},
                               unsigned threads = 32) {
  std::string decl = ".reg .b32 %r, %x, %y, %m;\n.reg .b64 %w;\n.reg .pred %p, %q;\n.reg .u64 %pin, %pout;";
  std::string prologue = "add.u64 %pin, %in, %tx8;\nadd.u64 %pout, %out, %tx8;\nmov.b32 %r, 0;\n"
                         "setp.ne.u32 %q, 0, 0;\n";
  if (!in.empty()) prologue += "ld.global.u32 %x, [%pin];\nld.global.u64 %w, [%pin];\n";
  std::string epilogue = "\nst.global.u32 [%pout], %r;\nselp.u32 %y, 1, 0, %q;\nst.global.u32 [%pout+4], %y;";
  std::vector<uint64_t> padded = in;
  padded.resize(threads, 0);
  test::KernelRun run = test::runKernel(test::ptxKernel(decl, prologue + body + epilogue), padded, threads, threads);
  EXPECT_FALSE(run.result.error) << run.result.error.message;
  return run.out;
}

std::string launchError(const std::string& body, unsigned threads = 32,
                        sim::SimtMode simt = sim::SimtMode::Default) {
  std::string decl = ".reg .b32 %r, %x, %m;\n.reg .pred %p, %q;";
  test::KernelRun run = test::runKernel(test::ptxKernel(decl, body), {}, 1, threads, simt);
  return run.result.error ? run.result.error.message : std::string();
}

// --- shfl: the ISA's pseudocode, transcribed -------------------------------

struct ShflResult {
  unsigned source;  // the lane read
  bool inRange;
};

ShflResult shflReference(char mode, unsigned lane, uint32_t b, uint32_t c) {
  int bval = static_cast<int>(b & 31), cval = static_cast<int>(c & 31), seg = static_cast<int>((c >> 8) & 31);
  int l = static_cast<int>(lane);
  int maxLane = (l & seg) | (cval & ~seg);
  int minLane = l & seg;
  int j = 0;
  bool p = false;
  if (mode == 'u') {
    j = l - bval;
    p = j >= maxLane;
  } else if (mode == 'd') {
    j = l + bval;
    p = j <= maxLane;
  } else if (mode == 'b') {
    j = l ^ bval;
    p = j <= maxLane;
  } else {
    j = minLane | (bval & ~seg);
    p = j <= maxLane;
  }
  return {static_cast<unsigned>(p ? j : l), p};
}

TEST(WarpShfl, EveryModeClampAndSegmentMaskFollowTheIsa) {
  struct Form {
    char mode;
    const char* word;
  };
  const Form forms[] = {{'u', "up"}, {'d', "down"}, {'b', "bfly"}, {'i', "idx"}};
  const uint32_t bs[] = {0, 1, 2, 3, 5, 8, 16, 17, 31, 33, 37};
  const uint32_t cs[] = {0x0, 0x1f, 0x0f, 0x10, 0x5, 0x181f, 0x1c1f, 0x1f1f, 0x1807, 0x1800, 0x1c03, 0x1f00, 0x101f};
  for (const Form& f : forms) {
    for (uint32_t b : bs) {
      for (uint32_t c : cs) {
        std::string body = "add.u32 %x, %tx, 1000;\nshfl.sync." + std::string(f.word) + ".b32 %r|%q, %x, " +
                           std::to_string(b) + ", " + std::to_string(c) + ", 0xffffffff;";
        std::vector<uint64_t> out = runLanes(body);
        for (unsigned l = 0; l < 32; ++l) {
          ShflResult want = shflReference(f.mode, l, b, c);
          EXPECT_EQ(out[l] & 0xffffffff, 1000 + want.source) << f.word << " b=" << b << " c=0x" << std::hex << c
                                                             << std::dec << " lane " << l;
          EXPECT_EQ(out[l] >> 32, want.inRange ? 1u : 0u) << f.word << " b=" << b << " c=" << c << " lane " << l;
        }
      }
    }
  }
}

TEST(WarpShfl, PerLaneOperandsAndTheLegacyForm) {
  // b = 31 - lane reverses the warp; the legacy shfl (no member mask) is the same.
  std::vector<uint64_t> out = runLanes(
      "add.u32 %x, %tx, 7;\nsub.u32 %y, 31, %tx;\nshfl.sync.idx.b32 %r, %x, %y, 31, -1;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] & 0xffffffff, 7 + 31 - l);
  std::string legacy = test::ptxKernel(".reg .b32 %x, %r;\n.reg .u64 %p;",
                                       "add.u32 %x, %tx, 7;\nshfl.down.b32 %r, %x, 3, 31;\n"
                                       "add.u64 %p, %out, %tx8;\nst.global.u32 [%p], %r;",
                                       "sm_60");
  test::KernelRun run = test::runKernel(legacy, {}, 32, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(run.out[l], l + 3 <= 31 ? 7 + l + 3 : 7 + l);
}

TEST(WarpShfl, SourcesThatDoNotTakePart) {
  // As the H100 does (tests/cuda/semantics/warp_shfl.cu): two groups with
  // their own member masks read across and get the source's value; a
  // source that diverged or exited gives 0. p says only whether the index
  // was in range.
  std::vector<uint64_t> out = runLanes(
      "add.u32 %x, %tx, 64;\nsetp.lt.u32 %p, %tx, 16;\nselp.b32 %m, 0x0000ffff, 0xffff0000, %p;\n"
      "selp.b32 %y, 20, 3, %p;\nshfl.sync.idx.b32 %r|%q, %x, %y, 0x1f, %m;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l], (uint64_t{1} << 32) | (l < 16 ? 84 : 67)) << l;
  out = runLanes(
      "add.u32 %x, %tx, 64;\nsetp.ge.u32 %p, %tx, 16;\n@%p bra DONE;\n"
      "shfl.sync.down.b32 %r|%q, %x, 8, 0x1f, 0xffff;\nDONE:",
      {}, 32);
  for (unsigned l = 0; l < 16; ++l) {  // lanes 16-23 diverged: 0
    EXPECT_EQ(out[l], (uint64_t{1} << 32) | (l < 8 ? 64 + l + 8 : 0)) << l;
  }
  std::string exited = test::ptxKernel(
      ".reg .b32 %x, %r;\n.reg .pred %p, %q;\n.reg .u64 %a;",
      "add.u32 %x, %tx, 64;\nsetp.ge.u32 %p, %tx, 16;\n@%p exit;\n"
      "shfl.sync.down.b32 %r|%q, %x, 8, 0x1f, 0xffff;\n"
      "add.u64 %a, %out, %tx8;\nst.global.u32 [%a], %r;\nselp.u32 %x, 1, 0, %q;\nst.global.u32 [%a+4], %x;");
  test::KernelRun run = test::runKernel(exited, {}, 16, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned l = 0; l < 16; ++l) {
    EXPECT_EQ(run.out[l], (uint64_t{1} << 32) | (l < 8 ? 64 + l + 8 : 0)) << l;
  }
}

// --- vote, activemask, match, redux, elect ---------------------------------

uint32_t ballotOf(bool (*pred)(unsigned), uint32_t group) {
  uint32_t m = 0;
  for (unsigned k = 0; k < 32; ++k) {
    if (((group >> k) & 1) != 0 && pred(k)) m |= 1u << k;
  }
  return m;
}

uint32_t halfOf(unsigned lane) { return lane < 16 ? 0x0000ffffu : 0xffff0000u; }

TEST(WarpVote, AllAnyUniBallotOverTheMemberMask) {
  const std::string setHalf = "setp.lt.u32 %p, %tx, 16;\nselp.b32 %m, 0x0000ffff, 0xffff0000, %p;\n";
  struct Vote {
    const char* text;
    std::function<uint32_t(unsigned)> want;
  };
  auto mod3 = [](unsigned k) { return k % 3 != 0; };
  std::vector<Vote> votes = {
      {"vote.sync.all.pred %q, %p, 0xffffffff;", [](unsigned) { return 0u; }},
      {"vote.sync.any.pred %q, %p, 0xffffffff;", [](unsigned) { return 1u; }},
      {"vote.sync.uni.pred %q, %p, 0xffffffff;", [](unsigned) { return 0u; }},
      {"vote.sync.all.pred %q, %p, %m;", [&](unsigned l) { return l < 16 ? 1u : 0u; }},
      {"vote.sync.any.pred %q, !%p, %m;", [&](unsigned l) { return l < 16 ? 0u : 1u; }},
      {"vote.sync.uni.pred %q, %p, %m;", [](unsigned) { return 1u; }},
  };
  for (const Vote& v : votes) {
    std::vector<uint64_t> out = runLanes(setHalf + v.text);
    for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] >> 32, v.want(l)) << v.text << " lane " << l;
  }
  std::vector<uint64_t> out = runLanes("mov.u32 %x, %tx;\nsetp.ne.u32 %p, %x, 0;\nsetp.ne.u32 %p, %x, 3;\n"
                 "vote.sync.ballot.b32 %r, %p, 0xffffffff;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] & kFull, kFull & ~(1u << 3)) << l;
  // ballot of a lane-dependent predicate over each half.
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = mod3(l) ? 1 : 0;
  out = runLanes(setHalf + "setp.ne.u32 %q, %x, 0;\nvote.sync.ballot.b32 %r, !%q, %m;", in);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l] & kFull, ballotOf([](unsigned k) { return k % 3 == 0; }, halfOf(l))) << l;
  }
}

TEST(WarpVote, InsideABranchAndTheLegacyForm) {
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = l & 1;
  std::vector<uint64_t> out = runLanes(
      "setp.lt.u32 %p, %tx, 20;\n@%p bra DONE;\nsetp.ne.u32 %q, %x, 0;\n"
      "vote.sync.ballot.b32 %r, %q, 0xfff00000;\nDONE:",
      in);
  for (unsigned l = 20; l < 32; ++l) EXPECT_EQ(out[l] & kFull, 0xaaa00000u) << l;
  std::string legacy = test::ptxKernel(".reg .b32 %r;\n.reg .pred %p, %q;\n.reg .u64 %a;",
                                       "setp.lt.u32 %p, %tx, 5;\nvote.ballot.b32 %r, %p;\nvote.any.pred %q, %p;\n"
                                       "add.u64 %a, %out, %tx8;\nst.global.u32 [%a], %r;\n"
                                       "selp.u32 %r, 1, 0, %q;\nst.global.u32 [%a+4], %r;",
                                       "sm_60");
  test::KernelRun run = test::runKernel(legacy, {}, 32, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(run.out[l], (uint64_t{1} << 32) | 0x1f) << l;
}

TEST(WarpActivemask, CountsTheLanesThatExecuteIt) {
  std::vector<uint64_t> out = runLanes("activemask.b32 %r;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] & kFull, kFull);
  // In a branch of lanes 1, 5, 9, ... and under a guard of lanes 0-7 (the
  // H100 leaves guard-false lanes out).
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = l % 4;
  out = runLanes("setp.ne.u32 %p, %x, 1;\n@%p bra DONE;\nactivemask.b32 %r;\nDONE:", in);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] & kFull, l % 4 == 1 ? 0x22222222u : 0u) << l;
  out = runLanes("setp.lt.u32 %p, %tx, 8;\n@%p activemask.b32 %r;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] & kFull, l < 8 ? 0xffu : 0u) << l;
  // A partial warp: 20 threads.
  out = runLanes("activemask.b32 %r;", {}, 20);
  for (unsigned l = 0; l < 20; ++l) EXPECT_EQ(out[l] & kFull, 0xfffffu);
}

TEST(WarpMatch, AnyAndAllOn32And64BitValues) {
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = (uint64_t(l & 1) << 40) | (l % 3);
  std::vector<uint64_t> out = runLanes("match.any.sync.b32 %r, %x, 0xffffffff;", in);
  for (unsigned l = 0; l < 32; ++l) {
    uint32_t want = 0;
    for (unsigned k = 0; k < 32; ++k) want |= (k % 3 == l % 3 ? 1u : 0u) << k;
    EXPECT_EQ(out[l] & kFull, want) << l;
  }
  out = runLanes("match.any.sync.b64 %r, %w, 0xffffffff;", in);
  for (unsigned l = 0; l < 32; ++l) {
    uint32_t want = 0;
    for (unsigned k = 0; k < 32; ++k) want |= (in[k] == in[l] ? 1u : 0u) << k;
    EXPECT_EQ(out[l] & kFull, want) << l;
  }
  // .all: the 32-bit halves agree within lanes 0,3,6,... but the 64-bit values differ.
  out = runLanes("match.all.sync.b32 %r|%q, 5, 0xffffffff;", in);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l], (uint64_t{1} << 32) | kFull) << l;
  // Lanes 0, 3, ..., 30 alone (l % 3 == 0): their low words agree, their
  // 64-bit values alternate in bit 40.
  const std::string thirds = "setp.ne.u32 %p, %x, 0;\n@%p bra DONE;\n";
  out = runLanes(thirds + "match.all.sync.b64 %r|%q, %w, 0x49249249;\nDONE:", in);
  for (unsigned l = 0; l < 32; l += 3) EXPECT_EQ(out[l], 0u) << l;
  out = runLanes(thirds + "match.all.sync.b32 %r|%q, %x, 0x49249249;\nDONE:", in);
  for (unsigned l = 0; l < 32; l += 3) EXPECT_EQ(out[l], (uint64_t{1} << 32) | 0x49249249u) << l;
}

TEST(WarpRedux, IntegerReductionsOverEachMemberMask) {
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = static_cast<uint32_t>(static_cast<int32_t>(l) - 20);
  const std::string setHalf = "setp.lt.u32 %p, %tx, 16;\nselp.b32 %m, 0x0000ffff, 0xffff0000, %p;\n";
  struct Redux {
    const char* op;
    std::function<uint32_t(uint32_t, uint32_t)> f;
  };
  std::vector<Redux> ops = {
      {"add.u32", [](uint32_t a, uint32_t b) { return a + b; }},
      {"add.s32", [](uint32_t a, uint32_t b) { return a + b; }},
      {"min.u32", [](uint32_t a, uint32_t b) { return std::min(a, b); }},
      {"max.u32", [](uint32_t a, uint32_t b) { return std::max(a, b); }},
      {"min.s32",
       [](uint32_t a, uint32_t b) {
         return static_cast<uint32_t>(std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
       }},
      {"max.s32",
       [](uint32_t a, uint32_t b) {
         return static_cast<uint32_t>(std::max(static_cast<int32_t>(a), static_cast<int32_t>(b)));
       }},
      {"and.b32", [](uint32_t a, uint32_t b) { return a & b; }},
      {"or.b32", [](uint32_t a, uint32_t b) { return a | b; }},
      {"xor.b32", [](uint32_t a, uint32_t b) { return a ^ b; }},
  };
  for (const Redux& r : ops) {
    for (bool halves : {false, true}) {
      std::vector<uint64_t> out =
          runLanes(setHalf + (halves ? "" : "mov.b32 %m, -1;\n") + "redux.sync." + r.op + " %r, %x, %m;", in);
      for (unsigned l = 0; l < 32; ++l) {
        uint32_t group = halves ? halfOf(l) : kFull;
        unsigned first = static_cast<unsigned>(std::countr_zero(group));
        uint32_t want = static_cast<uint32_t>(in[first]);
        for (unsigned k = first + 1; k < 32; ++k) {
          if (((group >> k) & 1) != 0) want = r.f(want, static_cast<uint32_t>(in[k]));
        }
        EXPECT_EQ(out[l] & kFull, want) << r.op << (halves ? " halves" : "") << " lane " << l;
      }
    }
  }
}

uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }

TEST(WarpRedux, FloatMinMaxWithAbsAndNaN) {
  std::vector<uint64_t> in(32);
  for (unsigned l = 0; l < 32; ++l) in[l] = bits(static_cast<float>(l) - 10.5f);
  in[3] = 0x80000000u;  // -0
  in[4] = 0x00000000u;  // +0
  in[7] = 0x7fc00000u;  // NaN
  auto run = [&](const std::string& op) {
    std::string ptx = test::ptxKernel(".reg .b32 %x, %r;\n.reg .u64 %a;",
                                      "add.u64 %a, %in, %tx8;\nld.global.u32 %x, [%a];\nredux.sync." + op +
                                          ".f32 %r, %x, 0xffffffff;\nadd.u64 %a, %out, %tx8;\nst.global.u32 [%a], %r;",
                                      "sm_100a");
    test::KernelRun r = test::runKernel(ptx, in, 32, 32);
    EXPECT_FALSE(r.result.error) << r.result.error.message;
    return static_cast<uint32_t>(r.out[5]);
  };
  EXPECT_EQ(run("min"), bits(-10.5f));
  EXPECT_EQ(run("max"), bits(20.5f));
  EXPECT_EQ(run("min.abs"), 0x00000000u);  // |-0| = +0, and +0 is the smallest magnitude
  EXPECT_EQ(run("max.abs"), bits(20.5f));
  EXPECT_EQ(run("min.NaN"), 0x7fffffffu);
  EXPECT_EQ(run("max.abs.NaN"), 0x7fffffffu);
  for (unsigned l = 0; l < 32; ++l) in[l] = l == 9 ? 0x80000000u : 0xffc00001u;
  EXPECT_EQ(run("max"), 0x80000000u);  // NaNs are skipped
  for (unsigned l = 0; l < 32; ++l) in[l] = 0xffc00001u;
  EXPECT_EQ(run("min"), 0x7fffffffu);  // all NaN: the canonical NaN
  for (unsigned l = 0; l < 32; ++l) in[l] = (l & 1) != 0 ? 0x80000000u : 0u;
  EXPECT_EQ(run("max"), 0u);           // +0 > -0
  EXPECT_EQ(run("min"), 0x80000000u);
}

TEST(WarpElect, TheLowestMemberLeads) {
  std::vector<uint64_t> out = runLanes("elect.sync %r|%q, 0xffffffff;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l], (uint64_t{l == 0 ? 1u : 0u} << 32) | 0) << l;
  out = runLanes("setp.lt.u32 %p, %tx, 9;\n@%p bra DONE;\nelect.sync %r|%q, 0xfffffe00;\nDONE:");
  for (unsigned l = 9; l < 32; ++l) EXPECT_EQ(out[l], (uint64_t{l == 9 ? 1u : 0u} << 32) | 9) << l;
  out = runLanes("setp.lt.u32 %p, %tx, 16;\nselp.b32 %m, 0x0000ffff, 0xffff0000, %p;\nelect.sync _|%q, %m;");
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l] >> 32, (l == 0 || l == 16) ? 1u : 0u) << l;
  // Exited members drop out: lanes 0-3 exit, lane 4 leads.
  std::string exited = test::ptxKernel(".reg .b32 %r;\n.reg .pred %p, %q;\n.reg .u64 %a;",
                                       "setp.lt.u32 %p, %tx, 4;\n@%p exit;\nelect.sync %r|%q, 0xffffffff;\n"
                                       "add.u64 %a, %out, %tx8;\nst.global.u32 [%a], %r;");
  test::KernelRun run = test::runKernel(exited, {}, 32, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (unsigned l = 4; l < 32; ++l) EXPECT_EQ(run.out[l], 4u) << l;
}

// --- Member-mask errors -------------------------------------------------------

TEST(WarpCollective, LaneOutsideItsOwnMemberMaskIsAnError) {
  std::string message = launchError("shfl.sync.idx.b32 %r, %x, 0, 31, 0xfffffffe;");
  EXPECT_NE(message.find("not in its member mask 0xfffffffe"), std::string::npos) << message;
  message = launchError("vote.sync.any.pred %q, %p, 0x1;");
  EXPECT_NE(message.find("vote"), std::string::npos) << message;
  EXPECT_NE(message.find("not in its member mask"), std::string::npos) << message;
}

TEST(WarpCollective, MemberLanesThatCannotArriveAreAnError) {
  // Lanes 16-31 diverged: under the stack a full member mask can never be
  // satisfied. Under ITS the collective waits for them; they exit instead,
  // and exited lanes are not waited for.
  std::string diverged = "setp.lt.u32 %p, %tx, 16;\n@!%p bra DONE;\nredux.sync.add.u32 %r, %x, 0xffffffff;\nDONE:";
  std::string message = launchError(diverged, 32, sim::SimtMode::Stack);
  EXPECT_NE(message.find("lanes 0xffff0000 of the member mask 0xffffffff are not active"), std::string::npos)
      << message;
  EXPECT_EQ(launchError(diverged, 32, sim::SimtMode::Its), "");
  // Under ITS, member lanes that wait elsewhere for ever are a deadlock.
  message = launchError(
      "setp.lt.u32 %p, %tx, 16;\n@!%p bra OTHER;\nredux.sync.add.u32 %r, %x, 0xffffffff;\nbra.uni DONE;\n"
      "OTHER: vote.sync.any.pred %q, %p, 0xffffffff;\nDONE:",
      32, sim::SimtMode::Its);
  EXPECT_NE(message.find("deadlock"), std::string::npos) << message;
  EXPECT_NE(message.find("lanes 0x0000ffff at PC"), std::string::npos) << message;
  EXPECT_NE(message.find("waiting at a .sync collective"), std::string::npos) << message;
  // Exited lanes and lanes beyond the block are not waited for.
  EXPECT_EQ(launchError("setp.lt.u32 %p, %tx, 16;\n@!%p exit;\nmatch.any.sync.b32 %r, %x, 0xffffffff;"), "");
  EXPECT_EQ(launchError("vote.sync.ballot.b32 %r, %p, 0xffffffff;", 20), "");
}

}  // namespace
}  // namespace ptxsim
