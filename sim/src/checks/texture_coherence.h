#pragma once

// --check=warp-sync's texture coherence check. Texture and surface reads go
// through a cache that is not coherent with the kernel's own writes: a tex
// or tld4 that reads memory the same kernel writes may see the old value on
// a GPU (the programming guide leaves it undefined), while the simulator
// always reads current memory. This check reports such reads, once per pair
// of PTX lines (writer, reader).
//
// Watched memory: the device ranges of the textures and surfaces live at the
// launch (TextureRegistry::boundRanges). Writes come from the step reports
// (st, atom, red and sust report their addresses); reads come from the
// texture handlers through noteRead. Per 4-byte granule it keeps the lines
// that wrote and read it and whether one thread or several did. A read is a
// hazard when the granule was written before (by any thread), or written
// after by another thread; a thread that reads and then itself writes a
// texel is well defined and not reported. This makes the result independent
// of the order in which host threads ran the CTAs.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptxsim/isa/module.h"
#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/step_report.h"

namespace ptxsim::sim::checks {

class TextureCoherenceChecker final : public StepObserver {
 public:
  TextureCoherenceChecker(std::string kernel, Dim3 block, std::vector<std::pair<uint64_t, uint64_t>> watched);

  // Writes (st/atom/red/sust steps into watched memory).
  void onStep(const StepReport& report) override;
  // A texture read of [address, address + bytes) by PTX line `line` of
  // thread `thread` (linear over the grid: cta * threads per block + tid).
  void noteRead(uint64_t address, uint64_t bytes, const isa::Instruction& reader, uint64_t thread);
  // A write not seen through a step report (a handler writing several
  // texels per lane).
  void noteWrite(uint64_t address, uint64_t bytes, const isa::Instruction& writer, uint64_t thread);

  // One "ptxsim: texture-coherence hazard ..." line per (writer, reader)
  // pair of PTX lines, sorted. Call after the launch.
  std::vector<std::string> hazards() const;

 private:
  static constexpr uint64_t kSeveral = UINT64_MAX;
  struct Access {
    uint32_t line = 0;
    uint64_t thread = 0;  // kSeveral when more than one thread
    std::string what;     // the mnemonic, for the message
  };
  struct Granule {
    std::vector<Access> writes;
    std::vector<Access> reads;
  };
  bool watched(uint64_t address) const;
  static void add(std::vector<Access>& list, const isa::Instruction& inst, uint64_t thread);

  std::string kernel_;
  uint64_t blockThreads_;
  std::vector<std::pair<uint64_t, uint64_t>> watched_;  // sorted (first, bytes)
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Granule> granules_;
  // (writer line, reader line) -> "writer mnemonic", "reader mnemonic".
  std::map<std::pair<uint32_t, uint32_t>, std::pair<std::string, std::string>> found_;
};

}  // namespace ptxsim::sim::checks
