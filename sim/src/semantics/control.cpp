// Control flow: bra, brx.idx, call (direct, indirect, built-in device
// runtime functions), ret, exit, trap, brkpt.

#include <algorithm>

#include "../exec/preparer.h"
#include "../exec/warp_control.h"
#include "device_runtime.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::Frame;
using exec::LaneMask;
using isa::Opcode;

void braHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  LaneMask taken = ctx.mask;
  ctx.report.taken = taken;
  ++ctx.stats.branchInstructions;
  if (taken != 0 && taken != ctx.active) ++ctx.stats.divergentBranches;
  exec::branch(ctx, taken, pi.source->branchTarget, pi.source->reconvergence);
}

bool selectBra(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.branchTarget == isa::kNone) {
    why = "branch through a register";
    return false;
  }
  pi.handler = &braHandler;
  pi.changesControl = true;
  return true;
}

// brx.idx: each lane jumps to table[index]. Lanes going to different
// targets diverge: each target gets its own stack entry, lowest target
// first, all meeting at the reconvergence point.
void brxHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (exec::splitOnGuard(ctx)) return;
  const std::vector<uint32_t>& table = ctx.frame->function->function->branchTables[pi.aux];
  const uint64_t* index = ctx.row(pi.ops[0].row);
  std::array<uint32_t, exec::kWarpSize> target{};
  bool bad = false;
  exec::forLanes(ctx.mask, [&](unsigned l) {
    uint32_t i = static_cast<uint32_t>(index[l]);
    if (bad) return;
    if (i >= table.size()) {
      ctx.fail(LaunchErrorKind::IllegalInstruction,
               "brx.idx index " + std::to_string(i) + " outside its " + std::to_string(table.size()) + "-entry table",
               l);
      bad = true;
      return;
    }
    target[l] = table[i];
  });
  if (bad) return;
  ++ctx.stats.branchInstructions;
  uint32_t first = target[static_cast<unsigned>(std::countr_zero(ctx.mask)) & 31];
  bool uniform = true;
  exec::forLanes(ctx.mask, [&](unsigned l) { uniform = uniform && target[l] == first; });
  if (uniform) {
    exec::branch(ctx, ctx.mask, first, pi.source->reconvergence);
    return;
  }
  ++ctx.stats.divergentBranches;
  std::vector<std::pair<uint32_t, LaneMask>> groups;
  exec::forLanes(ctx.mask, [&](unsigned l) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == target[l]; });
    if (it == groups.end()) {
      groups.emplace_back(target[l], LaneMask{1} << l);
    } else {
      it->second |= LaneMask{1} << l;
    }
  });
  // The lowest target is the last part: it runs first under the stack.
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  exec::diverge(ctx, groups, pi.source->reconvergence);
}

bool selectBrx(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string&) {
  pi.aux = sc.function.operands[inst.firstOperand + 1].index;
  pi.handler = &brxHandler;
  pi.changesControl = true;
  return true;
}

void callHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (exec::splitOnGuard(ctx)) return;
  const exec::PreparedFunction& caller = *ctx.frame->function;
  const exec::CallBinding& binding = caller.calls[pi.aux];
  const exec::PreparedKernel& kernel = ctx.grid.kernel;
  uint32_t callee = binding.callee;
  LaneMask lanes = ctx.mask;
  if (binding.calleeRow != UINT32_MAX) {
    // Indirect: lanes calling different functions run one function at a time.
    const uint64_t* address = ctx.row(binding.calleeRow);
    size_t count = kernel.module->functions.size();
    unsigned firstLane = static_cast<unsigned>(std::countr_zero(lanes));
    callee = exec::functionAt(address[firstLane], count);
    LaneMask same = 0;
    exec::forLanes(lanes,
                   [&](unsigned l) { same |= LaneMask{exec::functionAt(address[l], count) == callee} << l; });
    if (callee == UINT32_MAX || kernel.functions[callee] == nullptr) {
      char text[32];
      std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address[firstLane]));
      ctx.fail(LaunchErrorKind::InvalidPc, std::string("indirect call to ") + text + ", not a defined function",
               firstLane);
      return;
    }
    if (same != lanes) {
      // The lanes calling the first lane's function go now; the others stay
      // at the call, which runs again for them. All meet after it.
      uint32_t pc = ctx.warp->group().pc;
      exec::diverge(ctx, {{pc, lanes & ~same}, {pc, same}}, pc + 1);
      ctx.warp->current = static_cast<uint32_t>(ctx.warp->groups.size() - 1);  // the `same` part, newest
      lanes = same;
      ctx.active = ctx.mask = same;
    }
  }
  if (binding.builtin != exec::Builtin::None) {
    runBuiltin(ctx, binding, lanes);
    if (!ctx.aborted) exec::advance(ctx);
    return;
  }
  exec::enterFunction(ctx, *kernel.functions[callee], binding, lanes);
}

bool bindList(const isa::Operand& list, SelectContext& sc, std::vector<exec::ParamSlot>& out, std::string& why) {
  if (list.kind != isa::OperandKind::List) return true;
  for (uint32_t e = 0; e < list.count; ++e) {
    const isa::Operand& element = sc.function.operands[list.index + e];
    if (element.kind != isa::OperandKind::Symbol || element.scope != isa::SymbolScope::Local ||
        sc.function.locals[element.index].space != isa::StateSpace::Param) {
      why = "call arguments other than .param variables";
      return false;
    }
    out.push_back({sc.prepared.paramLocalOffsets[element.index], sc.function.locals[element.index].size});
  }
  return true;
}

bool selectCall(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  exec::CallBinding binding;
  const isa::Operand& callee = sc.function.operands[inst.firstOperand + 1];
  if (!bindList(sc.function.operands[inst.firstOperand], sc, binding.results, why)) return false;
  if (!bindList(sc.function.operands[inst.firstOperand + 2], sc, binding.arguments, why)) return false;
  if (callee.kind == isa::OperandKind::Function) {
    const isa::Function& target = sc.module.functions[callee.index];
    binding.callee = callee.index;
    if (!target.isDefined) {
      binding.builtin = builtinNamed(target.name);
      if (binding.builtin == exec::Builtin::None) {
        why = isDeviceRuntimeFunction(target.name)
                  ? "call to '" + target.name + "', a CUDA device runtime function ptxsim does not provide"
                  : "call to '" + target.name + "', which is declared but not defined in the module";
        return false;
      }
    }
  } else {
    binding.calleeRow = pi.ops[1].row;
  }
  pi.aux = sc.prepared.calls.size();
  sc.prepared.calls.push_back(std::move(binding));
  pi.handler = &callHandler;
  pi.changesControl = true;
  return true;
}

void retHandler(const PreparedInstruction&, ExecContext& ctx) {
  if (exec::splitOnGuard(ctx)) return;
  ++ctx.stats.branchInstructions;
  if (exec::inKernelFrame(ctx)) {
    exec::exitLanes(ctx, ctx.mask);
  } else {
    exec::returnLanes(ctx, ctx.mask);
  }
}

void exitHandler(const PreparedInstruction&, ExecContext& ctx) {
  if (exec::splitOnGuard(ctx)) return;
  ++ctx.stats.branchInstructions;
  exec::exitLanes(ctx, ctx.mask);
}

bool selectRet(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &retHandler;
  pi.changesControl = true;
  return true;
}

bool selectExit(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &exitHandler;
  pi.changesControl = true;
  return true;
}

void trapHandler(const PreparedInstruction&, ExecContext& ctx) {
  if (ctx.mask == 0) return;
  ctx.fail(LaunchErrorKind::Trap, "trap", static_cast<unsigned>(std::countr_zero(ctx.mask)));
}

void brkptHandler(const PreparedInstruction&, ExecContext& ctx) {
  if (ctx.mask == 0) return;
  ctx.fail(LaunchErrorKind::Breakpoint, "brkpt (breakpoint) with no debugger attached",
           static_cast<unsigned>(std::countr_zero(ctx.mask)));
}

bool selectTrap(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = inst.opcode == Opcode::Trap ? &trapHandler : &brkptHandler;
  return true;
}

}  // namespace

void registerControlSemantics(SemanticsTable& table) {
  table.add(Opcode::Bra, &selectBra);
  table.add(Opcode::BrxIdx, &selectBrx);
  table.add(Opcode::Call, &selectCall);
  table.add(Opcode::Ret, &selectRet);
  table.add(Opcode::Exit, &selectExit);
  table.add(Opcode::Trap, &selectTrap);
  table.add(Opcode::Brkpt, &selectTrap);
}

}  // namespace ptxsim::sim::semantics
