#include "ptxsim/runtime/compute_cache.h"

#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>
#include <vector>

#include "ptxsim/isa/module_image.h"

namespace ptxsim::runtime {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSuffix = ".ptxir";

// Two 64-bit FNV-1a hashes from different starts, in one pass: with
// std::hash they make the key 192 bits of the PTX, plus its length.
std::pair<uint64_t, uint64_t> fnvPair(std::string_view s) {
  uint64_t a = 1469598103934665603ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : s) {
    a = (a ^ c) * 1099511628211ull;
    b = (b ^ c) * 1099511628211ull;
  }
  return {a, b};
}

std::string hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// Entries are module images compressed with zstd (an image is several
// times the size of its PTX; compressed, a fraction of it).
std::string compress(const std::string& image) {
  std::string out(ZSTD_compressBound(image.size()), '\0');
  size_t size = ZSTD_compress(out.data(), out.size(), image.data(), image.size(), 1);
  if (ZSTD_isError(size)) return {};
  out.resize(size);
  return out;
}

std::string decompress(const std::string& entry) {
  unsigned long long size = ZSTD_getFrameContentSize(entry.data(), entry.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (uint64_t{1} << 34)) return {};
  std::string out(size, '\0');
  size_t got = ZSTD_decompress(out.data(), out.size(), entry.data(), entry.size());
  if (ZSTD_isError(got) || got != size) return {};
  return out;
}

}  // namespace

std::optional<ComputeCacheSettings> computeCacheFromEnvironment() {
  auto variable = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  if (variable("CUDA_CACHE_DISABLE") == "1") return std::nullopt;
  ComputeCacheSettings settings;
  std::string path = variable("CUDA_CACHE_PATH");
  if (path.empty()) {
    std::string home = variable("HOME");
    if (home.empty()) return std::nullopt;
    path = home + "/.nv/ComputeCache";
  }
  settings.directory = fs::path(path) / "ptxsim";
  std::string maxSize = variable("CUDA_CACHE_MAXSIZE");
  if (!maxSize.empty()) settings.maxBytes = std::strtoull(maxSize.c_str(), nullptr, 10);
  if (settings.maxBytes == 0) return std::nullopt;
  return settings;
}

ComputeCache::Entry ComputeCache::entryFor(std::string_view ptx) const {
  auto [a, b] = fnvPair(ptx);
  std::string name = hex(a) + hex(b) + hex(std::hash<std::string_view>{}(ptx)) + "-" + std::to_string(ptx.size()) +
                     kSuffix;
  return {settings_.directory / name};
}

std::shared_ptr<const isa::Module> ComputeCache::find(const Entry& entry) {
  std::ifstream in(entry.path, std::ios::binary);
  if (!in) {
    ++misses_;
    return nullptr;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::shared_ptr<const isa::Module> module = isa::readModuleImage(decompress(bytes.str()));
  if (module == nullptr) {
    ++misses_;
    return nullptr;
  }
  // Least recently used goes first: a hit renews the entry.
  std::error_code ignored;
  fs::last_write_time(entry.path, fs::file_time_type::clock::now(), ignored);
  ++hits_;
  return module;
}

void ComputeCache::store(const Entry& entry, const isa::Module& module) {
  std::string image = compress(isa::writeModuleImage(module));
  if (image.empty() || image.size() > settings_.maxBytes) return;
  std::error_code error;
  fs::create_directories(settings_.directory, error);
  if (error) return;
  // Written beside, then renamed into place: a reader (another process
  // loading the same library) sees the whole entry or none.
  fs::path temporary = entry.path;
  temporary += ".";
  temporary += std::to_string(::getpid());
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) return;
    out.write(image.data(), static_cast<std::streamsize>(image.size()));
    if (!out) {
      fs::remove(temporary, error);
      return;
    }
  }
  fs::rename(temporary, entry.path, error);
  if (error) {
    fs::remove(temporary, error);
    return;
  }
  trim();
}

void ComputeCache::trim() {
  struct Kept {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes;
  };
  std::vector<Kept> entries;
  uint64_t total = 0;
  std::error_code error;
  for (const fs::directory_entry& e : fs::directory_iterator(settings_.directory, error)) {
    if (e.path().extension() != kSuffix) continue;
    std::error_code ignored;
    uint64_t bytes = e.file_size(ignored);
    entries.push_back({e.path(), e.last_write_time(ignored), bytes});
    total += bytes;
  }
  if (total <= settings_.maxBytes) return;
  std::sort(entries.begin(), entries.end(), [](const Kept& a, const Kept& b) { return a.used < b.used; });
  for (const Kept& e : entries) {
    if (total <= settings_.maxBytes) break;
    std::error_code ignored;
    if (fs::remove(e.path, ignored)) total -= e.bytes;
  }
}

}  // namespace ptxsim::runtime
