#include "progress_monitor.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ptxsim::sim::exec {

namespace {

struct Hasher {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  void add(uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  void add(const void* data, size_t bytes) {
    const auto* p = static_cast<const uint8_t*>(data);
    size_t words = bytes / 8;
    for (size_t i = 0; i < words; ++i) {
      uint64_t v;
      std::memcpy(&v, p + i * 8, 8);
      add(v);
    }
    for (size_t i = words * 8; i < bytes; ++i) add(p[i]);
  }
};

uint64_t stateHash(const CtaState& cta) {
  Hasher hash;
  for (const Warp& warp : cta.warps) {
    hash.add(static_cast<uint64_t>(warp.status));
    hash.add(warp.exited);
    if (warp.done()) continue;
    hash.add(warp.current);
    hash.add(warp.slice);
    std::vector<const Frame*> frames;
    for (const ThreadGroup& g : warp.groups) {
      hash.add(g.mask);
      hash.add(g.pc);
      hash.add(static_cast<uint64_t>(g.wait) | (uint64_t{g.waited} << 8));
      for (uint32_t id : g.splits) hash.add(id);
      for (const Frame* f = g.frame; f != nullptr; f = f->caller) frames.push_back(f);
    }
    // Groups share frames: each is hashed once.
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    for (const Frame* f : frames) {
      hash.add(reinterpret_cast<uintptr_t>(f->function));
      hash.add(f->registers.data(), f->registers.size() * sizeof(uint64_t));
      hash.add(f->params.data(), f->params.size());
    }
    for (const Divergence& d : warp.divergences) hash.add(d.live ? d.lanes : 0);
  }
  return hash.h;
}

}  // namespace

bool ProgressMonitor::repeating(const CtaState& cta, uint64_t executed, uint64_t launchWrites) {
  if (cta.memoryWrites != lastWrites_ || launchWrites != lastLaunchWrites_) {
    lastWrites_ = cta.memoryWrites;
    lastLaunchWrites_ = launchWrites;
    quiet_ = 0;
    power_ = 1;
    length_ = 0;
    haveSaved_ = false;
    repeating_ = false;
    return false;
  }
  quiet_ += executed;
  // Sampling every kSampleRounds-th round still finds every cycle (its
  // period in samples divides its period in rounds) at a fraction of the cost.
  if (repeating_) return true;
  if (quiet_ < kQuietInstructions || ++rounds_ % kSampleRounds != 0) return false;
  uint64_t h = stateHash(cta);
  if (haveSaved_ && h == saved_) return repeating_ = true;
  if (++length_ >= power_) {
    saved_ = h;
    haveSaved_ = true;
    power_ *= 2;
    length_ = 0;
  }
  return false;
}

}  // namespace ptxsim::sim::exec
