#include "instruction_schedule.h"

#include <algorithm>
#include <array>
#include <queue>
#include <vector>

namespace ptxsim::sim::exec {

namespace {

using isa::Mod;
using isa::Opcode;

// How an instruction may move within its block.
enum class Motion : uint8_t {
  Free,   // reads and writes registers only
  Load,   // a weak read of memory: may pass other loads, never a store it may alias
  Store,  // a weak write of memory: passes no load and no store it may alias
  Fixed,  // stays where it is; nothing moves across it
};

// Which memory an access may touch, for what it may pass: accesses to two
// different state spaces named in the code never alias (a shared store and
// a global load: ptxas issues sgemm's second tile load before the first
// tile's shared store, so that both loads wait for the DRAM together).
// Generic addresses, function parameters (whose address a program may take
// into a generic one) and textures and surfaces may alias anything.
enum class MemoryClass : uint8_t { Global, Shared, Local, Const, KernelParam, Any };
constexpr size_t kMemoryClasses = 6;

MemoryClass memoryClassOf(const PreparedInstruction& pi) {
  switch (pi.source->opcode) {
    case Opcode::Tex:
    case Opcode::Tld4:
    case Opcode::Suld:
    case Opcode::Sust: return MemoryClass::Any;
    default: break;
  }
  switch (pi.space) {
    case AddressSpace::Global: return MemoryClass::Global;
    case AddressSpace::Shared: return MemoryClass::Shared;
    case AddressSpace::Local: return MemoryClass::Local;
    case AddressSpace::Const: return MemoryClass::Const;
    case AddressSpace::KernelParam: return MemoryClass::KernelParam;
    default: return MemoryClass::Any;
  }
}

bool mayAlias(size_t a, size_t b) {
  const auto any = static_cast<size_t>(MemoryClass::Any);
  return a == b || a == any || b == any;
}

bool readsAClock(const PreparedFunction& fn, const PreparedInstruction& pi) {
  for (uint32_t m = 0; m < pi.materializeCount; ++m) {
    const Materialization& mat = fn.materializations[pi.materializeFirst + m];
    if (mat.kind != MaterializeKind::Special) continue;
    switch (mat.special) {
      case isa::SpecialRegister::Clock:
      case isa::SpecialRegister::ClockHi:
      case isa::SpecialRegister::Clock64:
      case isa::SpecialRegister::Globaltimer:
      case isa::SpecialRegister::GlobaltimerLo:
      case isa::SpecialRegister::GlobaltimerHi:
      case isa::SpecialRegister::Pm:
      case isa::SpecialRegister::Pm64: return true;
      default: break;
    }
  }
  return false;
}

// Volatile, mmio and memory-model-ordered accesses keep their place, as
// ptxas keeps them (a spin on a flag must not be hoisted out of its order).
bool ordered(const isa::Instruction& inst) {
  const isa::ModifierSet& m = inst.modifiers;
  return m.has(Mod::Volatile) || m.has(Mod::Mmio) || m.has(Mod::Relaxed) || m.has(Mod::Acquire) ||
         m.has(Mod::Release) || m.has(Mod::AcqRel) || m.has(Mod::Sc);
}

Motion motionOf(const PreparedFunction& fn, const PreparedInstruction& pi) {
  if (pi.changesControl || pi.sync != SyncKind::None || readsAClock(fn, pi)) return Motion::Fixed;
  const isa::Instruction& inst = *pi.source;
  switch (inst.opcode) {
    case Opcode::Ld:
    case Opcode::Ldu: return ordered(inst) ? Motion::Fixed : Motion::Load;
    case Opcode::Tex:
    case Opcode::Tld4:
    case Opcode::Suld: return Motion::Load;
    case Opcode::St: return ordered(inst) ? Motion::Fixed : Motion::Store;
    case Opcode::Sust: return Motion::Store;
    default: break;
  }
  return isa::computesOnly(inst.unit) ? Motion::Free : Motion::Fixed;
}

bool usesCarry(const isa::Instruction& inst) {
  return inst.modifiers.has(Mod::Cc) || inst.opcode == Opcode::Addc || inst.opcode == Opcode::Subc ||
         inst.opcode == Opcode::Madc;
}

// Cycles until a result is ready, as the scheduler weighs them: only their
// order matters (memory far above arithmetic, shared memory between).
uint32_t weightOf(const PreparedInstruction& pi, Motion motion) {
  if (motion != Motion::Load) return 4;
  switch (pi.space) {
    case AddressSpace::Shared:
    case AddressSpace::Param:
    case AddressSpace::Const: return 30;
    default: return 300;
  }
}

// The dependence graph of one region of a block, and its list schedule.
class RegionScheduler {
 public:
  explicit RegionScheduler(const PreparedFunction& fn) : fn_(fn) {}

  // The order in which code[first, end) issues: indices into that range.
  std::vector<uint32_t> schedule(const std::vector<PreparedInstruction>& code, uint32_t first, uint32_t end,
                                 const std::vector<Motion>& motions) {
    const uint32_t n = end - first;
    successors_.assign(n, {});
    std::vector<uint32_t> predecessorCount(n, 0);
    std::vector<uint32_t> weight(n);
    for (uint32_t i = 0; i < n; ++i) weight[i] = weightOf(code[first + i], motions[first + i]);
    ++stamp_;
    uint32_t lastCarry = UINT32_MAX;
    // By memory class: the last store, and by the class of a store the
    // loads of each class since the last store of that class. A load or
    // store waits for the last store of each class it may alias (stores of
    // one class are in order, so for all of them); a store waits for the
    // loads it may alias since the last store of its class (earlier ones
    // came before that store).
    std::array<uint32_t, kMemoryClasses> lastStore;
    lastStore.fill(UINT32_MAX);
    for (auto& byLoadClass : loadsSinceStore_)
      for (auto& loads : byLoadClass) loads.clear();
    // `to` waits for `from`'s result (a true dependence) or only comes after it.
    auto edge = [&](uint32_t from, uint32_t to, bool needsResult) {
      if (from == UINT32_MAX || from == to) return;
      successors_[from].push_back({to, needsResult ? weight[from] : 1});
      ++predecessorCount[to];
    };
    for (uint32_t i = 0; i < n; ++i) {
      const PreparedInstruction& pi = code[first + i];
      for (uint32_t row : fn_.readsOf(pi)) edge(row_(row).writer, i, true);
      for (uint32_t row : fn_.writesOf(pi)) {
        RowState& state = row_(row);
        edge(state.writer, i, false);
        for (uint32_t reader : state.readers) edge(reader, i, false);
        state.writer = i;
        state.readers.clear();
      }
      for (uint32_t row : fn_.readsOf(pi)) row_(row).readers.push_back(i);
      if (usesCarry(*pi.source)) {
        edge(lastCarry, i, true);
        lastCarry = i;
      }
      const Motion motion = motions[first + i];
      if (motion == Motion::Load || motion == Motion::Store) {
        const auto mine = static_cast<size_t>(memoryClassOf(pi));
        for (size_t c = 0; c < kMemoryClasses; ++c)
          if (mayAlias(c, mine)) edge(lastStore[c], i, false);
        if (motion == Motion::Load) {
          for (auto& byLoadClass : loadsSinceStore_) byLoadClass[mine].push_back(i);
        } else {
          for (size_t c = 0; c < kMemoryClasses; ++c) {
            if (mayAlias(c, mine))
              for (uint32_t load : loadsSinceStore_[mine][c]) edge(load, i, false);
            loadsSinceStore_[mine][c].clear();
          }
          lastStore[mine] = i;
        }
      }
    }
    // Priority: a load, and what it waits for, by the longest path from it
    // to the region's end; the rest in program order. Edges run forward, so
    // a backward sweep sees every successor first.
    std::vector<uint64_t> key(n, 0);
    std::vector<uint64_t> height(n, 0);
    for (uint32_t i = n; i-- > 0;) {
      uint64_t below = 0;
      bool feedsALoad = motions[first + i] == Motion::Load;
      for (const Successor& s : successors_[i]) {
        below = std::max(below, s.latency + height[s.to]);
        feedsALoad = feedsALoad || key[s.to] != 0;
      }
      height[i] = std::max<uint64_t>(below, weight[i]);
      if (feedsALoad) key[i] = height[i];
    }
    // The list schedule of an in-order issue: each cycle, of the
    // instructions whose sources are ready by then, the first by priority
    // (ties in program order); when none is, the cycle the first will be.
    auto lowerPriority = [&](uint32_t a, uint32_t b) { return key[a] != key[b] ? key[a] < key[b] : a > b; };
    std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(lowerPriority)> issuable(lowerPriority);
    std::vector<uint64_t> readyAt(n, 0);
    auto later = [&](uint32_t a, uint32_t b) { return readyAt[a] != readyAt[b] ? readyAt[a] > readyAt[b] : a > b; };
    std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(later)> waiting(later);
    for (uint32_t i = 0; i < n; ++i) {
      if (predecessorCount[i] == 0) waiting.push(i);
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    uint64_t cycle = 0;
    while (order.size() < n) {
      while (!waiting.empty() && readyAt[waiting.top()] <= cycle) {
        issuable.push(waiting.top());
        waiting.pop();
      }
      if (issuable.empty()) {
        cycle = readyAt[waiting.top()];
        continue;
      }
      uint32_t i = issuable.top();
      issuable.pop();
      order.push_back(i);
      for (const Successor& s : successors_[i]) {
        readyAt[s.to] = std::max(readyAt[s.to], cycle + s.latency);
        if (--predecessorCount[s.to] == 0) waiting.push(s.to);
      }
      ++cycle;
    }
    return order;
  }

 private:
  struct Successor {
    uint32_t to;
    uint32_t latency;  // cycles after the predecessor issues
  };
  struct RowState {
    uint64_t stamp = 0;
    uint32_t writer = UINT32_MAX;
    std::vector<uint32_t> readers;
  };
  // The row's state in this region (rows seen in earlier regions start afresh).
  RowState& row_(uint32_t row) {
    if (row >= rows_.size()) rows_.resize(row + 1);
    RowState& state = rows_[row];
    if (state.stamp != stamp_) {
      state = RowState{};
      state.stamp = stamp_;
    }
    return state;
  }

  const PreparedFunction& fn_;
  // [store class][load class]: the loads since the last store of that class.
  std::array<std::array<std::vector<uint32_t>, kMemoryClasses>, kMemoryClasses> loadsSinceStore_;
  std::vector<std::vector<Successor>> successors_;
  std::vector<RowState> rows_;
  uint64_t stamp_ = 0;
};

}  // namespace

void scheduleLikePtxas(PreparedFunction& fn) {
  std::vector<PreparedInstruction>& code = fn.code;
  std::vector<Motion> motions;
  motions.reserve(code.size());
  for (const PreparedInstruction& pi : code) motions.push_back(motionOf(fn, pi));
  RegionScheduler scheduler(fn);
  std::vector<PreparedInstruction> reordered;
  // A region: instructions of one block between fixed ones.
  uint32_t first = 0;
  for (uint32_t k = 0; k <= code.size(); ++k) {
    bool ends = k == code.size() || motions[k] == Motion::Fixed || code[k].source->block != code[first].source->block;
    if (!ends) continue;
    if (k - first > 1) {
      std::vector<uint32_t> order = scheduler.schedule(code, first, k, motions);
      reordered.clear();
      for (uint32_t i : order) reordered.push_back(code[first + i]);
      std::copy(reordered.begin(), reordered.end(), code.begin() + first);
    }
    // A fixed instruction is a region of its own.
    first = k < code.size() && motions[k] == Motion::Fixed ? k + 1 : k;
  }
}

}  // namespace ptxsim::sim::exec
