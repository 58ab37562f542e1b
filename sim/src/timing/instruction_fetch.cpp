#include "instruction_fetch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ptxsim::sim::timing {

InstructionLineCache::InstructionLineCache(uint32_t bytes, uint32_t ways, uint32_t lineBytes) : ways_(ways) {
  if (ways == 0 || lineBytes == 0 || bytes % (ways * lineBytes) != 0 || bytes < ways * lineBytes) {
    throw std::invalid_argument("an instruction cache of " + std::to_string(bytes) + " bytes does not divide into " +
                                std::to_string(ways) + "-way sets of " + std::to_string(lineBytes) + "-byte lines");
  }
  sets_ = bytes / (ways * lineBytes);
  entries_.resize(static_cast<size_t>(sets_) * ways_);
}

bool InstructionLineCache::find(uint64_t line, uint64_t& arrival) {
  Way* set = &entries_[(line % sets_) * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (set[w].line == line) {
      set[w].lastUse = ++useClock_;
      arrival = set[w].arrival;
      return true;
    }
  }
  return false;
}

void InstructionLineCache::insert(uint64_t line, uint64_t arrival) {
  Way* set = &entries_[(line % sets_) * ways_];
  Way* victim = std::min_element(set, set + ways_, [](const Way& a, const Way& b) { return a.lastUse < b.lastUse; });
  *victim = {line, arrival, ++useClock_};
  if (inserted_.size() < entries_.size()) {
    inserted_.push_back(static_cast<uint32_t>(victim - entries_.data()));
  } else {
    insertedMany_ = true;
  }
}

void InstructionLineCache::settle() {
  if (insertedMany_) {
    for (Way& way : entries_) way.arrival = 0;
  } else {
    for (uint32_t entry : inserted_) entries_[entry].arrival = 0;
  }
  inserted_.clear();
  insertedMany_ = false;
}

InstructionFetch::InstructionFetch(const InstructionFetchTiming& timing)
    : timing_(timing),
      l0_(timing.l0Bytes, timing.l0Ways, timing.lineBytes),
      l1_(timing.l1Bytes, timing.l1Ways, timing.lineBytes) {}

void InstructionFetch::restartClock() {
  l0_.settle();
  l1_.settle();
  l1PortFreeAt_ = 0;
  l2PortFreeAt_ = 0;
}

uint64_t InstructionFetch::lineReadyAt(uint64_t address, uint64_t now) {
  uint64_t line = address / timing_.lineBytes;
  uint64_t ready = fill(line, now);
  fill(line + 1, now);
  return ready;
}

uint64_t InstructionFetch::fill(uint64_t line, uint64_t now) {
  uint64_t arrival = 0;
  if (l0_.find(line, arrival)) return arrival;
  ++stats_.l0Misses;
  uint64_t inL1 = 0;
  if (!l1_.find(line, inL1)) {
    ++stats_.l1Misses;
    uint64_t start = std::max(now, l2PortFreeAt_);
    l2PortFreeAt_ = start + timing_.l2CyclesPerLine;
    inL1 = l2PortFreeAt_;
    l1_.insert(line, inL1);
  }
  uint64_t start = std::max({now, l1PortFreeAt_, inL1});
  l1PortFreeAt_ = start + timing_.l1CyclesPerLine;
  l0_.insert(line, l1PortFreeAt_);
  return l1PortFreeAt_;
}

namespace {

bool sameGeometry(const InstructionFetchTiming& a, const InstructionFetchTiming& b) {
  return a.lineBytes == b.lineBytes && a.l0Bytes == b.l0Bytes && a.l0Ways == b.l0Ways && a.l1Bytes == b.l1Bytes &&
         a.l1Ways == b.l1Ways && a.l1CyclesPerLine == b.l1CyclesPerLine && a.l2CyclesPerLine == b.l2CyclesPerLine &&
         a.instructionBytes == b.instructionBytes;
}

}  // namespace

std::vector<InstructionFetch>& InstructionCaches::forLaunch(const TimingConfig& timing, uint32_t sms) {
  if (sms_.size() != sms || !sameGeometry(timing_, timing.fetch)) {
    sms_.assign(sms, InstructionFetch(timing.fetch));
    timing_ = timing.fetch;
  }
  for (InstructionFetch& sm : sms_) sm.restartClock();
  return sms_;
}

uint32_t InstructionCaches::moduleNumber(const isa::Module* module) {
  auto it = std::find(modules_.begin(), modules_.end(), module);
  if (it != modules_.end()) return static_cast<uint32_t>(it - modules_.begin());
  modules_.push_back(module);
  return static_cast<uint32_t>(modules_.size() - 1);
}

}  // namespace ptxsim::sim::timing
