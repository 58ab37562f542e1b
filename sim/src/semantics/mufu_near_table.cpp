#include "mufu_near_table.h"

#include <algorithm>
#include <stdexcept>

namespace ptxsim::sim::semantics::mufu {

NearTable::Builder::Builder(Reference reference) : table_(std::make_unique<NearTable>()) {
  table_->reference_ = reference;
  table_->codes_.assign(kEntries / 4, 0);
}

void NearTable::Builder::add(std::span<const int32_t> differences) {
  if (differences.size() > kEntries - added_) throw std::runtime_error("MUFU table: more than 2^23 entries");
  NearTable& t = *table_;
  for (int32_t d : differences) {
    value_ += static_cast<uint32_t>(d);
    uint32_t index = added_++;
    int32_t off = static_cast<int32_t>(value_ - t.reference_(index));
    uint32_t code = off >= -1 && off <= 1 ? static_cast<uint32_t>(off + 1) : kListed;
    if (code == kListed) t.listed_.emplace_back(index, value_);
    t.codes_[index >> 2] |= static_cast<uint8_t>(code << ((index & 3) * 2));
  }
}

NearTable NearTable::Builder::finish() {
  if (added_ != kEntries) throw std::runtime_error("MUFU table: not 2^23 entries");
  return std::move(*table_);
}

uint32_t NearTable::listed(uint32_t index) const {
  auto it = std::lower_bound(listed_.begin(), listed_.end(), std::make_pair(index, uint32_t{0}));
  return it->second;  // every index coded kListed is in the list
}

}  // namespace ptxsim::sim::semantics::mufu
