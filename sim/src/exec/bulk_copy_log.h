#pragma once

// What the bulk copies an instruction issued (cp.async.bulk and
// cp.async.bulk.tensor, the tensor memory accelerator's work) leave for the
// timing driver, which sets ExecContext::bulkCopies: the 32-byte sectors
// of global memory they read or wrote, to time through the L2, and the
// mbarrier completions of the loads, which it applies when their data has
// arrived. Without a log (functional runs) the completions happen at once.

#include <cstdint>
#include <vector>

namespace ptxsim::sim::exec {

struct BulkCopyLog {
  static constexpr uint64_t kSectorBytes = 32;
  struct Completion {
    uint64_t barrier = 0;  // the mbarrier's shared address
    uint32_t bytes = 0;    // the transaction count it completes
    unsigned lane = 0;
  };
  std::vector<uint64_t> sectors;  // sector addresses of global memory, in copy order, repeats included
  bool writesGlobal = false;      // stores or reductions (else loads)
  std::vector<Completion> completions;

  bool empty() const { return sectors.empty() && completions.empty(); }
  void clear() {
    sectors.clear();
    completions.clear();
    writesGlobal = false;
  }
  // Notes `bytes` of global memory at `address` (a sector once per run of
  // accesses to it).
  void touch(uint64_t address, uint64_t bytes) {
    for (uint64_t s = address / kSectorBytes; s <= (address + bytes - 1) / kSectorBytes; ++s) {
      if (sectors.empty() || sectors.back() != s * kSectorBytes) sectors.push_back(s * kSectorBytes);
    }
  }
};

}  // namespace ptxsim::sim::exec
