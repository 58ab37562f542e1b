// SIMD video instructions through inline PTX: vadd2 .. vset2 and vadd4 ..
// vset4 with source selectors, .sat, destination masks, the merge into c
// and the accumulate .add.

__device__ unsigned int case_count = 272;

#include "video_cases.h"

extern "C" __global__ void cases(unsigned long long* out) {
  if (threadIdx.x != 0) return;
  unsigned n = 0;
  FORM("vadd2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vadd2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vadd2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vadd2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vadd2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vsub2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vsub2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vsub2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vsub2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vsub2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vavrg2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vavrg2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vavrg2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vavrg2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vavrg2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vabsdiff2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vabsdiff2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vabsdiff2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vabsdiff2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vabsdiff2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmin2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vmin2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vmin2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vmin2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vmin2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmax2.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vmax2.s32.s32.s32.sat %0, %1.h01, %2.h23, %3;");
  FORM("vmax2.u32.s32.s32.sat %0.h0, %1, %2, %3;");
  FORM("vmax2.s32.u32.s32.add %0.h1, %1.h23, %2.h01, %3;");
  FORM("vmax2.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vset2.u32.s32.lt %0, %1, %2, %3;");
  FORM("vset2.s32.s32.ge.add %0, %1.h01, %2.h23, %3;");
  FORM("vset2.u32.u32.ne %0.h0, %1, %2, %3;");
  FORM("vset2.s32.u32.eq.add %0.h1, %1, %2.h01, %3;");
  FORM("vadd4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vadd4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vadd4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vadd4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vadd4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vsub4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vsub4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vsub4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vsub4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vsub4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vavrg4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vavrg4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vavrg4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vavrg4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vavrg4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vabsdiff4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vabsdiff4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vabsdiff4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vabsdiff4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmin4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vmin4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vmin4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vmin4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vmin4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vmax4.u32.u32.u32 %0, %1, %2, %3;");
  FORM("vmax4.s32.s32.s32.sat %0, %1.b0123, %2.b7531, %3;");
  FORM("vmax4.u32.s32.s32.sat %0.b20, %1, %2, %3;");
  FORM("vmax4.s32.u32.s32.add %0.b31, %1.b7531, %2.b0123, %3;");
  FORM("vmax4.u32.u32.s32.add %0, %1, %2, %3;");
  FORM("vset4.u32.s32.lt %0, %1, %2, %3;");
  FORM("vset4.s32.s32.ge.add %0, %1.b0123, %2.b7531, %3;");
  FORM("vset4.u32.u32.ne %0.b20, %1, %2, %3;");
  FORM("vset4.s32.u32.eq.add %0.b31, %1, %2.b0123, %3;");
}

#include "harness.h"
