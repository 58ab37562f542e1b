// The SM's memory path in the timing model: when the access the executor
// just reported has its data (shared-memory banks, the constant cache, the
// L1 and the texture pipeline, through the crossbar to the L2), and how
// long it keeps its pipeline, and the shared accesses ptxas pairs into one.
// The issue logic is in sm_model.cpp.

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

#include "../exec/executor.h"
#include "access_shape.h"
#include "pipeline_of.h"
#include "shared_pairs.h"
#include "sm_model.h"
#include "ptxsim/memory/shared_banks.h"
#include "ptxsim/memory/texture_lookups.h"

namespace ptxsim::sim::timing {

SmModel::ResultPath SmModel::resultPath(Pipeline pipe, AddressSpace space) const {
  if (ctx_.report.access == AccessKind::None) {
    return pipe == Pipeline::Mufu || pipe == Pipeline::Shuffle ? ResultPath::Mio : ResultPath::Fixed;
  }
  switch (space) {
    case AddressSpace::Shared:
    case AddressSpace::Const:
    case AddressSpace::Param:
    case AddressSpace::KernelParam: return ResultPath::Mio;
    default: return ResultPath::Lsu;
  }
}

uint32_t SmModel::resultLatency(Pipeline pipe, AddressSpace space, uint64_t now) {
  const StepReport& r = ctx_.report;
  if (r.unit == isa::UnitClass::Texture) {
    // Queries (txq, suq, istypep) read only the descriptor: an L1 hit.
    if (r.access == AccessKind::None) return timing_.l1.hitLatencyCycles;
    return static_cast<uint32_t>(texturePathLatency(now));
  }
  if (r.access == AccessKind::None) return timing_.pipeline(pipe).latencyCycles;
  if (space == AddressSpace::Shared) {
    uint32_t bytes = std::max<uint32_t>(r.accessBytes, 1);
    uint32_t wavefronts =
        std::max(memory::sharedWavefronts(r.addresses, r.executed, bytes, {timing_.shared.banks, timing_.shared.bankBytes}),
                 1u);
    // The fewest wavefronts the access could take: its bytes over one
    // wavefront's (every bank once).
    uint32_t fewest = std::max(1u, (static_cast<uint32_t>(std::popcount(r.executed)) * bytes +
                                    timing_.shared.banks * timing_.shared.bankBytes - 1) /
                                       (timing_.shared.banks * timing_.shared.bankBytes));
    uint64_t conflicts = wavefronts > fewest ? wavefronts - fewest : 0;
    lastWavefronts_ = wavefronts;
    // Nsight Compute counts a shared atomic's (ATOMS) conflicts apart from
    // loads' (op_atom: histogram_shared's 67 081 on the H200, none of them
    // under op_ld; tests/timing/kernels/h200/shared_conflicts.ncu.csv).
    uint64_t& counter = r.access == AccessKind::Store    ? counters_.sharedBankConflictsStore
                        : r.access == AccessKind::Atomic ? counters_.sharedBankConflictsAtomic
                                                         : counters_.sharedBankConflictsLoad;
    counter += conflicts;
    // A wide access's requests follow each other, conflicts' extra
    // wavefronts likewise (shared_memory.out: ld64 26, ld128 32,
    // conflict_N 23 + 2 (N - 1)).
    uint32_t requests = requestsOf(bytes);
    return timing_.shared.latencyCycles + timing_.shared.cyclesPerExtraRequest * (requests - 1) +
           timing_.shared.cyclesPerExtraWay * (std::max(wavefronts, requests) - requests);
  }
  switch (space) {
    case AddressSpace::Const: {
      memory::CoalescedAccess access =
          memory::coalesce(r.addresses, r.executed, std::max<uint32_t>(r.accessBytes, 1), timing_.constant.lineBytes,
                           timing_.constant.lineBytes);
      uint64_t ready = constantCache_.load(now, access, constantBackend_).readyAt;
      return static_cast<uint32_t>(ready > now ? ready - now : 1);
    }
    case AddressSpace::Param:
    case AddressSpace::KernelParam:
      // ptxas makes kernel parameters constant operands of the instructions
      // that use them: no load of their own.
      return timing_.pipeline(Pipeline::Int).latencyCycles;
    default: return static_cast<uint32_t>(l1Latency(now));
  }
}

namespace {

// Where a lane's global or local access sits in the L1: global addresses
// as they are; local memory (window offsets, the same for every thread) is
// interleaved by 4-byte words across the warp's lanes in a range of its
// own, as the GPU lays it out, so threads do not alias.
uint64_t cacheAddress(const StepReport& r, const memory::GenericLayout& layout, unsigned lane) {
  uint64_t address = r.addresses[lane];
  bool local = r.space == AddressSpace::Local;
  if (r.space == AddressSpace::Generic && memory::classify(layout, address) == memory::Window::Local) {
    local = true;
    address -= layout.localBase;
  }
  if (!local) return address;
  constexpr uint64_t kLocalRange = uint64_t{1} << 62;
  uint64_t warp = (r.cta << 6) | r.warp;
  return kLocalRange | (warp << 32) | ((address >> 2) << 7) | (uint64_t{lane} << 2) | (address & 3);
}

// .cg and .cv loads, volatile ones, and strong (relaxed or acquire) loads
// at GPU or system scope, which must see other SMs' writes, read past the
// L1 (ptxas: LDG.E.STRONG.GPU); stores of those kinds (st.cg) do not
// allocate in it.
bool bypassesL1(const isa::Instruction& inst) {
  isa::Mod op = inst.modifiers.get(isa::ModGroup::CacheOp);
  if (op == isa::Mod::Cg || op == isa::Mod::Cv || inst.modifiers.has(isa::Mod::Volatile)) return true;
  isa::Mod scope = inst.modifiers.get(isa::ModGroup::Scope);
  bool strong = inst.modifiers.has(isa::Mod::Relaxed) || inst.modifiers.has(isa::Mod::Acquire);
  return strong && (scope == isa::Mod::Gpu || scope == isa::Mod::Sys);
}

// The most executed lanes that address one 4-byte word: an atomic's
// rounds in the L2 slice's unit.
uint32_t lanesPerWord(const std::array<uint64_t, 32>& addresses, uint32_t executed) {
  uint32_t most = 1;
  for (uint32_t lanes = executed; lanes != 0; lanes &= lanes - 1) {
    auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    uint32_t same = 0;
    for (uint32_t others = executed; others != 0; others &= others - 1) {
      auto other = static_cast<unsigned>(std::countr_zero(others));
      same += (addresses[other] >> 2) == (addresses[lane] >> 2) ? 1 : 0;
    }
    most = std::max(most, same);
  }
  return most;
}

// The 4-byte words of the line at `line` that the executed lanes' accesses
// of `bytes` bytes touch, bit w for word w (the first 32 words).
uint32_t wordsOfLine(uint64_t line, const std::array<uint64_t, 32>& addresses, uint32_t executed,
                     uint32_t bytes) {
  uint32_t words = 0;
  for (uint32_t lanes = executed; lanes != 0; lanes &= lanes - 1) {
    const uint64_t address = addresses[static_cast<unsigned>(std::countr_zero(lanes))];
    const uint64_t last = address + std::max<uint32_t>(bytes, 1) - 1;
    for (uint64_t word = std::max(address, line) / 4; word <= last / 4 && word < line / 4 + 32; ++word)
      words |= 1u << (word - line / 4);
  }
  return words;
}

}  // namespace

uint64_t SmModel::atomicsAtL2(uint64_t now, const memory::CoalescedAccess& access,
                              const std::array<uint64_t, 32>& addresses, uint32_t executed) {
  // One round per word that the most lanes share.
  uint64_t ready = now;
  uint32_t opsPerWord = aggregatedAtomic_ ? 1 : lanesPerWord(addresses, executed);
  for (const memory::CoalescedLine& line : access.lines) {
    uint32_t bytes = static_cast<uint32_t>(std::popcount(line.sectorMask)) * timing_.l1.sectorBytes;
    memory::MemoryRequest request{line.address, line.sectorMask, bytes, true};
    request.atomic = true;
    request.opsPerWord = opsPerWord;
    request.atomicWords = wordsOfLine(line.address, addresses, executed, ctx_.report.accessBytes);
    ready = std::max(ready, l2_.request(now, request));
    accessTickets_.push_back(l2_.lastTicket());
  }
  return ready;
}

uint64_t SmModel::texturePathLatency(uint64_t now) {
  const StepReport& r = ctx_.report;
  uint32_t bytes = std::max<uint32_t>(r.accessBytes, 1);
  // A texture fetch's texels (up to 8 a lane) or a surface access's lanes'
  // elements, where the caches see them, in sectors of the L1.
  memory::CoalescedAccess access = memory::coalesce(r.texels, bytes, timing_.l1.lineBytes, timing_.l1.sectorBytes);
  uint64_t ready = now;
  switch (r.access) {
    case AccessKind::Store:
      ready = l1_.store(now, access, l2_, memory::L1Traffic::kSurface).readyAt;
      accessTickets_ = l1_.lastTickets();
      break;
    case AccessKind::Atomic: ready = atomicsAtL2(now, access, r.addresses, r.executed); break;
    default: {
      memory::L1Access done =
          l1_.load(now, access, l2_, memory::L1Policy::kAllocate,
                   r.space == AddressSpace::Texture ? memory::L1Traffic::kTexture : memory::L1Traffic::kSurface);
      accessTickets_ = l1_.lastTickets();
      lgWait_ = done.mshrStallCycles;
      ready = done.readyAt;
      if (r.space == AddressSpace::Texture) {
        // Quads that look up a sector another quad did: hits, in the counts only.
        uint64_t lookups = memory::quadSectorLookups(r.texels, r.texelLanes, bytes, timing_.l1.sectorBytes);
        if (lookups > access.sectors) l1_.countRepeatedTextureLookups(lookups - access.sectors);
      }
    }
  }
  // A fetch waits for the texture units to start its lanes' lookups, and
  // the pipeline's own stages (addressing, filtering) come on top of the
  // L1's; both counted after it so that the L1 sees accesses in issue order.
  uint64_t queued = 0;
  if (r.space == AddressSpace::Texture) {
    double start = std::max(static_cast<double>(now), textureUnitFree_);
    textureUnitFree_ = start + std::popcount(r.executed) / timing_.texture.lookupsPerCycle;
    queued = static_cast<uint64_t>(std::ceil(start)) - now;
  }
  accessAnswerOffset_ = queued + timing_.texture.latencyCycles;
  return ready + queued + timing_.texture.latencyCycles - now;
}

uint64_t SmModel::l1Latency(uint64_t now) {
  StepReport& r = ctx_.report;
  r.cta = ctx_.cta->linearId;
  r.warp = ctx_.warp->index;
  std::array<uint64_t, 32> addresses{};
  for (uint32_t lanes = r.executed; lanes != 0; lanes &= lanes - 1) {
    auto lane = static_cast<unsigned>(std::countr_zero(lanes));
    addresses[lane] = cacheAddress(r, ctx_.layout, lane);
  }
  memory::CoalescedAccess access = memory::coalesce(addresses, r.executed, std::max<uint32_t>(r.accessBytes, 1),
                                                    timing_.l1.lineBytes, timing_.l1.sectorBytes);
  memory::L1Access done;
  switch (r.access) {
    case AccessKind::Store:
      done = l1_.store(now, access, l2_, memory::L1Traffic::kGlobal,
                       bypassesL1(*r.instruction) ? memory::L1Policy::kBypass : memory::L1Policy::kAllocate);
      accessTickets_ = l1_.lastTickets();
      break;
    case AccessKind::Atomic: done.readyAt = atomicsAtL2(now, access, addresses, r.executed); break;
    default:
      // cp.async.ca allocates like a load, cp.async.cg bypasses like ld.cg.
      done = l1_.load(now, access, l2_,
                      bypassesL1(*r.instruction) ? memory::L1Policy::kBypass : memory::L1Policy::kAllocate,
                      r.instruction->opcode == isa::Opcode::CpAsync ? memory::L1Traffic::kLdgsts
                                                                    : memory::L1Traffic::kGlobal);
      accessTickets_ = l1_.lastTickets();
  }
  lgWait_ = done.mshrStallCycles;
  return done.readyAt > now ? done.readyAt - now : 1;
}

uint32_t SmModel::occupancy(Pipeline pipe) const {
  uint32_t interval = timing_.pipeline(pipe).intervalCycles;
  const StepReport& r = ctx_.report;
  // The barrier unit takes a warp's arrival every cycle; its per-warp cost
  // is the release's (sm.barrier_per_warp).
  isa::Opcode op = r.instruction->opcode;
  if (op == isa::Opcode::Bar || op == isa::Opcode::Barrier) return 1;
  if (r.access == AccessKind::None) return interval;
  // A 64- or 128-bit access is up to 2 or 4 requests of the pipeline, one
  // for each group of lanes that executes it; a shared access keeps it for
  // every wavefront (shared_memory.out: throughput.smem.conflict_N is 2N
  // cycles, ld64 8, ld128 17.5).
  uint32_t requests = requestsOf(r.accessBytes, r.executed);
  return std::max(interval * requests, timing_.shared.cyclesPerWavefront * lastWavefronts_);
}

const exec::PreparedInstruction* SmModel::stepSharedPartner(TimedWarp& w, const exec::PreparedFunction& fn,
                                                            const exec::PreparedInstruction& pi) {
  if (ctx_.report.access == AccessKind::None || &pi < fn.code.data() || &pi + 1 >= fn.code.data() + fn.code.size())
    return nullptr;
  const exec::PreparedInstruction& next = *(&pi + 1);
  const std::optional<int64_t> lower = sharedPairOffset(fn, pi, next);
  if (!lower) return nullptr;
  exec::StepReport pair = ctx_.report;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if (((pair.executed >> lane) & 1) != 0 && ((pair.addresses[lane] + *lower) & 7) != 0) return nullptr;
  }
  // The same threads go on to it (not another path of a diverged warp).
  if (exec::peek(ctx_) != &next || w.warp->group().mask != pair.active) return nullptr;
  const uint64_t writesBefore = w.cta->memoryWrites;
  if (exec::step(ctx_) != exec::StepResult::Executed) return nullptr;
  afterStep(w);
  watchForLivelock(w.cta->memoryWrites - writesBefore);
  for (uint32_t lane = 0; lane < 32; ++lane) pair.addresses[lane] += *lower;
  pair.accessBytes = 8;
  ctx_.report = pair;
  return &next;
}

}  // namespace ptxsim::sim::timing
