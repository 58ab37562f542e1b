#include "warp_sync_checker.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <set>
#include <tuple>

#include "ptxsim/memory/generic_address.h"
#include "../hex_text.h"

namespace ptxsim::sim::checks {

namespace {

using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// How an instruction orders the lanes that execute it with each other.
// The executor reports a warp collective once, when it completes, with
// every lane that took part, and a CTA barrier once per warp arrival.
// activemask, bar.arrive and memory fences do not order lanes.
enum class Sync : uint8_t { None, Warp, CtaBarrier };

Sync synchronization(const isa::Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::BarWarpSync:
    case Opcode::Match:
    case Opcode::Redux:
    case Opcode::Elect: return Sync::Warp;
    case Opcode::Shfl:
    case Opcode::Vote: return inst.modifiers.has(Mod::SyncMod) ? Sync::Warp : Sync::None;
    case Opcode::Bar:
    case Opcode::Barrier:
    case Opcode::BarrierCluster:
      return inst.modifiers.get(ModGroup::BarrierOp) == Mod::Arrive ? Sync::None : Sync::CtaBarrier;
    default: return Sync::None;
  }
}

const char* kindWord(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load: return "read";
    case AccessKind::Store: return "write";
    default: return "atomic";
  }
}

}  // namespace

struct WarpSyncChecker::CtaShadow {
  std::thread::id owner;
  std::vector<std::unique_ptr<WarpShadow>> warps;
  // Sites: the instructions the shadow's accesses name, numbered from 1.
  std::vector<const isa::Instruction*> sites;
  std::unordered_map<const isa::Instruction*, uint32_t> siteOf;
  std::set<LinePair> reported;  // in this CTA
  uint64_t order = 0;
  std::vector<Conflict> conflicts;  // scratch, per step

  WarpShadow& warp(uint32_t index) {
    if (index >= warps.size()) warps.resize(index + 1);
    if (warps[index] == nullptr) warps[index] = std::make_unique<WarpShadow>();
    return *warps[index];
  }
  // Ready for another CTA, keeping the allocations.
  void reset() {
    for (auto& w : warps) {
      if (w != nullptr) w->reset();
    }
    sites.clear();
    siteOf.clear();
    reported.clear();
    order = 0;
  }
  uint32_t site(const isa::Instruction* inst) {
    auto [it, inserted] = siteOf.try_emplace(inst, static_cast<uint32_t>(sites.size() + 1));
    if (inserted) sites.push_back(inst);
    return it->second;
  }
};

WarpSyncChecker::WarpSyncChecker(const isa::Module& module, std::string kernel, Dim3 grid, Dim3 block,
                                 bool ctasInterleave)
    : module_(module),
      kernel_(std::move(kernel)),
      grid_(grid),
      block_(block),
      ctasInterleave_(ctasInterleave) {}

WarpSyncChecker::~WarpSyncChecker() = default;

LaneMask WarpSyncChecker::warpLanes(uint32_t warp) const {
  uint64_t threads = block_.count();
  uint64_t first = uint64_t{warp} * kLanes;
  uint64_t lanes = threads > first ? std::min<uint64_t>(kLanes, threads - first) : 0;
  return lanes == kLanes ? ~LaneMask{0} : (LaneMask{1} << lanes) - 1;
}

WarpSyncChecker::CtaShadow& WarpSyncChecker::ctaShadow(uint64_t cta) {
  std::lock_guard lock(mutex_);
  std::thread::id self = std::this_thread::get_id();
  auto [last, first] = threadCta_.try_emplace(self, cta);
  std::unique_ptr<CtaShadow> recycled;
  if (!first && last->second != cta && !ctasInterleave_) {
    // This thread ran that CTA to its end (one thread runs a CTA at a time);
    // unless another thread has taken it over since, its state can go, or
    // rather serve the next CTA.
    auto old = ctas_.find(last->second);
    if (old != ctas_.end() && old->second->owner == self) {
      recycled = std::move(old->second);
      ctas_.erase(old);
    }
    last->second = cta;
  }
  auto& slot = ctas_[cta];
  if (slot == nullptr) {
    if (recycled != nullptr) {
      recycled->reset();
      slot = std::move(recycled);
    } else {
      slot = std::make_unique<CtaShadow>();
    }
  }
  slot->owner = self;
  return *slot;
}

void WarpSyncChecker::onStep(const StepReport& report) {
  if (report.instruction == nullptr || report.executed == 0) return;
  Sync sync = synchronization(*report.instruction);
  bool touches = report.access != AccessKind::None &&
                 (report.space == AddressSpace::Global || report.space == AddressSpace::Shared ||
                  report.space == AddressSpace::Generic);
  if (sync == Sync::None && !touches) return;
  CtaShadow& cta = ctaShadow(report.cta);
  WarpShadow& warp = cta.warp(report.warp);
  if (touches) {
    uint32_t site = cta.site(report.instruction);
    memory::GenericLayout layout;
    cta.conflicts.clear();
    for (LaneMask m = report.executed; m != 0; m &= m - 1) {
      auto lane = static_cast<unsigned>(std::countr_zero(m));
      uint64_t address = report.addresses[lane];
      bool shared = report.space == AddressSpace::Shared;
      if (report.space == AddressSpace::Generic) {
        // Local memory is per thread and the parameter window read-only:
        // neither can race.
        memory::Window window = memory::classify(layout, address);
        if (window == memory::Window::Shared) {
          shared = true;
          address -= layout.sharedBase;
        } else if (window != memory::Window::Global) {
          continue;
        }
      }
      warp.access(lane, report.access, site, shared, address, report.accessBytes, cta.conflicts);
    }
    for (const Conflict& c : cta.conflicts) {
      const isa::Instruction& now = *cta.sites[c.site - 1];
      const isa::Instruction& earlier = *cta.sites[c.earlierSite - 1];
      LinePair key = std::minmax(now.where.line, earlier.where.line);
      if (!cta.reported.insert(key).second) continue;
      Found found{report.cta, cta.order++, describe(report, c, cta)};
      std::lock_guard lock(mutex_);
      auto [it, inserted] = found_.try_emplace(key, found);
      if (!inserted && std::tie(found.cta, found.order) < std::tie(it->second.cta, it->second.order)) {
        it->second = std::move(found);
      }
    }
  }
  if (sync != Sync::None) {
    LaneMask ordered = report.executed;
    if (sync == Sync::Warp) {
      warp.synchronize(report.executed);
    } else {
      ordered = warp.arriveAtBarrier(report.executed);
    }
    // Every lane of the warp is ordered: nothing before can race with
    // anything after, so the shadow starts afresh (memory stays bounded
    // by what is touched between such points).
    if (ordered == warpLanes(report.warp)) warp.clear();
  }
}

std::string WarpSyncChecker::location(const isa::Instruction& inst) const {
  std::string text = "PTX line " + std::to_string(inst.where.line);
  if (inst.debug.line != 0) {
    auto it = module_.files.find(inst.debug.file);
    text += " (" + (it != module_.files.end() ? it->second : std::string("?")) + ":" +
            std::to_string(inst.debug.line) + ")";
  }
  return text;
}

std::string WarpSyncChecker::describe(const StepReport& report, const Conflict& c,
                                      const CtaShadow& cta) const {
  uint64_t id = report.cta;
  uint64_t x = id % grid_.x, y = id / grid_.x % grid_.y, z = id / (uint64_t{grid_.x} * grid_.y);
  return "ptxsim: warp-sync hazard in kernel " + kernel_ + ": lanes " + std::to_string(c.lane) + " and " +
         std::to_string(c.earlierLane) + " of warp " + std::to_string(report.warp) + " in block (" +
         std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "): " + kindWord(c.kind) +
         " at " + location(*cta.sites[c.site - 1]) + " and " + kindWord(c.earlierKind) + " at " +
         location(*cta.sites[c.earlierSite - 1]) + " of " + (c.shared ? "shared" : "global") + " address " +
         hex(c.address) + " with no __syncwarp between them";
}

std::vector<std::string> WarpSyncChecker::hazards() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> lines;
  lines.reserve(found_.size());
  for (const auto& [key, found] : found_) lines.push_back(found.text);
  return lines;
}

}  // namespace ptxsim::sim::checks
