#pragma once

// What cudaMemAdvise and cudaMemPrefetchAsync recorded for managed memory,
// page by page, as cudaMemRangeGetAttribute reports it. The advice changes
// nothing a program computes; only the queries read it. Ranges are kept as
// runs of pages with the same state, so a large allocation costs little.
// Standalone (addresses only), so it is tested alone.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace ptxsim::cudart {

struct PageAdvice {
  bool readMostly = false;
  cudaMemLocation preferred{cudaMemLocationTypeInvalid, 0};  // Invalid: none set
  std::set<int> accessedBy;                                  // device ordinals, cudaCpuDeviceId for the host
  cudaMemLocation lastPrefetch{cudaMemLocationTypeInvalid, 0};
  bool operator==(const PageAdvice& o) const {
    return readMostly == o.readMostly && preferred.type == o.preferred.type &&
           preferred.id == o.preferred.id && accessedBy == o.accessedBy &&
           lastPrefetch.type == o.lastPrefetch.type && lastPrefetch.id == o.lastPrefetch.id;
  }
};

class ManagedAdvice {
 public:
  // Advice applies to whole pages: the range is widened to page bounds.
  static constexpr uint64_t kPageBytes = 4096;

  // cudaMemAdvise; `location` already checked (Host, HostNuma or a device).
  void advise(uint64_t address, uint64_t bytes, cudaMemoryAdvise advice, cudaMemLocation location);
  // A prefetch has run (in stream order) to `location`.
  void prefetched(uint64_t address, uint64_t bytes, cudaMemLocation location);
  // Freed memory forgets its advice.
  void forget(uint64_t address, uint64_t bytes);
  void clear() { runs_.clear(); }

  // cudaMemRangeGetAttribute over [address, address + bytes): fills
  // `data` (dataSize bytes) or returns cudaErrorInvalidValue for a size
  // the attribute does not take or an unknown attribute.
  cudaError_t query(cudaMemRangeAttribute attribute, uint64_t address, uint64_t bytes, void* data,
                    size_t dataSize) const;

 private:
  // The distinct states of the pages of a range, in address order.
  std::vector<PageAdvice> statesOf(uint64_t address, uint64_t bytes) const;
  // Makes `at` the start of a run (splitting the run that holds it).
  void split(uint64_t at);
  template <class Change>
  void change(uint64_t address, uint64_t bytes, Change change);

  // Each run: from its key up to the next key, one state; pages with no
  // entry before them have the default state.
  std::map<uint64_t, PageAdvice> runs_;
};

}  // namespace ptxsim::cudart
