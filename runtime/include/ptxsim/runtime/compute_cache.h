#pragma once

// The compute cache: modules ptxsim has parsed and lowered, kept on disk
// keyed by their PTX, so that the next run of a program (or of another
// program using the same library) reads them back instead of parsing
// again. As CUDA's own compute cache, it answers to CUDA_CACHE_DISABLE=1
// (off), CUDA_CACHE_PATH (the folder; ptxsim keeps its files in its
// ptxsim/ subfolder; default ~/.nv/ComputeCache) and CUDA_CACHE_MAXSIZE
// (bytes; default 256 MiB: the least recently used entries go first, and
// an entry larger than the whole is not kept). An entry ptxsim cannot read
// (another build's, cut short) is a miss, and is replaced.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ptxsim/isa/module.h"

namespace ptxsim::runtime {

struct ComputeCacheSettings {
  std::filesystem::path directory;  // where the entries go (the ptxsim/ subfolder included)
  uint64_t maxBytes = uint64_t{256} << 20;
};

// The settings CUDA's environment variables give; nullopt when the cache
// is off (CUDA_CACHE_DISABLE=1, or no folder to put it in).
std::optional<ComputeCacheSettings> computeCacheFromEnvironment();

class ComputeCache {
 public:
  explicit ComputeCache(ComputeCacheSettings settings) : settings_(std::move(settings)) {}

  // Where the entry of the module lowered from `ptx` is: the PTX's hash,
  // taken once for a lookup and the store after it.
  struct Entry {
    std::filesystem::path path;
  };
  Entry entryFor(std::string_view ptx) const;

  // The module, if its entry can be read.
  std::shared_ptr<const isa::Module> find(const Entry& entry);
  // Keeps `module` in its entry, then trims the cache to its size.
  void store(const Entry& entry, const isa::Module& module);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  void trim();

  ComputeCacheSettings settings_;
  std::atomic<uint64_t> hits_{0}, misses_{0};
};

}  // namespace ptxsim::runtime
