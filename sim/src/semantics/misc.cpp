// Instructions that steer the hardware rather than compute: the local-stack
// allocation trio (alloca, stacksave, stackrestore), and hints with no
// functional effect (griddepcontrol, setmaxnreg, createpolicy, discard,
// applypriority).

#include "../exec/warp_control.h"
#include "lane_ops.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::Opcode;

uint64_t uniformOperand(ExecContext& ctx, uint32_t row) {
  LaneMask lanes = ctx.mask != 0 ? ctx.mask : ctx.active;
  return ctx.row(row)[lanes == 0 ? 0 : std::countr_zero(lanes)];
}

// alloca.type d, size{, align}: carves the frame's local stack. The stack
// pointer is kept per frame, so the lanes of a warp allocate together; a
// size that differs between lanes takes the largest.
void allocaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  exec::Frame& frame = *ctx.frame;
  const uint64_t* size = ctx.row(pi.ops[1].row);
  uint64_t bytes = 0;
  forLanes(ctx.mask, [&](unsigned l) { bytes = std::max(bytes, size[l]); });
  uint64_t alignment = pi.operandCount > 2 ? uniformOperand(ctx, pi.ops[2].row) : 8;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) alignment = 8;
  uint64_t top = frame.localBase + frame.function->localFrameBytes + frame.dynamicLocal;
  uint64_t start = (top + alignment - 1) / alignment * alignment;
  if (start + bytes > ctx.grid.localBytesPerThread) {
    ctx.fail(LaunchErrorKind::StackOverflow,
             "alloca of " + std::to_string(bytes) + " bytes overflows the " +
                 std::to_string(ctx.grid.localBytesPerThread) + "-byte local stack (cudaLimitStackSize)",
             static_cast<unsigned>(std::countr_zero(ctx.mask | 1u)));
    return;
  }
  frame.dynamicLocal = start + bytes - frame.localBase - frame.function->localFrameBytes;
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = start; });
}

void stacksaveHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  exec::Frame& frame = *ctx.frame;
  uint64_t top = frame.localBase + frame.function->localFrameBytes + frame.dynamicLocal;
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = top; });
}

void stackrestoreHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (ctx.mask == 0) return;
  exec::Frame& frame = *ctx.frame;
  uint64_t top = uniformOperand(ctx, pi.ops[0].row);
  uint64_t floor = frame.localBase + frame.function->localFrameBytes;
  frame.dynamicLocal = top > floor ? top - floor : 0;
}

bool selectStack(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  switch (inst.opcode) {
    case Opcode::Alloca: pi.handler = &allocaHandler; break;
    case Opcode::Stacksave: pi.handler = &stacksaveHandler; break;
    default: pi.handler = &stackrestoreHandler; break;
  }
  return true;
}

// Functional no-ops: launch dependencies are met because grids run one after
// another; register budgets and cache policies do not change results;
// discard leaves memory undefined, and keeping the old bytes is one
// definition of it.
void hintHandler(const PreparedInstruction&, ExecContext&) {}

bool selectHint(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &hintHandler;
  return true;
}

// createpolicy returns an opaque cache-policy word; only ld/st hints read it.
void createpolicyHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = 0; });
}

bool selectCreatepolicy(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &createpolicyHandler;
  return true;
}

}  // namespace

// pmevent a / pmevent.mask a (__prof_trigger): raises performance-monitor
// events, which the hardware counts once per warp instruction. aux: the
// events' mask.
void pmeventHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  if (ctx.mask == 0) return;
  for (unsigned e = 0; e < kProfileTriggers; ++e) {
    if (((pi.aux >> e) & 1) != 0) ++ctx.stats.profileTriggers[e];
  }
}

bool selectPmevent(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  const isa::Operand& a = sc.function.operands[inst.firstOperand];
  if (a.kind != isa::OperandKind::Immediate) {
    why = "pmevent needs an immediate event number";
    return false;
  }
  bool mask = inst.modifiers.has(isa::Mod::PmeventMask);
  if (a.value < 0 || a.value > (mask ? 0xffff : 15)) {
    why = "pmevent event " + std::to_string(a.value) + " out of range";
    return false;
  }
  // Events 8..15 exist in the ISA but no profiler counter shows them.
  pi.aux = mask ? static_cast<uint64_t>(a.value) : uint64_t{1} << a.value;
  pi.handler = &pmeventHandler;
  return true;
}

void registerMiscSemantics(SemanticsTable& table) {
  table.add(Opcode::Pmevent, &selectPmevent);
  table.add(Opcode::Alloca, &selectStack);
  table.add(Opcode::Stacksave, &selectStack);
  table.add(Opcode::Stackrestore, &selectStack);
  table.add(Opcode::Griddepcontrol, &selectHint);
  table.add(Opcode::Setmaxnreg, &selectHint);
  table.add(Opcode::Discard, &selectHint);
  table.add(Opcode::Applypriority, &selectHint);
  table.add(Opcode::Createpolicy, &selectCreatepolicy);
}

}  // namespace ptxsim::sim::semantics
