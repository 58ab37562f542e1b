#include "copy_engine_log.h"

#include <algorithm>

namespace ptxsim::sim::timing {

namespace {

// Calls `visit(line address, sector mask)` for each line of [address,
// address + bytes), in ascending order, with the sectors the range covers.
template <typename Visit>
void forEachLine(uint64_t address, uint64_t bytes, const memory::L2Config& l2, Visit&& visit) {
  const uint64_t end = address + bytes;
  for (uint64_t line = address / l2.lineBytes * l2.lineBytes; line < end; line += l2.lineBytes) {
    const uint64_t from = std::max(line, address) - line;
    const uint64_t to = std::min(line + l2.lineBytes, end) - line;
    const auto first = static_cast<uint32_t>(from / l2.sectorBytes);
    const auto count = static_cast<uint32_t>((to - 1) / l2.sectorBytes) + 1 - first;
    visit(line, (count == 32 ? ~0u : (1u << count) - 1) << first);
  }
}

// A device copy, destination line by destination line, each after the
// source bytes copied to it (a source line two destination lines share is
// looked up again, which keeps it the most recently used).
void replayDeviceCopy(const CopyEngineRange& copy, memory::L2Cache& l2) {
  const memory::L2Config& config = l2.config();
  forEachLine(copy.address, copy.bytes, config, [&](uint64_t line, uint32_t sectors) {
    const uint64_t from = std::max(line, copy.address);
    const uint64_t to = std::min(line + config.lineBytes, copy.address + copy.bytes);
    forEachLine(copy.source + (from - copy.address), to - from, config,
                [&](uint64_t sourceLine, uint32_t read) {
                  l2.copyEngineFill(sourceLine, read, memory::L2Cache::CopiedData::Read);
                });
    l2.copyEngineStore(line, sectors);
  });
}

}  // namespace

bool CopyEngineLog::overHostLink(const CopyEngineRange& range) {
  return range.kind == CopyEngineRange::Kind::FromHost || range.kind == CopyEngineRange::Kind::ToHost;
}

void CopyEngineLog::add(const CopyEngineRange& range, const Limits& limits) {
  if (range.bytes == 0) return;
  ranges_.push_back(range);
  bytes_ += range.bytes;
  if (overHostLink(range)) {
    hostBytes_ += range.bytes;
    trim(limits.hostResidentBytes, true);
  }
  trim(limits.keptBytes, false);
}

void CopyEngineLog::trim(uint64_t limit, bool hostOnly) {
  uint64_t& counted = hostOnly ? hostBytes_ : bytes_;
  auto it = ranges_.begin();
  while (counted > limit && it != ranges_.end()) {
    if (hostOnly && !overHostLink(*it)) {
      ++it;
      continue;
    }
    const uint64_t dropped = std::min(it->bytes, counted - limit);
    bytes_ -= dropped;
    if (overHostLink(*it)) hostBytes_ -= dropped;
    if (dropped == it->bytes) {
      it = ranges_.erase(it);
      continue;
    }
    it->address += dropped;
    it->source += it->kind == CopyEngineRange::Kind::DeviceCopy ? dropped : 0;
    it->bytes -= dropped;
  }
}

void CopyEngineLog::replayInto(memory::L2Cache& l2) const {
  using Kind = CopyEngineRange::Kind;
  using Data = memory::L2Cache::CopiedData;
  for (const CopyEngineRange& range : ranges_) {
    switch (range.kind) {
      case Kind::Fill:
        forEachLine(range.address, range.bytes, l2.config(),
                    [&](uint64_t line, uint32_t sectors) { l2.copyEngineStore(line, sectors); });
        break;
      case Kind::DeviceCopy: replayDeviceCopy(range, l2); break;
      case Kind::FromHost:
      case Kind::ToHost: {
        const Data data = range.kind == Kind::FromHost ? Data::Replaced : Data::Read;
        forEachLine(range.address, range.bytes, l2.config(),
                    [&](uint64_t line, uint32_t sectors) { l2.copyEngineFill(line, sectors, data); });
        break;
      }
    }
  }
}

void CopyEngineLog::clear() {
  ranges_.clear();
  bytes_ = 0;
  hostBytes_ = 0;
}

}  // namespace ptxsim::sim::timing
