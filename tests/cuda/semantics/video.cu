// Scalar video instructions through inline PTX: vadd vsub vabsdiff vmin vmax
// vshl vshr vset vmad with part selectors, .sat, the secondary operation
// (.add .min .max), the merge into c (d.b2, d.h1) and vmad's negations,
// .po and .shr7/.shr15.

__device__ unsigned int case_count = 192;

#include "video_cases.h"

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned n = 0;
  FORM("vadd.u32.u32.u32 %0, %1, %2;");
  FORM("vadd.s32.s32.s32.sat %0, %1.b1, %2.h1;");
  FORM("vadd.u32.s32.u32.sat %0, %1.h0, %2.b3;");
  FORM("vadd.s32.u32.s32.add %0, %1, %2, %3;");
  FORM("vadd.u32.u32.u32.min %0, %1, %2, %3;");
  FORM("vsub.u32.u32.u32 %0, %1, %2;");
  FORM("vsub.s32.s32.s32.sat %0, %1.b1, %2.h1;");
  FORM("vsub.u32.s32.u32.sat %0, %1.h0, %2.b3;");
  FORM("vsub.s32.u32.s32.add %0, %1, %2, %3;");
  FORM("vsub.u32.u32.u32.min %0, %1, %2, %3;");
  FORM("vabsdiff.u32.u32.u32 %0, %1, %2;");
  FORM("vabsdiff.s32.s32.s32.sat %0, %1.b1, %2.h1;");
  FORM("vabsdiff.u32.s32.u32.sat %0, %1.h0, %2.b3;");
  FORM("vabsdiff.s32.u32.s32.add %0, %1, %2, %3;");
  FORM("vabsdiff.u32.u32.u32.min %0, %1, %2, %3;");
  FORM("vmin.u32.u32.u32 %0, %1, %2;");
  FORM("vmin.s32.s32.s32.sat %0, %1.b1, %2.h1;");
  FORM("vmin.u32.s32.u32.sat %0, %1.h0, %2.b3;");
  FORM("vmin.s32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmin.u32.u32.u32.min %0, %1, %2, %3;");
  FORM("vmax.u32.u32.u32 %0, %1, %2;");
  FORM("vmax.s32.s32.s32.sat %0, %1.b1, %2.h1;");
  FORM("vmax.u32.s32.u32.sat %0, %1.h0, %2.b3;");
  FORM("vmax.s32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmax.u32.u32.u32.min %0, %1, %2, %3;");
  FORM("vshl.u32.u32.u32.clamp %0, %1, %2;");
  FORM("vshr.s32.s32.u32.clamp %0, %1, %2;");
  FORM("vshr.u32.s32.u32.wrap.min %0, %1, %2, %3;");
  FORM("vset.u32.s32.lt %0, %1, %2;");
  FORM("vset.s32.u32.ge.add %0, %1, %2, %3;");
  FORM("vset.u32.u32.eq.max %0, %1, %2.h1, %3;");
  FORM("vset.s32.s32.ne %0.b2, %1, %2, %3;");
  FORM("vset.s32.s32.gt.min %0, %1.b3, %2.b1, %3;");
  FORM("vset.u32.u32.le %0, %1.h0, %2.h1;");
  FORM("vmad.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vmad.u32.u32.u32.po %0, %1.b1, %2.b2, %3;");
  FORM("vmad.s32.s32.s32 %0, -%1, %2, %3;");
  FORM("vmad.s32.s32.s32.sat.shr7 %0, %1, %2, %3;");
  FORM("vmad.s32.s32.s32.sat %0, -%1.h1, -%2.h0, %3;");
  FORM("vset.s32.u32.le %0.h0, %1.h0, %2.h1, %3;");
  FORM("vset.u32.s32.gt %0.b1, %1.b1, %2.b3, %3;");
  FORM("vset.s32.s32.eq %0.b3, %1.b2, %2.b2, %3;");
  FORM("vset.s32.s32.lt.max %0, %1, %2, %3;");
  FORM("vset.u32.u32.gt.min %0, %1.h1, %2.b2, %3;");
  FORM("vshl.u32.u32.u32.wrap.max %0, %1.h0, %2.b0, %3;");
  FORM("vshr.u32.u32.u32.sat.clamp %0, %1.b2, %2.h0;");
  FORM("vmad.u32.u32.u32.po %0, %1, %2, %3;");
  FORM("vmad.s32.s32.s32.shr15 %0, -%1, %2.h1, %3;");
}

#include "harness.h"
