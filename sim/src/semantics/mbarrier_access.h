#pragma once

// Finding an mbarrier object in memory for the mbarrier instructions and
// the bulk copies that complete on one (mbarrier.cpp, bulk_copy.cpp).

#include <cstring>
#include <string>

#include "../hex_text.h"
#include "mbarrier_state.h"
#include "ptxsim/memory/generic_address.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

struct MbarrierSlot {
  uint8_t* bytes = nullptr;  // the object's 8 bytes; null once the launch has failed
  uint64_t address = 0;      // its shared-window offset, for messages
};

// The mbarrier object that address operand `op` names for `lane`: in
// shared memory (`space` Shared: .shared, .shared::cta, and .shared::cluster,
// which without a cluster launch is the CTA's own shared memory), or at a
// generic address that must fall in the shared window. Checked (8-byte
// aligned, inside the CTA's shared memory); the access is recorded as an
// atomic update, or a load when `read`.
inline MbarrierSlot mbarrierSlot(ExecContext& ctx, const PreparedInstruction& pi, const PreparedOperand& op,
                                 exec::AddressSpace space, unsigned lane, bool read) {
  MbarrierSlot slot;
  uint64_t address = op.effectiveAddress(ctx.row(op.row)[lane]);
  ctx.report.addresses[lane] = address;
  if (space == exec::AddressSpace::Generic) {
    if (memory::classify(ctx.layout, address) != memory::Window::Shared) {
      ctx.fail(LaunchErrorKind::IllegalAddress,
               std::string(isa::mnemonicOf(pi.source->opcode)) + ": the mbarrier's generic address " +
                   hex(address) + " is not in shared memory",
               lane);
      return slot;
    }
    address -= ctx.layout.sharedBase;
  } else if (space != exec::AddressSpace::Shared) {
    ctx.fail(LaunchErrorKind::IllegalAddress,
             std::string(isa::mnemonicOf(pi.source->opcode)) + ": an mbarrier must be in shared memory",
             lane);
    return slot;
  }
  slot.address = address;
  slot.bytes = ctx.access(exec::AddressSpace::Shared, address, 8, lane,
                          read ? exec::AccessKind::Load : exec::AccessKind::Atomic);
  return slot;
}

// The complete-tx of `bytes` that a copy performs for `lane` on the
// mbarrier at `address` (.shared::cluster: the executing CTA's own, or
// another CTA's of its cluster, as multicast copies reach them); false
// after the launch has failed.
inline bool completeTransactionAt(ExecContext& ctx, const PreparedInstruction& pi, uint64_t address, unsigned lane,
                                  uint32_t bytes) {
  MbarrierSlot slot;
  slot.address = address;
  slot.bytes = ctx.access(exec::AddressSpace::Shared, address, 8, lane, exec::AccessKind::Atomic);
  if (slot.bytes == nullptr) return false;
  uint64_t bits;
  std::memcpy(&bits, slot.bytes, 8);
  mbarrier::Object object = mbarrier::decode(bits);
  mbarrier::Fault fault = mbarrier::completeCopyTx(object, bytes);
  if (fault != mbarrier::Fault::None) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             std::string(isa::mnemonicOf(pi.source->opcode)) + ": complete-tx on the mbarrier at shared address " +
                 hex(slot.address) + ": " + mbarrier::describe(fault),
             lane);
    return false;
  }
  bits = mbarrier::encode(object);
  std::memcpy(slot.bytes, &bits, 8);
  return true;
}

// A bulk or tensor copy's complete-tx on the mbarrier at `address`: now,
// or, under the timing driver, when its data arrives (bulk_copy_log.h).
inline bool completeCopyTransactionAt(ExecContext& ctx, const PreparedInstruction& pi, uint64_t address,
                                      unsigned lane, uint32_t bytes) {
  if (ctx.bulkCopies == nullptr) return completeTransactionAt(ctx, pi, address, lane, bytes);
  ctx.bulkCopies->completions.push_back({address, bytes, lane});
  return true;
}

// The same for the mbarrier at operand `op` (the bulk copies).
inline bool completeCopyTransaction(ExecContext& ctx, const PreparedInstruction& pi, const PreparedOperand& op,
                                    unsigned lane, uint32_t bytes) {
  uint64_t address = op.effectiveAddress(ctx.row(op.row)[lane]);
  ctx.report.addresses[lane] = address;
  return completeCopyTransactionAt(ctx, pi, address, lane, bytes);
}

}  // namespace ptxsim::sim::semantics
