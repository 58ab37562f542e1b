#include "texture_coherence.h"

#include <algorithm>

namespace ptxsim::sim::checks {

namespace {
constexpr uint64_t kGranule = 4;
}

TextureCoherenceChecker::TextureCoherenceChecker(std::string kernel, Dim3 block,
                                                 std::vector<std::pair<uint64_t, uint64_t>> watched)
    : kernel_(std::move(kernel)), blockThreads_(block.count()), watched_(std::move(watched)) {
  std::sort(watched_.begin(), watched_.end());
}

bool TextureCoherenceChecker::watched(uint64_t address) const {
  // A handful of ranges (one per live texture or surface), which may overlap.
  for (const auto& [first, bytes] : watched_) {
    if (address - first < bytes) return true;
  }
  return false;
}

void TextureCoherenceChecker::add(std::vector<Access>& list, const isa::Instruction& inst, uint64_t thread) {
  for (Access& a : list) {
    if (a.line != inst.where.line) continue;
    if (a.thread != thread) a.thread = kSeveral;
    return;
  }
  list.push_back({inst.where.line, thread, inst.spec != nullptr ? std::string(inst.spec->mnemonic) : "?"});
}

void TextureCoherenceChecker::onStep(const StepReport& report) {
  if (report.access != AccessKind::Store && report.access != AccessKind::Atomic) return;
  if (report.space != AddressSpace::Global && report.space != AddressSpace::Generic) return;
  if (report.instruction == nullptr || watched_.empty()) return;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if ((report.executed >> lane & 1u) == 0) continue;
    uint64_t thread = report.cta * blockThreads_ + report.warp * 32ull + lane;
    noteWrite(report.addresses[lane], report.accessBytes, *report.instruction, thread);
  }
}

void TextureCoherenceChecker::noteWrite(uint64_t address, uint64_t bytes, const isa::Instruction& writer,
                                        uint64_t thread) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  for (uint64_t g = address / kGranule; g <= (address + bytes - 1) / kGranule; ++g) {
    if (!watched(std::max(address, g * kGranule))) continue;
    Granule& granule = granules_[g];
    for (const Access& r : granule.reads) {
      if (r.thread != thread) found_.try_emplace({writer.where.line, r.line}, writer.spec->mnemonic, r.what);
    }
    add(granule.writes, writer, thread);
  }
}

void TextureCoherenceChecker::noteRead(uint64_t address, uint64_t bytes, const isa::Instruction& reader,
                                       uint64_t thread) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  for (uint64_t g = address / kGranule; g <= (address + bytes - 1) / kGranule; ++g) {
    // Texture reads are of watched memory by construction.
    Granule& granule = granules_[g];
    for (const Access& w : granule.writes) {
      found_.try_emplace({w.line, reader.where.line}, w.what, std::string(reader.spec->mnemonic));
    }
    add(granule.reads, reader, thread);
  }
}

std::vector<std::string> TextureCoherenceChecker::hazards() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [lines, what] : found_) {
    out.push_back("ptxsim: texture-coherence hazard in kernel " + kernel_ + ": " + what.second + " at PTX line " +
                  std::to_string(lines.second) + " reads memory that " + what.first + " at PTX line " +
                  std::to_string(lines.first) +
                  " of the same kernel writes; texture reads are not coherent with the kernel's own writes, so a "
                  "GPU may return the old value");
  }
  return out;
}

}  // namespace ptxsim::sim::checks
