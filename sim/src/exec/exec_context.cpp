#include "exec_context.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "../hex_text.h"
#include "ptxsim/memory/cluster_shared_address.h"

namespace ptxsim::sim::exec {

namespace {

const char* spaceWord(AddressSpace space) {
  switch (space) {
    case AddressSpace::Generic: return "generic";
    case AddressSpace::Global: return "global";
    case AddressSpace::Shared: return "shared";
    case AddressSpace::Local: return "local";
    case AddressSpace::Const: return "constant";
    case AddressSpace::Param:
    case AddressSpace::KernelParam: return "parameter";
    case AddressSpace::Texture: return "texture";
  }
  return "?";
}

const char* accessWord(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load: return "read";
    case AccessKind::Store: return "write";
    case AccessKind::Atomic: return "atomic";
    case AccessKind::None: break;
  }
  return "access";
}

}  // namespace

std::string ExecContext::where(unsigned lane) const {
  const isa::Function& kernelFn = *grid.kernel.kernel().function;
  std::string text = "kernel " + kernelFn.name;
  if (cta != nullptr) {
    text += ", block (" + std::to_string(cta->ctaid.x) + "," + std::to_string(cta->ctaid.y) + "," +
            std::to_string(cta->ctaid.z) + ")";
  }
  if (warp != nullptr) {
    const auto& t = warp->tid[lane];
    text += ", thread (" + std::to_string(t[0]) + "," + std::to_string(t[1]) + "," + std::to_string(t[2]) + ")";
  }
  if (current != nullptr && frame != nullptr) {
    const isa::Instruction& inst = *current->source;
    const isa::Function& fn = *frame->function->function;
    text += ", PTX line " + std::to_string(inst.where.line);
    if (&fn != &kernelFn) text += " in function " + fn.name;
    if (inst.debug.line != 0) {
      const auto& files = grid.kernel.module->files;
      auto it = files.find(inst.debug.file);
      text += " (" + (it != files.end() ? it->second : std::string("?")) + ":" + std::to_string(inst.debug.line) + ")";
    }
  }
  return text;
}

void ExecContext::fail(LaunchErrorKind kind, const std::string& what, unsigned lane) {
  grid.fail(cta != nullptr ? cta->linearId : 0, kind, what + " in " + where(lane));
  aborted = true;
}

std::string ExecContext::badAccessText(AccessKind kind, AddressSpace space, uint64_t address, unsigned size,
                                       const std::string& why) {
  return "invalid " + std::string(spaceWord(space)) + " " + accessWord(kind) + " of " + std::to_string(size) +
         " bytes at " + hex(address) + " (" + why + ")";
}

void ExecContext::reportFault(AccessKind kind, AddressSpace space, uint64_t address, unsigned size, unsigned lane,
                              LaunchErrorKind errorKind, const std::string& why) {
  fail(errorKind, badAccessText(kind, space, address, size, why), lane);
}

uint8_t* ExecContext::outOfBounds(AccessKind kind, AddressSpace space, uint64_t address, unsigned size,
                                  unsigned lane, const std::string& why) {
  const bool atInstruction = current != nullptr && frame != nullptr && cta != nullptr && warp != nullptr;
  if (grid.options.memcheck != MemcheckMode::Report || size > kStandInBytes || !atInstruction) {
    reportFault(kind, space, address, size, lane, LaunchErrorKind::IllegalAddress, why);
    return nullptr;
  }
  const PreparedFunction& fn = *frame->function;
  MemcheckReports::Site site{current->source->where.line, fn.index,
                             static_cast<uint32_t>(current - fn.code.data()), kind};
  grid.memcheckReports.record(site, {cta->linearId, warp->index}, [&] {
    const char* outcome = kind == AccessKind::Load ? "the read returned zeros" : "the access was dropped";
    return "ptxsim: memcheck: " + badAccessText(kind, space, address, size, why) + " in " + where(lane) +
           "; " + outcome;
  });
  if (kind == AccessKind::Load) return zeros_.data();
  // An atomic returns the old value it finds: zero, as a read would.
  std::fill_n(discarded_.begin(), size, uint8_t{0});
  return discarded_.data();
}

uint8_t* ExecContext::window(uint8_t* base, uint64_t limit, uint64_t address, unsigned size, unsigned lane,
                             AccessKind kind, AddressSpace space) {
  if (address > limit || limit - address < size) {
    return outOfBounds(
        kind, space, address, size, lane,
        "out of bounds of the " + std::to_string(limit) + "-byte " + spaceWord(space) + " window");
  }
  return base + address;
}

uint8_t* ExecContext::global(uint64_t address, unsigned size, unsigned lane, AccessKind kind, AddressSpace space) {
  if (address - cachedAllocationBase_ >= cachedAllocationSize_ ||
      cachedAllocationSize_ - (address - cachedAllocationBase_) < size) {
    memory::AccessCheck check = grid.allocations.check(address, size);
    if (check.status != memory::AccessStatus::Ok) {
      std::string why;
      if (check.status == memory::AccessStatus::Freed) {
        why = "inside a freed " + std::to_string(check.allocation->size) + "-byte allocation at " +
              hex(check.allocation->base);
      } else if (check.allocation != nullptr) {
        const memory::Allocation& a = *check.allocation;
        uint64_t end = a.base + a.size;
        why = address >= end ? std::to_string(address - end) + " bytes after the end of"
                             : "overrunning the end of";
        why += " the " + std::to_string(a.size) + "-byte allocation " +
               (a.label.empty() ? std::string() : "'" + a.label + "' ") + "at " + hex(a.base);
      } else {
        why = "not inside any allocation";
      }
      return outOfBounds(kind, space, address, size, lane, why);
    }
    cachedAllocationBase_ = check.allocation->base;
    cachedAllocationSize_ = check.allocation->size;
    cachedHost_ = check.allocation->host;
  }
  if (cachedHost_ != nullptr) {
    uint8_t* bytes = cachedHost_ + (address - cachedAllocationBase_);
    return overlay == nullptr ? bytes : overlaid(address, size, kind, bytes);
  }
  uint64_t page = address >> memory::PageStore::kPageBits;
  if (page != cachedPage_) {
    // With an overlay a store only reads memory (its sector's first copy).
    if (kind == AccessKind::Load || overlay != nullptr) {
      const uint8_t* bytes = grid.store.pageForRead(address);
      // Never cache a page that does not exist yet: another CTA may create it.
      uint64_t offset = address & (memory::PageStore::kPageSize - 1);
      if (grid.store.isUnbacked(bytes)) {
        uint8_t* unbacked = const_cast<uint8_t*>(bytes) + offset;
        return overlay == nullptr ? unbacked : overlaid(address, size, kind, unbacked);
      }
      cachedPageBytes_ = const_cast<uint8_t*>(bytes);
    } else {
      cachedPageBytes_ = grid.store.pageForWrite(address);
    }
    cachedPage_ = page;
  }
  uint8_t* bytes = cachedPageBytes_ + (address & (memory::PageStore::kPageSize - 1));
  return overlay == nullptr ? bytes : overlaid(address, size, kind, bytes);
}

uint8_t* ExecContext::overlaid(uint64_t address, unsigned size, AccessKind kind, uint8_t* memoryBytes) {
  switch (kind) {
    case AccessKind::Load: {
      if (overlay->empty()) return memoryBytes;
      uint8_t* copy = overlay->find(address);
      return copy != nullptr ? copy : memoryBytes;
    }
    case AccessKind::Store: {
      const uint64_t sector = address & ~(StoreOverlay::kSectorBytes - 1);
      uint8_t* hostSector =
          cachedHost_ != nullptr ? cachedHost_ + (sector - cachedAllocationBase_) : nullptr;
      return overlay->store(address, size, memoryBytes, cachedAllocationBase_,
                            cachedAllocationBase_ + cachedAllocationSize_, hostSector);
    }
    default:
      // The timing driver runs atomics between windows, with no overlay; one
      // here would change memory other SMs read in the same window.
      throw std::logic_error("internal: an atomic on global memory ran inside a timing window");
  }
}

uint8_t* ExecContext::shared(uint64_t address, unsigned size, unsigned lane, AccessKind kind) {
  memory::ClusterSharedAddress at = memory::decodeClusterShared(address);
  if (at.own)
    return window(cta->shared.data(), cta->shared.size(), address, size, lane, kind, AddressSpace::Shared);
  // Another CTA's shared memory, through the .shared::cluster window
  // (cluster_shared_address.h); the cluster's CTAs share this host thread.
  CtaState* target = clusterCta(*cta, at.rank);
  if (target == nullptr) {
    return outOfBounds(
        kind, AddressSpace::Shared, address, size, lane,
        "a .shared::cluster address of rank " + std::to_string(at.rank) + ", outside the cluster of " +
            std::to_string(cta->cluster != nullptr ? cta->cluster->ctas.size() : 1) + " blocks");
  }
  if (target->finished) {
    return outOfBounds(kind, AddressSpace::Shared, address, size, lane,
                       "the shared memory of rank " + std::to_string(at.rank) + " of the cluster, block (" +
                           std::to_string(target->ctaid.x) + "," + std::to_string(target->ctaid.y) + "," +
                           std::to_string(target->ctaid.z) + "), which has exited");
  }
  if (at.offset > target->shared.size() || target->shared.size() - at.offset < size) {
    return outOfBounds(kind, AddressSpace::Shared, address, size, lane,
                       "offset " + std::to_string(at.offset) + " is out of bounds of the " +
                           std::to_string(target->shared.size()) + "-byte shared memory of rank " +
                           std::to_string(at.rank) + " of the cluster");
  }
  return target->shared.data() + at.offset;
}

uint8_t* ExecContext::accessChecked(AddressSpace space, uint64_t address, unsigned size, unsigned lane,
                                    AccessKind kind) {
  if ((address & (size - 1)) != 0) {
    reportFault(kind, space, address, size, lane, LaunchErrorKind::MisalignedAddress,
                "not aligned to " + std::to_string(size) + " bytes");
    return nullptr;
  }
  switch (space) {
    case AddressSpace::Generic:
      switch (memory::classify(layout, address)) {
        case memory::Window::Shared: return shared(address - layout.sharedBase, size, lane, kind);
        case memory::Window::Local:
          return window(warp->local.data() + lane * grid.localBytesPerThread, grid.localBytesPerThread,
                        address - layout.localBase, size, lane, kind, AddressSpace::Local);
        case memory::Window::Param:
          return accessChecked(AddressSpace::KernelParam, address - layout.paramBase, size, lane, kind);
        case memory::Window::Global: return global(address, size, lane, kind, AddressSpace::Generic);
      }
      return nullptr;
    case AddressSpace::Global: return global(address, size, lane, kind, space);
    case AddressSpace::Texture: break;  // texels are read from the page store by the sampler
    case AddressSpace::Const:
      // A bank offset (from cvta.to.const) or a variable's device address.
      if (address < memory::AllocationTable::kFirstAddress && grid.constantBankBase != 0) {
        address += grid.constantBankBase;
      }
      return global(address, size, lane, kind, space);
    case AddressSpace::Shared: return shared(address, size, lane, kind);
    case AddressSpace::Local:
      return window(warp->local.data() + lane * grid.localBytesPerThread, grid.localBytesPerThread, address, size,
                    lane, kind, space);
    case AddressSpace::Param:
    case AddressSpace::KernelParam:
      if (frame->kernelParams != nullptr && (space == AddressSpace::KernelParam || address < frame->kernelParamBytes)) {
        if (kind != AccessKind::Load) {
          reportFault(kind, space, address, size, lane, LaunchErrorKind::IllegalAddress, "kernel parameters are read-only");
          return nullptr;
        }
        return window(const_cast<uint8_t*>(frame->kernelParams), frame->kernelParamBytes, address, size, lane, kind,
                      space);
      }
      return window(frame->paramsOf(lane), frame->function->paramAreaBytes, address, size, lane, kind, space);
  }
  return nullptr;
}

}  // namespace ptxsim::sim::exec
