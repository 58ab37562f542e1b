// cp.async (global to shared, 4/8/16 bytes a thread, with zero fill) and
// its group bookkeeping. The functional model performs each copy when it is
// issued, which is one legal completion order: a program must wait
// (cp.async.wait_group/wait_all) before reading the destination, and once
// it has waited it sees exactly these bytes.

#include <cstring>

#include "lane_ops.h"
#include "semantics.h"
#include "wait_group_count.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::Opcode;

// aux: bytes copied per thread (cp-size); aux2: 0 no fourth operand, 1 a
// source size, 2 an ignore-src predicate.
void cpAsyncHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* dst = ctx.row(pi.ops[0].row);
  const uint64_t* src = ctx.row(pi.ops[1].row);
  const uint64_t* extra = pi.aux2 != 0 ? ctx.row(pi.ops[3].row) : nullptr;
  auto size = static_cast<unsigned>(pi.aux);
  ctx.recordAccess(AccessKind::Load, AddressSpace::Global, size);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t from = pi.ops[1].effectiveAddress(src[l]);
    uint64_t to = pi.ops[0].effectiveAddress(dst[l]);
    ctx.report.addresses[l] = from;
    uint64_t valid = size;
    if (pi.aux2 == 1) valid = std::min<uint64_t>(extra[l] & 0xffffffffu, size);
    if (pi.aux2 == 2 && ((extra[l] != 0) != pi.ops[3].negated)) valid = 0;
    uint8_t bytes[16] = {};
    if (valid != 0) {
      const uint8_t* p = ctx.access(AddressSpace::Global, from, size, l, AccessKind::Load);
      if (p == nullptr) return;
      std::memcpy(bytes, p, valid);
    }
    uint8_t* q = ctx.access(AddressSpace::Shared, to, size, l, AccessKind::Store);
    if (q == nullptr) return;
    std::memcpy(q, bytes, size);
  });
  if (ctx.mask != 0) {
    ++ctx.stats.globalLoadInstructions;
    ++ctx.stats.sharedStoreInstructions;
  }
}

bool selectCpAsync(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  const isa::Operand& sizeOperand = sc.function.operands[inst.firstOperand + 2];
  if (sizeOperand.kind != isa::OperandKind::Immediate ||
      (sizeOperand.value != 4 && sizeOperand.value != 8 && sizeOperand.value != 16)) {
    why = "cp-size must be the constant 4, 8 or 16";
    return false;
  }
  if (inst.modifiers.has(isa::Mod::Cg) && sizeOperand.value != 16) {
    why = "cp.async.cg copies 16 bytes";
    return false;
  }
  pi.aux = static_cast<uint64_t>(sizeOperand.value);
  pi.aux2 = 0;
  if (inst.operandCount >= 4) {
    const isa::Operand& fourth = sc.function.operands[inst.firstOperand + 3];
    bool predicate = fourth.kind == isa::OperandKind::Register &&
                     sc.function.registers[fourth.index].type == isa::DataType::Pred;
    // With a cache policy the fourth operand may be the policy: only a
    // five-operand form or a register/immediate size is a source size.
    pi.aux2 = predicate ? 2 : (inst.operandCount == 5 || !inst.modifiers.hasGroup(isa::ModGroup::CacheHint)) ? 1 : 0;
  }
  pi.handler = &cpAsyncHandler;
  return true;
}

// Copies complete when issued, so groups have nothing left to wait for
// (the timing model decides when they land: sm_model.cpp).
void groupHandler(const PreparedInstruction&, ExecContext&) {}

// aux: wait_group's N, the most recent groups it leaves in flight.
bool selectGroup(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  pi.aux = 0;
  if (inst.opcode == Opcode::CpAsyncWaitGroup && !selectWaitGroupCount(inst, pi, sc, why)) return false;
  pi.handler = &groupHandler;
  return true;
}

}  // namespace

void registerAsyncCopySemantics(SemanticsTable& table) {
  table.add(Opcode::CpAsync, &selectCpAsync);
  table.add(Opcode::CpAsyncCommitGroup, &selectGroup);
  table.add(Opcode::CpAsyncWaitGroup, &selectGroup);
  table.add(Opcode::CpAsyncWaitAll, &selectGroup);
}

}  // namespace ptxsim::sim::semantics
