// The kernel of a FormKind::Warp form: the lanes in their warp's member mask
// (input slot 0) execute the collective; the others leave their outputs
// zero. Records come in whole warps, so the records bound splits no warp.

#include "kernel_parts.h"

namespace ptxsim::conformance {

std::string warpKernelText(const Form& form, const std::string& kernelName) {
  std::ostringstream k;
  entryAndRecords(k, form, kernelName, "  .reg .b32 %mask, %lane;\n  .reg .pred %outside;\n");
  k << "  ld.global.u32 %mask, [%addr2];\n  mov.u32 %lane, %laneid;\n  mov.u32 %tmp0, 1;\n"
       "  shl.b32 %tmp0, %tmp0, %lane;\n  and.b32 %tmp0, %tmp0, %mask;\n  setp.eq.u32 %outside, %tmp0, 0;\n"
       "  @%outside bra DONE;\n";
  loadSources(k, form, 1);
  instruction(k, form, "");
  storeResults(k, form, 0);
  k << "DONE:\n  ret;\n}\n";
  return k.str();
}

}  // namespace ptxsim::conformance
