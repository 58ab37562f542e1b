// The kernel of a FormKind::Memory form: thread i initialises its own
// memory word from the first slots of input record i, executes the form on
// it, and writes the returned value (if any) and then the word itself to
// output record i. A load from global memory reads the input record itself. A .global or generic word is the
// last slots of the output record; a .shared word is the thread's 32 bytes of a block-wide array, a .local
// word a 32-byte array of the thread's, copied out after the instruction.

#include <algorithm>

#include "kernel_parts.h"

namespace ptxsim::conformance {
namespace {

constexpr uint32_t kWordBytes = 32;         // the largest word: ld.v8.b32
constexpr uint32_t kThreadsPerBlock = 128;  // the runner's and the replay's block

}  // namespace

std::string memoryKernelText(const Form& form, const std::string& kernelName) {
  std::ostringstream k;
  const bool shared = form.space == "shared", local = form.space == "local";
  const std::string words = "words_" + kernelName;
  if (shared) {
    k << ".shared .align 32 .b8 " << words << "[" << kWordBytes * kThreadsPerBlock << "];\n";
  }
  std::string registers = "  .reg .b64 %word, %copy;\n";
  if (local) registers += "  .local .align 32 .b8 " + words + "[" + std::to_string(kWordBytes) + "];\n";
  entryAndRecords(k, form, kernelName, registers);
  const uint32_t wordSlots = form.memory.slots();
  const uint32_t wordOut = form.outputs() - wordSlots;  // the word's first output slot
  // A load from global memory (ld, ld.global.nc, ldu) reads its word in the input record, which
  // no thread writes: .nc and ldu are defined only on memory the kernel leaves unchanged.
  const bool loadsOnly = std::none_of(form.operands.begin(), form.operands.end(),
                                      [](const Operand& o) { return o.role == OperandRole::Source; });
  const bool inInputRecord = loadsOnly && !shared && !local;
  if (inInputRecord) {
    k << "  mov.u64 %word, %addr2;\n";
    if (form.space.empty()) k << "  cvta.global.u64 %word, %word;\n";
  } else if (shared) {
    k << "  mov.u64 %word, " << words << ";\n  mul.wide.u32 %copy, %idx2, " << kWordBytes
      << ";\n  add.s64 %word, %word, %copy;\n";
  } else if (local) {
    k << "  mov.u64 %word, " << words << ";\n";
  } else {
    k << "  add.s64 %word, %addr3, " << 8 * wordOut << ";\n";
    if (form.space.empty()) k << "  cvta.global.u64 %word, %word;\n";
  }
  const std::string access = form.space.empty() ? "" : "." + form.space;
  for (uint32_t s = 0; s < wordSlots && !inInputRecord; ++s) {
    k << "  ld.global.b64 %copy, [%addr2+" << 8 * s << "];\n  st" << access << ".b64 [%word+" << 8 * s
      << "], %copy;\n";
  }
  loadSources(k, form, wordSlots);
  instruction(k, form, "%word");
  storeResults(k, form, 0);
  if (shared || local || inInputRecord) {
    for (uint32_t s = 0; s < wordSlots; ++s) {
      k << "  ld" << (inInputRecord ? ".global" : access) << ".b64 %copy, ["
        << (inInputRecord ? "%addr2" : "%word") << "+" << 8 * s << "];\n  st.global.b64 [%addr3+"
        << 8 * (wordOut + s) << "], %copy;\n";
    }
  }
  k << "DONE:\n  ret;\n}\n";
  return k.str();
}

}  // namespace ptxsim::conformance
