#include "code_layout.h"

#include "../align_up.h"
#include "pipeline_of.h"
#include "warp_uniform.h"
#include "ptxsim/isa/operand_access.h"

namespace ptxsim::sim::timing {

namespace {

constexpr unsigned kFunctionAddressBits = 24;
constexpr unsigned kModuleAddressBits = 40;
// ptxas starts each function on a 128-byte boundary (NOPs fill the gap).
constexpr uint64_t kFunctionAlignBytes = 128;

// The operand collector reads the register-file banks for the arithmetic
// pipelines; memory, control and warp-wide instructions take their operands
// on the MIO path.
bool readsThroughBanks(Pipeline pipe) {
  switch (pipe) {
    case Pipeline::Fp32:
    case Pipeline::Int:
    case Pipeline::IntHigh:
    case Pipeline::Fp64:
    case Pipeline::Fp16:
    case Pipeline::Mufu:
    case Pipeline::Conversion: return true;
    default: return false;
  }
}

// The registers only ever set to an immediate by a move that vanishes in
// SASS: ptxas makes them immediate operands (or hoists them out of the
// loop), so they read no register bank (nvcc's `mov.f32 %f35, 0f3F7FF972;`
// before each FMA that uses it).
std::vector<bool> immediateRegisters(const isa::Function& fn) {
  enum class Sets : uint8_t { Nothing, Immediates, Other };
  std::vector<Sets> sets(fn.registers.size(), Sets::Nothing);
  for (const isa::Instruction& inst : fn.instructions) {
    bool setsImmediate = inst.opcode == isa::Opcode::Mov && vanishesInSass(fn, inst) &&
                         fn.operands[inst.firstOperand + 1].kind != isa::OperandKind::Register;
    for (unsigned i = 0; i < inst.operandCount; ++i) {
      const isa::Operand& op = fn.operands[inst.firstOperand + i];
      if (op.kind != isa::OperandKind::Register || isa::operandAccess(inst, i) == isa::OperandAccess::Read) continue;
      if (!setsImmediate) {
        sets[op.index] = Sets::Other;
      } else if (sets[op.index] == Sets::Nothing) {
        sets[op.index] = Sets::Immediates;
      }
    }
  }
  std::vector<bool> immediate(sets.size());
  for (size_t r = 0; r < sets.size(); ++r) immediate[r] = sets[r] == Sets::Immediates;
  return immediate;
}

// A register's bank: its number in the PTX name (%f17: 17), as nvcc numbers
// each type's registers in order; ptxas's own allocation is not in the PTX.
OperandSources sourcesOf(const isa::Function& fn, const isa::Instruction& inst, uint32_t banks,
                         const std::vector<bool>& immediate) {
  OperandSources sources;
  size_t slot = 0;
  for (unsigned i = 0; i < inst.operandCount && slot < sources.reg.size(); ++i) {
    if (isa::operandAccess(inst, i) != isa::OperandAccess::Read) continue;
    const isa::Operand& op = fn.operands[inst.firstOperand + i];
    if (op.kind != isa::OperandKind::Register || immediate[op.index]) continue;
    const isa::RegisterInfo& info = fn.registers[op.index];
    if (isa::typeKind(info.type) == isa::TypeKind::Predicate) continue;
    uint32_t number = info.number != isa::kNone ? info.number : op.index;
    sources.reg[slot] = op.index;
    sources.bank[slot] = static_cast<uint8_t>(number % banks);
    ++slot;
  }
  return sources;
}

}  // namespace

CodeLayout::CodeLayout(const exec::PreparedKernel& kernel, uint32_t moduleNumber, const TimingConfig& timing) {
  facts_.resize(kernel.functions.size());
  for (size_t f = 0; f < kernel.functions.size(); ++f) {
    const exec::PreparedFunction* fn = kernel.functions[f].get();
    if (fn == nullptr) continue;
    const uint64_t start = (uint64_t{moduleNumber} << kModuleAddressBits) | (uint64_t{f} << kFunctionAddressBits);
    uint64_t address = start;
    std::vector<InstructionFacts>& facts = facts_[f];
    facts.resize(fn->code.size());
    bool hasAtomics = false;
    for (const exec::PreparedInstruction& pi : fn->code)
      hasAtomics |= pi.source->opcode == isa::Opcode::Atom || pi.source->opcode == isa::Opcode::Red;
    if (hasAtomics) {
      WarpUniformity uniformity(*fn->function);
      for (size_t k = 0; k < fn->code.size(); ++k)
        facts[k].aggregatedAtomic = uniformity.aggregatesAtomic(*fn->code[k].source);
    }
    const std::vector<bool> immediate = immediateRegisters(*fn->function);
    for (size_t k = 0; k < fn->code.size(); ++k) {
      const isa::Instruction& inst = *fn->code[k].source;
      facts[k].address = address;
      const SassAround around = sassAround(inst);
      facts[k].addedSass = around.addedInstructions;
      facts[k].latencyCycles = around.form == MufuForm::Scaled    ? timing.mufuScaledLatencyCycles
                               : around.form == MufuForm::Reduced ? timing.mufuReducedLatencyCycles
                                                                  : 0;
      if (!vanishesInSass(*fn->function, inst))
        address += uint64_t{timing.fetch.instructionBytes} * (1 + facts[k].addedSass);
      if (readsThroughBanks(pipelineOf(inst))) {
        facts[k].sources = sourcesOf(*fn->function, inst, timing.sm.registerBanks, immediate);
      }
    }
    const uint64_t withSelfBranch = address - start + timing.fetch.instructionBytes;
    sassBytes_ += alignUp(withSelfBranch, kFunctionAlignBytes);
  }
}

}  // namespace ptxsim::sim::timing
