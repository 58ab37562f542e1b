#pragma once

// Finding an mbarrier object in memory for the mbarrier instructions and
// the bulk copies that complete on one (mbarrier.cpp, bulk_copy.cpp).

#include <string>

#include "../hex_text.h"
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

}  // namespace ptxsim::sim::semantics
