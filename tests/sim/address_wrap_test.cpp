// Effective addresses `[reg+imm]` are computed at the address's width: from
// a 32-bit register (shared, local, param and const windows) the sum wraps
// at 2^32, from a 64-bit register at 2^64. nvcc relies on the 32-bit wrap:
// Rodinia's Needleman-Wunsch kernel keeps `temp - 68*tx` in a 32-bit
// register, which is below zero for every thread but the first, and adds
// the row offset in the access (issue 44).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../support/ptx_kernel.h"

namespace ptxsim {
namespace {

constexpr int kBlock = 16;            // threads, and the block's rows and columns
constexpr int kTempRow = kBlock + 1;  // int temp[17][17]: 68 bytes a row
constexpr int kRefRow = kBlock;       // int ref[16][16]: 64 bytes a row

// The needle kernel of Rodinia's nw with its two wavefront loops unrolled,
// as nvcc -O3 emits it: every access is `[base+constant]` on the per-thread
// bases %tbase = &temp[-tx][tx] and %rbase = &ref[-tx][tx], both computed in
// 32-bit registers (`mad.lo.s32 %tneg, -tx, 68, temp; add.s32 %tbase, ...`).
// `temp` is the first shared variable, at offset 0, so %tbase is below zero
// (0xffffffc0 for tx = 1) and `[%tbase+68]` is shared offset 4.
std::string needleKernel() {
  auto line = [](std::string& text, const std::string& s) { text += "  " + s + "\n"; };
  auto n = [](int v) { return std::to_string(v); };
  std::string t = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry needle(.param .u64 ref_param, .param .u64 out_param, .param .u32 penalty_param)
{
  .shared .align 4 .b8 temp[1156];
  .shared .align 4 .b8 ref[1024];
  .reg .u32 %tx, %ntx, %tx4, %pen, %border, %edge, %tneg, %tbase, %rneg, %rbase, %col;
  .reg .u32 %diag, %up, %left, %cost, %best;
  .reg .u64 %gref, %gout, %tx4w;
  .reg .pred %idle;
  ld.param.u64 %gref, [ref_param];
  ld.param.u64 %gout, [out_param];
  ld.param.u32 %pen, [penalty_param];
  cvta.to.global.u64 %gref, %gref;
  cvta.to.global.u64 %gout, %gout;
  mov.u32 %tx, %tid.x;
  shl.b32 %tx4, %tx, 2;
  cvt.u64.u32 %tx4w, %tx4;
  add.u64 %gref, %gref, %tx4w;
  add.u64 %gout, %gout, %tx4w;
  // ref[i][tx] for every row i.
  mov.u32 %col, ref;
  add.u32 %col, %col, %tx4;
)";
  for (int i = 0; i < kBlock; ++i) {
    line(t, "ld.global.u32 %cost, [%gref+" + n(4 * kRefRow * i) + "];");
    line(t, "st.shared.u32 [%col+" + n(4 * kRefRow * i) + "], %cost;");
  }
  // Borders: temp[0][tx+1] = temp[tx+1][0] = -(tx+1)*penalty, temp[0][0] = 0.
  t += R"(  add.u32 %border, %tx, 1;
  mul.lo.s32 %border, %border, %pen;
  neg.s32 %border, %border;
  mov.u32 %col, temp;
  add.u32 %col, %col, %tx4;
  st.shared.u32 [%col+4], %border;
  mov.u32 %edge, temp;
  mad.lo.u32 %edge, %tx, 68, %edge;
  st.shared.u32 [%edge+68], %border;
  st.shared.u32 [temp], 0;
  bar.sync 0;
  neg.s32 %ntx, %tx;
  mov.u32 %tneg, temp;
  mad.lo.s32 %tneg, %ntx, 68, %tneg;
  add.s32 %tbase, %tneg, %tx4;
  mov.u32 %rneg, ref;
  mad.lo.s32 %rneg, %ntx, 64, %rneg;
  add.s32 %rbase, %rneg, %tx4;
)";
  // One cell of the wavefront: `cell` is temp[y][x]'s offset from %tbase,
  // `reference` ref[y-1][x-1]'s from %rbase.
  auto cell = [&](int step, const char* loop, int cellOffset, int referenceOffset) {
    std::string skip = std::string("SKIP_") + loop + "_" + n(step);
    line(t, "setp.gt.u32 %idle, %tx, " + n(step) + ";");
    line(t, "@%idle bra " + skip + ";");
    line(t, "ld.shared.u32 %diag, [%tbase+" + n(cellOffset - 4 * kTempRow - 4) + "];");
    line(t, "ld.shared.u32 %up, [%tbase+" + n(cellOffset - 4 * kTempRow) + "];");
    line(t, "ld.shared.u32 %left, [%tbase+" + n(cellOffset - 4) + "];");
    line(t, "ld.shared.u32 %cost, [%rbase+" + n(referenceOffset) + "];");
    line(t, "add.s32 %diag, %diag, %cost;");
    line(t, "sub.s32 %up, %up, %pen;");
    line(t, "sub.s32 %left, %left, %pen;");
    line(t, "max.s32 %best, %diag, %up;");
    line(t, "max.s32 %best, %best, %left;");
    line(t, "st.shared.u32 [%tbase+" + n(cellOffset) + "], %best;");
    t += skip + ":\n";
    line(t, "bar.sync 0;");
  };
  // Upper-left triangle: thread tx <= m fills y = m-tx+1, x = tx+1.
  for (int m = 0; m < kBlock; ++m) cell(m, "upper", 4 * kTempRow * (m + 1) + 4, 4 * kRefRow * m);
  // Lower-right triangle: thread tx <= m fills y = 16-tx, x = tx+16-m.
  for (int m = kBlock - 2; m >= 0; --m) {
    cell(m, "lower", 4 * kTempRow * kBlock + 4 * (kBlock - m),
         4 * kRefRow * (kBlock - 1) + 4 * (kBlock - 1 - m));
  }
  // Column tx+1 of every row goes out.
  line(t, "mov.u32 %col, temp;");
  line(t, "add.u32 %col, %col, %tx4;");
  for (int y = 0; y <= kBlock; ++y) {
    line(t, "ld.shared.u32 %best, [%col+" + n(4 * kTempRow * y + 4) + "];");
    line(t, "st.global.u32 [%gout+" + n(4 * kTempRow * y + 4) + "], %best;");
  }
  t += "  ret;\n}\n";
  return t;
}

// The Needleman-Wunsch recurrence, computed directly.
std::vector<int32_t> hostScores(const std::vector<int32_t>& reference, int32_t penalty) {
  std::vector<int32_t> score(kTempRow * kTempRow);
  auto at = [&](int y, int x) -> int32_t& { return score[y * kTempRow + x]; };
  for (int i = 0; i <= kBlock; ++i) at(0, i) = at(i, 0) = -i * penalty;
  for (int y = 1; y <= kBlock; ++y) {
    for (int x = 1; x <= kBlock; ++x) {
      at(y, x) = std::max({at(y - 1, x - 1) + reference[(y - 1) * kRefRow + (x - 1)], at(y, x - 1) - penalty,
                           at(y - 1, x) - penalty});
    }
  }
  return score;
}

TEST(AddressWrap, NeedlemanWunschSharedBasesBelowZero) {
  std::vector<int32_t> reference(kBlock * kRefRow);
  for (size_t i = 0; i < reference.size(); ++i) reference[i] = static_cast<int32_t>((i * 7919) % 21) - 10;
  const int32_t penalty = 3;

  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(needleKernel(), "needle.ptx");
  uint64_t referenceAddress = device.malloc(reference.size() * 4);
  device.write(referenceAddress, reference);
  uint64_t out = device.malloc(kTempRow * kTempRow * 4);
  device.memset(out, 0, kTempRow * kTempRow * 4);
  sim::LaunchResult r = device.launch(*module, "needle", {1}, {kBlock}, 0,
                                      KernelArgs().add(referenceAddress).add(out).add(uint32_t{penalty}));
  ASSERT_FALSE(r.error) << r.error.message;

  std::vector<int32_t> got = device.read<int32_t>(out, kTempRow * kTempRow);
  std::vector<int32_t> want = hostScores(reference, penalty);
  for (int y = 0; y <= kBlock; ++y) {
    for (int x = 1; x <= kBlock; ++x) {  // column 0 is not copied out
      EXPECT_EQ(got[y * kTempRow + x], want[y * kTempRow + x]) << "temp[" << y << "][" << x << "]";
    }
  }
}

// Each access form on a base below zero, 0x40000 (more than any shared or
// local window) under the slot it reaches with `+262144`. The slot holds 77
// (stored through the plain address), then 78 and 80 (stored through the
// wrapped one).
TEST(AddressWrap, EveryFormWrapsAtItsRegistersWidth) {
  std::string ptx = test::ptxKernel(R"(
    .shared .align 8 .b8 window[16];
    .local .align 8 .b8 frame[16];
    .reg .u32 %slot, %below, %v<6>;
    .reg .u64 %below64;)",
                                    R"(
    mov.u32 %slot, window;
    add.u32 %slot, %slot, 4;
    sub.u32 %below, %slot, 0x40000;
    st.shared.u32 [%slot], 77;
    ld.shared.u32 %v0, [%below+262144];        // 32-bit shared load
    st.shared.u32 [%below+262144], 78;         // 32-bit shared store
    ld.shared.u32 %v1, [%slot];
    atom.shared.add.u32 %v2, [%below+262144], 2;
    cvt.u64.u32 %below64, %slot;
    sub.u64 %below64, %below64, 0x40000;       // below zero in 64 bits
    ld.shared.u32 %v3, [%below64+262144];      // wraps at 2^64
    mov.u32 %slot, frame;
    add.u32 %slot, %slot, 4;
    sub.u32 %below, %slot, 0x40000;
    st.local.u32 [%slot], 91;
    ld.local.u32 %v4, [%below+262144];         // 32-bit local load
    st.local.u32 [%below+262144], 92;          // 32-bit local store
    ld.local.u32 %v5, [%slot];
    st.global.u32 [%out], %v0;
    st.global.u32 [%out+8], %v1;
    st.global.u32 [%out+16], %v2;
    st.global.u32 [%out+24], %v3;
    st.global.u32 [%out+32], %v4;
    st.global.u32 [%out+40], %v5;)");
  test::KernelRun run = test::runKernel(ptx, {}, 6, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.out, (std::vector<uint64_t>{77, 78, 78, 80, 91, 92}));
}

}  // namespace
}  // namespace ptxsim
