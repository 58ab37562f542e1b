#pragma once

// What a handler sees while it runs one warp instruction: the warp, its
// current frame and CTA, which lanes execute, device memory through checked
// accessors, and the step report that tells a timing model what happened.

#include <array>
#include <cstdint>
#include <string>

#include "bulk_copy_log.h"
#include "cta_state.h"
#include "grid_context.h"
#include "prepared.h"
#include "ptxsim/memory/generic_address.h"
#include "ptxsim/sim/kernel_stats.h"
#include "store_overlay.h"
#include "warp_state.h"

namespace ptxsim::sim::exec {

using sim::AccessKind;
using sim::StepReport;

struct ExecContext {
  explicit ExecContext(GridContext& g) : grid(g) {}

  GridContext& grid;
  CtaState* cta = nullptr;
  Warp* warp = nullptr;
  Frame* frame = nullptr;
  LaneMask active = 0;  // lanes at this PC
  LaneMask mask = 0;    // lanes that execute: active and guard true
  LaneMask synced = 0;  // lanes of other groups a bar.warp.sync released with this step
  bool memoryUnchanged = false;  // an atomic that wrote nothing (every compare failed)
  // The handler ends the warp's turn: a wait (mbarrier.try_wait) found
  // nothing done, and the warps that will finish it should run first.
  bool yieldTurn = false;
  StepReport report;
  KernelStats stats;
  bool aborted = false;  // a fault stopped the CTA
  memory::GenericLayout layout;
  // The timing driver's windows: global stores go here, not to memory, and
  // loads see them (store_overlay.h); null otherwise. Atomics must not run
  // while it is set (the driver defers them).
  StoreOverlay* overlay = nullptr;
  // The timing driver's log of the bulk copies an instruction issued
  // (bulk_copy_log.h); null otherwise.
  BulkCopyLog* bulkCopies = nullptr;

  // One register, scratch or constant row.
  uint64_t* row(uint32_t r) const { return rowOf(*frame, r); }
  const uint32_t* vectorRows(const PreparedOperand& op) const {
    return frame->function->vectorRows.data() + op.firstElement;
  }

  // Host bytes for `size` bytes at `address` in `space` on behalf of
  // `lane`, checked; null after the fault has been reported (the CTA then
  // stops). Writes to global memory create the page.
  uint8_t* access(AddressSpace space, uint64_t address, unsigned size, unsigned lane, AccessKind kind) {
    // Fast paths, inline: an aligned shared access inside the CTA's shared
    // memory, and a global access to the page and allocation last used.
    if ((address & (size - 1)) == 0) {
      if (space == AddressSpace::Shared && address < cta->shared.size() && cta->shared.size() - address >= size) {
        return cta->shared.data() + address;
      }
      if ((space == AddressSpace::Global || space == AddressSpace::Generic) &&
          address - cachedAllocationBase_ < cachedAllocationSize_ &&
          cachedAllocationSize_ - (address - cachedAllocationBase_) >= size) {
        uint8_t* bytes = nullptr;
        if (cachedHost_ != nullptr) {
          bytes = cachedHost_ + (address - cachedAllocationBase_);
        } else if ((address >> memory::PageStore::kPageBits) == cachedPage_) {
          bytes = cachedPageBytes_ + (address & (memory::PageStore::kPageSize - 1));
        }
        if (bytes != nullptr) return overlay == nullptr ? bytes : overlaid(address, size, kind, bytes);
      }
    }
    return accessChecked(space, address, size, lane, kind);
  }

  // Reports an error for `lane` at the current instruction and stops the CTA.
  void fail(LaunchErrorKind kind, const std::string& what, unsigned lane);
  // "kernel K, block (x,y,z), thread (x,y,z), FILE:LINE" for messages.
  std::string where(unsigned lane) const;

  void recordAccess(AccessKind kind, AddressSpace space, unsigned bytes) {
    report.access = kind;
    report.space = space;
    report.accessBytes = static_cast<uint8_t>(bytes);
  }

  const PreparedInstruction* current = nullptr;

 private:
  uint8_t* accessChecked(AddressSpace space, uint64_t address, unsigned size, unsigned lane, AccessKind kind);
  uint8_t* global(uint64_t address, unsigned size, unsigned lane, AccessKind kind, AddressSpace space);
  // `memoryBytes` (global memory at `address`, in the cached allocation) or
  // the overlay's copy.
  uint8_t* overlaid(uint64_t address, unsigned size, AccessKind kind, uint8_t* memoryBytes);
  // Shared memory: the CTA's own, or through a .shared::cluster address
  // another CTA's of its cluster (cluster_shared_address.h).
  uint8_t* shared(uint64_t address, unsigned size, unsigned lane, AccessKind kind);
  uint8_t* window(uint8_t* base, uint64_t limit, uint64_t address, unsigned size, unsigned lane,
                  AccessKind kind, AddressSpace space);
  void reportFault(AccessKind kind, AddressSpace space, uint64_t address, unsigned size, unsigned lane,
                   LaunchErrorKind errorKind, const std::string& why);
  // An access outside memory: a fault (null), or under --memcheck=report
  // a report and bytes that stand in for the memory (memcheck.h).
  uint8_t* outOfBounds(AccessKind kind, AddressSpace space, uint64_t address, unsigned size, unsigned lane,
                       const std::string& why);
  // "invalid global read of 4 bytes at 0x... (why)".
  static std::string badAccessText(AccessKind kind, AddressSpace space, uint64_t address, unsigned size,
                                   const std::string& why);

  // The last global allocation and page hit, so streaming accesses skip the
  // look-ups.
  uint64_t cachedAllocationBase_ = 0;
  uint64_t cachedAllocationSize_ = 0;
  uint8_t* cachedHost_ = nullptr;  // the cached allocation's host bytes, if host-backed
  uint64_t cachedPage_ = UINT64_MAX;
  uint8_t* cachedPageBytes_ = nullptr;
  // What --memcheck=report's bad accesses touch in place of memory: reads
  // see zeros, writes and atomics land where nothing reads them. As large
  // as the widest access (a vector of four 16-byte elements, twice).
  static constexpr unsigned kStandInBytes = 128;
  alignas(16) std::array<uint8_t, kStandInBytes> zeros_{};
  alignas(16) std::array<uint8_t, kStandInBytes> discarded_{};
};

}  // namespace ptxsim::sim::exec
