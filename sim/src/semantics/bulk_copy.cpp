// cp.async.bulk (the non-tensor bulk copies): global to shared and shared
// to shared completing on an mbarrier (mbarrier::complete_tx::bytes),
// shared to global in bulk groups, and cp.async.bulk.commit_group /
// wait_group{.read}.
//
// The functional model performs each copy when it is issued, then the
// complete-tx of its size on the mbarrier: one legal completion order,
// since a program must wait for the mbarrier's phase (or the bulk group)
// before it uses the destination. Without a cluster launch a
// .shared::cluster address is one of the CTA's own shared memory.
// The timing model sees the copy as one 16-byte access of its global side
// (or of shared memory): it has no model of the bulk-copy engine yet.

#include <cstring>

#include "../hex_text.h"
#include "lane_ops.h"
#include "mbarrier_access.h"
#include "semantics.h"
#include "wait_group_count.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

constexpr unsigned kBulkGranule = 16;  // size and both addresses are multiples of it

// aux: the source space; aux2: 1 when the copy completes on an mbarrier
// (operand 3), 0 for a bulk group. pi.space is the destination's.
void bulkCopyHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const auto sourceSpace = static_cast<AddressSpace>(pi.aux);
  const bool onMbarrier = pi.aux2 != 0;
  const uint64_t* dst = ctx.row(pi.ops[0].row);
  const uint64_t* src = ctx.row(pi.ops[1].row);
  const uint64_t* sizes = ctx.row(pi.ops[2].row);
  const bool globalSource = sourceSpace == AddressSpace::Global;
  const bool globalDestination = pi.space == AddressSpace::Global;
  ctx.recordAccess(globalSource ? AccessKind::Load : AccessKind::Store, globalSource ? sourceSpace : pi.space,
                   kBulkGranule);
  const std::string name(isa::mnemonicOf(pi.source->opcode));
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t from = pi.ops[1].effectiveAddress(src[l]);
    uint64_t to = pi.ops[0].effectiveAddress(dst[l]);
    auto size = static_cast<uint32_t>(sizes[l]);
    ctx.report.addresses[l] = globalDestination ? to : from;
    if (size % kBulkGranule != 0) {
      ctx.fail(LaunchErrorKind::MisalignedAddress,
               name + ": the size " + std::to_string(size) + " is not a multiple of 16 bytes", l);
      return;
    }
    for (uint64_t address : {from, to}) {
      if (address % kBulkGranule != 0) {
        ctx.fail(LaunchErrorKind::MisalignedAddress,
                 name + ": the " + (address == from ? "source" : "destination") + " address " + hex(address) +
                     " is not 16-byte aligned",
                 l);
        return;
      }
    }
    if (ctx.bulkCopies != nullptr) {
      ctx.bulkCopies->touch(globalSource ? from : to, size);
      ctx.bulkCopies->writesGlobal = globalDestination;
    }
    for (uint32_t offset = 0; offset < size; offset += kBulkGranule) {
      const uint8_t* p = ctx.access(sourceSpace, from + offset, kBulkGranule, l, AccessKind::Load);
      if (p == nullptr) return;
      uint8_t chunk[kBulkGranule];
      std::memcpy(chunk, p, kBulkGranule);
      uint8_t* q = ctx.access(pi.space, to + offset, kBulkGranule, l, AccessKind::Store);
      if (q == nullptr) return;
      std::memcpy(q, chunk, kBulkGranule);
    }
    if (onMbarrier) completeCopyTransaction(ctx, pi, pi.ops[3], l, size);
  });
  // The shared memory written is a write the livelock watch must see
  // (step() counts only a recorded store).
  if (globalSource && ctx.mask != 0) noteMemoryWrite(*ctx.cta);
}

// A destination (Space) or source (SecondSpace) state space word.
AddressSpace bulkSpaceOf(Mod space) {
  switch (space) {
    case Mod::Global:
    case Mod::SrcGlobal: return AddressSpace::Global;
    case Mod::SharedCta:
    case Mod::SharedCluster:
    case Mod::SrcSharedCta: return AddressSpace::Shared;
    default: return AddressSpace::Generic;
  }
}

bool selectBulkCopy(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (inst.modifiers.hasGroup(ModGroup::Multicast)) {
    why = "multicast needs a cluster launch, which the simulator does not model";
    return false;
  }
  if (inst.modifiers.hasGroup(ModGroup::Form)) {
    why = "this cp.async.bulk form";
    return false;
  }
  Mod destination = inst.modifiers.get(ModGroup::Space);
  Mod source = inst.modifiers.get(ModGroup::SecondSpace);
  Mod completion = inst.modifiers.get(ModGroup::CompletionMechanism);
  bool toShared = (destination == Mod::SharedCluster || destination == Mod::SharedCta) &&
                  completion == Mod::MbarrierCompleteTxBytes;
  bool sharedToShared = destination == Mod::SharedCluster && source == Mod::SrcSharedCta;
  bool fromGlobal = source == Mod::SrcGlobal;
  bool toGlobal = destination == Mod::Global && source == Mod::SrcSharedCta && completion == Mod::BulkGroup;
  if (!(toShared && (fromGlobal || sharedToShared)) && !toGlobal) {
    why = "this cp.async.bulk direction or completion mechanism";
    return false;
  }
  unsigned needed = toGlobal ? 3 : 4;
  unsigned withPolicy = needed + (inst.modifiers.hasGroup(ModGroup::CacheHint) ? 1 : 0);
  if (inst.operandCount != withPolicy) {
    why = "cp.async.bulk takes [dst], [src], size" + std::string(toGlobal ? "" : ", [mbar]") + " and, with " +
          ".L2::cache_hint, a cache policy";
    return false;
  }
  pi.space = bulkSpaceOf(destination);
  pi.aux = static_cast<uint64_t>(bulkSpaceOf(source));
  pi.aux2 = toGlobal ? 0 : 1;
  pi.handler = &bulkCopyHandler;
  return true;
}

// Copies complete when issued, so bulk groups have nothing left to wait for
// (the timing model decides when they are done: timing/sm_async_units.cpp).
void bulkGroupHandler(const PreparedInstruction&, ExecContext&) {}

bool selectBulkGroup(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc,
                     std::string& why) {
  pi.aux = 0;
  if (inst.opcode == Opcode::CpAsyncBulkWaitGroup && !selectWaitGroupCount(inst, pi, sc, why)) return false;
  pi.handler = &bulkGroupHandler;
  return true;
}

}  // namespace

void registerBulkCopySemantics(SemanticsTable& table) {
  table.add(Opcode::CpAsyncBulk, &selectBulkCopy);
  table.add(Opcode::CpAsyncBulkCommitGroup, &selectBulkGroup);
  table.add(Opcode::CpAsyncBulkWaitGroup, &selectBulkGroup);
}

}  // namespace ptxsim::sim::semantics
