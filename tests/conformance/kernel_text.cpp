#include "kernel_text.h"

#include <sstream>

namespace ptxsim::conformance {
namespace {

std::string registerName(size_t operand) { return "%o" + std::to_string(operand); }

}  // namespace

std::string moduleHeader() { return ".version 9.0\n.target sm_90\n.address_size 64\n\n"; }

std::string kernelText(const Form& form, const std::string& kernelName) {
  const uint32_t inBytes = 8 * form.sources();
  const uint32_t outBytes = 8 * form.outputs();
  std::ostringstream k;
  k << "// " << form.name << "\n";
  k << ".visible .entry " << kernelName << "(.param .u64 p_in, .param .u64 p_out, .param .u32 p_records)\n{\n";
  k << "  .reg .pred %bound;\n  .reg .b32 %idx<4>;\n  .reg .b64 %addr<4>;\n  .reg .b32 %tmp<3>;\n";
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Immediate) continue;
    k << "  .reg " << (o.bits == 1 ? ".pred" : ".b" + std::to_string(o.bits)) << " " << registerName(i) << ";\n";
  }
  k << "  mov.u32 %idx0, %ctaid.x;\n  mov.u32 %idx1, %ntid.x;\n  mov.u32 %idx2, %tid.x;\n"
       "  mad.lo.u32 %idx0, %idx0, %idx1, %idx2;\n  ld.param.u32 %idx3, [p_records];\n"
       "  setp.ge.u32 %bound, %idx0, %idx3;\n  @%bound bra DONE;\n"
       "  ld.param.u64 %addr0, [p_in];\n  ld.param.u64 %addr1, [p_out];\n"
       "  cvta.to.global.u64 %addr0, %addr0;\n  cvta.to.global.u64 %addr1, %addr1;\n";
  k << "  mul.wide.u32 %addr2, %idx0, " << inBytes << ";\n  add.s64 %addr2, %addr0, %addr2;\n";
  k << "  mul.wide.u32 %addr3, %idx0, " << outBytes << ";\n  add.s64 %addr3, %addr1, %addr3;\n";
  uint32_t slot = 0;
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Source) {
      k << "  ld.global.b" << o.bits << " " << registerName(i) << ", [%addr2+" << 8 * slot++ << "];\n";
    } else if (o.role == OperandRole::PredSource) {
      k << "  ld.global.u32 %tmp0, [%addr2+" << 8 * slot++ << "];\n  setp.ne.u32 " << registerName(i)
        << ", %tmp0, 0;\n";
    }
  }
  if (form.carryIn) {
    // CC.CF = carry-in: 0xffffffff + 1 carries out, + 0 does not.
    k << "  ld.global.u32 %tmp0, [%addr2+" << 8 * slot++ << "];\n  add.cc.u32 %tmp1, %tmp0, 0xffffffff;\n";
  }
  k << "  " << form.mnemonic;
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    k << (i == 0 ? " " : ", ");
    if (o.role == OperandRole::Immediate) {
      k << o.immediate;
    } else {
      k << registerName(i);
    }
  }
  k << ";\n";
  uint32_t out = 0;
  if (form.carryOut) k << "  addc.u32 %tmp2, 0, 0;\n";
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Dest) {
      k << "  st.global.b" << o.bits << " [%addr3+" << 8 * out++ << "], " << registerName(i) << ";\n";
    } else if (o.role == OperandRole::PredDest) {
      k << "  selp.u32 %tmp0, 1, 0, " << registerName(i) << ";\n  st.global.u32 [%addr3+" << 8 * out++
        << "], %tmp0;\n";
    }
  }
  if (form.carryOut) k << "  st.global.u32 [%addr3+" << 8 * out++ << "], %tmp2;\n";
  k << "DONE:\n  ret;\n}\n";
  return k.str();
}

}  // namespace ptxsim::conformance
