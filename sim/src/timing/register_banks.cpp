#include "register_banks.h"

#include <algorithm>

namespace ptxsim::sim::timing {

uint32_t bankConflictCycles(const OperandSources& current, const OperandSources& previous) {
  constexpr size_t kSlots = 3;
  std::array<bool, kSlots> reads{};
  for (size_t s = 0; s < kSlots; ++s) {
    uint32_t reg = current.reg[s];
    bool reused = reg == previous.reg[s];
    bool readBefore = false;
    for (size_t t = 0; t < s; ++t) readBefore = readBefore || current.reg[t] == reg;
    reads[s] = reg != kNoRegister && !reused && !readBefore;
  }
  uint32_t busiest = 0;
  for (size_t s = 0; s < kSlots; ++s) {
    if (!reads[s]) continue;
    uint32_t sameBank = 0;
    for (size_t t = 0; t < kSlots; ++t) sameBank += reads[t] && current.bank[t] == current.bank[s] ? 1 : 0;
    busiest = std::max(busiest, sameBank);
  }
  return busiest > 1 ? busiest - 1 : 0;
}

}  // namespace ptxsim::sim::timing
