#include "shared_layout.h"

#include <algorithm>

namespace ptxsim::sim::exec {

namespace {

using isa::Operand;
using isa::OperandKind;
using isa::StateSpace;
using isa::SymbolScope;

// `.extern .shared` arrays, and unsized shared arrays declared in a body,
// are the dynamic shared memory the launch sizes.
bool isDynamicShared(const isa::Variable& v) {
  return v.space == StateSpace::Shared && (v.isExtern || v.size == 0);
}

}  // namespace

KernelReach reachOf(const isa::Module& module, uint32_t kernelIndex,
                    const std::vector<uint32_t>& addressTaken) {
  KernelReach reach;
  reach.functions.assign(module.functions.size(), false);
  reach.globals.assign(module.globals.size(), false);
  std::vector<uint32_t> pending;
  auto addFunction = [&](uint32_t f) {
    if (f < reach.functions.size() && !reach.functions[f]) {
      reach.functions[f] = true;
      pending.push_back(f);
    }
  };
  auto addSymbol = [&](uint32_t symbol) {
    if (symbol >= module.symbols.size()) return;
    const isa::Symbol& s = module.symbols[symbol];
    if (s.kind == isa::SymbolKind::Variable && s.index < reach.globals.size()) reach.globals[s.index] = true;
    if (s.kind == isa::SymbolKind::Function) addFunction(s.index);
  };
  for (uint32_t f : addressTaken) addFunction(f);
  addFunction(kernelIndex);
  while (!pending.empty()) {
    const isa::Function& fn = module.functions[pending.back()];
    pending.pop_back();
    for (const Operand& op : fn.operands) {
      if (op.kind == OperandKind::Function) addFunction(op.index);
      if ((op.kind == OperandKind::Symbol || op.kind == OperandKind::Address) &&
          op.scope == SymbolScope::Module) {
        addSymbol(op.index);
      }
    }
  }
  // Variables whose initializers hold reached variables' addresses reach them too.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t g = 0; g < module.globals.size(); ++g) {
      if (!reach.globals[g]) continue;
      for (const isa::Relocation& r : module.globals[g].relocations) {
        if (r.symbol >= module.symbols.size()) continue;
        const isa::Symbol& s = module.symbols[r.symbol];
        if (s.kind == isa::SymbolKind::Variable && s.index < reach.globals.size() &&
            !reach.globals[s.index]) {
          reach.globals[s.index] = true;
          changed = true;
        }
      }
    }
  }
  return reach;
}

std::vector<uint32_t> addressTakenFunctions(const isa::Module& module) {
  std::vector<uint32_t> taken;
  auto add = [&](uint32_t symbol) {
    if (symbol < module.symbols.size() && module.symbols[symbol].kind == isa::SymbolKind::Function) {
      taken.push_back(module.symbols[symbol].index);
    }
  };
  for (const isa::Variable& v : module.globals) {
    for (const isa::Relocation& r : v.relocations) add(r.symbol);
  }
  for (const isa::Function& fn : module.functions) {
    for (const isa::Instruction& inst : fn.instructions) {
      if (inst.opcode == isa::Opcode::Call) continue;
      for (unsigned i = 0; i < inst.operandCount; ++i) {
        const Operand& op = fn.operands[inst.firstOperand + i];
        if (op.kind == OperandKind::Function) taken.push_back(op.index);
        if (op.kind == OperandKind::Symbol && op.scope == SymbolScope::Module) add(op.index);
      }
    }
  }
  return taken;
}

SharedLayout layOutShared(const isa::Module& module, const KernelReach& reach) {
  SharedLayout layout;
  layout.moduleOffsets.assign(module.globals.size(), 0);
  uint64_t offset = 0;
  uint64_t dynamicAlignment = 16;
  for (size_t i = 0; i < module.globals.size(); ++i) {
    const isa::Variable& v = module.globals[i];
    if (v.space != StateSpace::Shared || !reach.globals[i]) continue;
    if (isDynamicShared(v)) {
      dynamicAlignment = std::max<uint64_t>(dynamicAlignment, v.alignment);
      continue;
    }
    offset = alignUp(offset, v.alignment);
    layout.moduleOffsets[i] = offset;
    offset += v.size;
  }
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    const isa::Function& fn = module.functions[f];
    if (!reach.functions[f]) continue;
    for (uint32_t l = 0; l < fn.locals.size(); ++l) {
      const isa::Variable& v = fn.locals[l];
      if (v.space != StateSpace::Shared) continue;
      if (isDynamicShared(v)) {
        dynamicAlignment = std::max<uint64_t>(dynamicAlignment, v.alignment);
        continue;
      }
      offset = alignUp(offset, v.alignment);
      layout.local[{f, l}] = offset;
      offset += v.size;
    }
  }
  layout.staticBytes = offset;
  layout.dynamicOffset = alignUp(offset, dynamicAlignment);
  for (size_t i = 0; i < module.globals.size(); ++i) {
    if (isDynamicShared(module.globals[i])) layout.moduleOffsets[i] = layout.dynamicOffset;
  }
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    for (uint32_t l = 0; l < module.functions[f].locals.size(); ++l) {
      if (isDynamicShared(module.functions[f].locals[l])) layout.local[{f, l}] = layout.dynamicOffset;
    }
  }
  return layout;
}

}  // namespace ptxsim::sim::exec
