#include "kernel_text.h"

#include "kernel_parts.h"

namespace ptxsim::conformance {

std::string registerName(size_t operand) { return "%o" + std::to_string(operand); }

void declareOperands(std::ostringstream& k, const Form& form) {
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Immediate || o.role == OperandRole::Address || o.role == OperandRole::MemberMask)
      continue;
    k << "  .reg " << (o.bits == 1 ? ".pred" : ".b" + std::to_string(o.bits)) << " " << registerName(i);
    if (o.elements > 1) k << "_<" << o.elements << ">";
    k << ";\n";
  }
}

void entryAndRecords(std::ostringstream& k, const Form& form, const std::string& kernelName,
                     const std::string& extraRegisters) {
  k << "// " << form.name << "\n";
  k << ".visible .entry " << kernelName << "(.param .u64 p_in, .param .u64 p_out, .param .u32 p_records)\n{\n";
  k << "  .reg .pred %bound;\n  .reg .b32 %idx<4>;\n  .reg .b64 %addr<4>;\n  .reg .b32 %tmp<3>;\n" << extraRegisters;
  declareOperands(k, form);
  k << "  mov.u32 %idx0, %ctaid.x;\n  mov.u32 %idx1, %ntid.x;\n  mov.u32 %idx2, %tid.x;\n"
       "  mad.lo.u32 %idx0, %idx0, %idx1, %idx2;\n  ld.param.u32 %idx3, [p_records];\n"
       "  setp.ge.u32 %bound, %idx0, %idx3;\n  @%bound bra DONE;\n"
       "  ld.param.u64 %addr0, [p_in];\n  ld.param.u64 %addr1, [p_out];\n"
       "  cvta.to.global.u64 %addr0, %addr0;\n  cvta.to.global.u64 %addr1, %addr1;\n";
  k << "  mul.wide.u32 %addr2, %idx0, " << 8 * form.sources() << ";\n  add.s64 %addr2, %addr0, %addr2;\n";
  k << "  mul.wide.u32 %addr3, %idx0, " << 8 * form.outputs() << ";\n  add.s64 %addr3, %addr1, %addr3;\n";
}

std::string operandText(const Form& form, size_t i, const std::string& address) {
  const Operand& o = form.operands[i];
  switch (o.role) {
    case OperandRole::Immediate: return std::to_string(o.immediate);
    case OperandRole::Address: return "[" + address + "]";
    case OperandRole::MemberMask: return "%mask";
    default: break;
  }
  if (o.elements == 1) return registerName(i);
  std::string text = "{";
  for (uint32_t e = 0; e < o.elements; ++e) text += (e == 0 ? "" : ", ") + registerName(i) + "_" + std::to_string(e);
  return text + "}";
}

void instruction(std::ostringstream& k, const Form& form, const std::string& address) {
  k << "  " << form.mnemonic;
  for (size_t i = 0; i < form.operands.size(); ++i) {
    k << (i == 0 ? " " : form.operands[i].joinedToPrevious ? "|" : ", ") << operandText(form, i, address);
  }
  k << ";\n";
}

uint32_t loadSources(std::ostringstream& k, const Form& form, uint32_t slot) {
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Source) {
      for (uint32_t e = 0; e < o.elements; ++e) {
        const std::string name = o.elements == 1 ? registerName(i) : registerName(i) + "_" + std::to_string(e);
        k << "  ld.global.b" << o.bits << " " << name << ", [%addr2+" << 8 * slot + e * o.bits / 8 << "];\n";
      }
      slot += o.slots();
    } else if (o.role == OperandRole::PredSource) {
      k << "  ld.global.u32 %tmp0, [%addr2+" << 8 * slot++ << "];\n  setp.ne.u32 " << registerName(i)
        << ", %tmp0, 0;\n";
    }
  }
  return slot;
}

uint32_t storeResults(std::ostringstream& k, const Form& form, uint32_t out) {
  for (size_t i = 0; i < form.operands.size(); ++i) {
    const Operand& o = form.operands[i];
    if (o.role == OperandRole::Dest) {
      for (uint32_t e = 0; e < o.elements; ++e) {
        const std::string name = o.elements == 1 ? registerName(i) : registerName(i) + "_" + std::to_string(e);
        k << "  st.global.b" << o.bits << " [%addr3+" << 8 * out + e * o.bits / 8 << "], " << name << ";\n";
      }
      out += o.slots();
    } else if (o.role == OperandRole::PredDest) {
      k << "  selp.u32 %tmp0, 1, 0, " << registerName(i) << ";\n  st.global.u32 [%addr3+" << 8 * out++
        << "], %tmp0;\n";
    }
  }
  return out;
}

std::string moduleHeader() { return ".version 9.0\n.target sm_90\n.address_size 64\n\n"; }

namespace {

std::string registerKernelText(const Form& form, const std::string& kernelName) {
  std::ostringstream k;
  entryAndRecords(k, form, kernelName, "");
  uint32_t slot = loadSources(k, form, 0);
  if (form.carryIn) {
    // CC.CF = carry-in: 0xffffffff + 1 carries out, + 0 does not.
    k << "  ld.global.u32 %tmp0, [%addr2+" << 8 * slot++ << "];\n  add.cc.u32 %tmp1, %tmp0, 0xffffffff;\n";
  }
  instruction(k, form, "");
  if (form.carryOut) k << "  addc.u32 %tmp2, 0, 0;\n";
  uint32_t out = storeResults(k, form, 0);
  if (form.carryOut) k << "  st.global.u32 [%addr3+" << 8 * out++ << "], %tmp2;\n";
  k << "DONE:\n  ret;\n}\n";
  return k.str();
}

}  // namespace

std::string kernelText(const Form& form, const std::string& kernelName) {
  switch (form.kind) {
    case FormKind::Memory: return memoryKernelText(form, kernelName);
    case FormKind::Warp: return warpKernelText(form, kernelName);
    default: return registerKernelText(form, kernelName);
  }
}

}  // namespace ptxsim::conformance
