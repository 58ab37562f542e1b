// The compute cache under the host API: a module loads from its entry the
// second time and runs the same; an entry that cannot be read is a miss and
// is replaced; the cache keeps to its size; CUDA's environment variables
// set it up.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "ptxsim/isa/lower.h"
#include "ptxsim/runtime/compute_cache.h"
#include "ptxsim/runtime/device.h"

namespace ptxsim {
namespace {

namespace fs = std::filesystem;

const std::string kPtx = std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx";

fs::path freshFolder(const std::string& name) {
  fs::path folder = fs::temp_directory_path() / ("ptxsim_compute_cache_test_" + name);
  fs::remove_all(folder);
  return folder;
}

std::vector<fs::path> entries(const fs::path& folder) {
  std::vector<fs::path> found;
  if (!fs::exists(folder)) return found;
  for (const auto& e : fs::directory_iterator(folder)) found.push_back(e.path());
  return found;
}

// Adds two vectors on a device whose loads go through `cache`.
std::vector<float> addOnDevice(std::shared_ptr<runtime::ComputeCache> cache) {
  DeviceOptions options{1};
  options.computeCache = std::move(cache);
  Device device(sim::GpuConfig{}, options);
  auto module = device.loadModuleFile(kPtx);
  const int n = 300;
  std::vector<float> a(n, 1.5f), b(n);
  for (int i = 0; i < n; ++i) b[i] = static_cast<float>(i);
  uint64_t da = device.upload(a), db = device.upload(b), dc = device.malloc(n * sizeof(float));
  sim::LaunchResult r =
      device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {2}, {256}, 0, KernelArgs().add(da).add(db).add(dc).add(n));
  EXPECT_FALSE(r.error) << r.error.message;
  return device.read<float>(dc, n);
}

TEST(ComputeCache, TheSecondLoadReadsTheEntryAndRunsTheSame) {
  fs::path folder = freshFolder("second_load");
  auto cache = std::make_shared<runtime::ComputeCache>(runtime::ComputeCacheSettings{folder});
  std::vector<float> first = addOnDevice(cache);
  EXPECT_EQ(cache->misses(), 1u);
  EXPECT_EQ(entries(folder).size(), 1u);
  std::vector<float> second = addOnDevice(cache);
  EXPECT_EQ(cache->hits(), 1u);
  EXPECT_EQ(second, first);
  EXPECT_EQ(second[299], 1.5f + 299.0f);
  fs::remove_all(folder);
}

TEST(ComputeCache, AnEntryThatCannotBeReadIsAMissAndIsReplaced) {
  fs::path folder = freshFolder("bad_entry");
  auto cache = std::make_shared<runtime::ComputeCache>(runtime::ComputeCacheSettings{folder});
  addOnDevice(cache);
  ASSERT_EQ(entries(folder).size(), 1u);
  fs::path entry = entries(folder)[0];
  uintmax_t size = fs::file_size(entry);
  fs::resize_file(entry, size / 3);
  std::vector<float> result = addOnDevice(cache);
  EXPECT_EQ(cache->hits(), 0u);
  EXPECT_EQ(cache->misses(), 2u);
  EXPECT_EQ(result[10], 11.5f);
  EXPECT_GT(fs::file_size(entry), size / 3);  // written again, whole
  addOnDevice(cache);
  EXPECT_EQ(cache->hits(), 1u);
  fs::remove_all(folder);
}

TEST(ComputeCache, KeepsToItsSizeDroppingTheLeastRecentlyUsed) {
  fs::path folder = freshFolder("size");
  // Three modules, each a little different; room for two.
  std::string ptx;
  {
    std::ifstream in(kPtx);
    ptx.assign(std::istreambuf_iterator<char>(in), {});
  }
  isa::CompileResult compiled = isa::compilePtx(ptx);
  ASSERT_TRUE(compiled.ok());
  runtime::ComputeCache probe(runtime::ComputeCacheSettings{folder});
  probe.store(probe.entryFor(ptx), *compiled.module);
  uint64_t entryBytes = fs::file_size(entries(folder)[0]);
  fs::remove_all(folder);
  runtime::ComputeCache cache(runtime::ComputeCacheSettings{folder, entryBytes * 2 + entryBytes / 2});
  cache.store(cache.entryFor(ptx + "\n// a"), *compiled.module);
  cache.store(cache.entryFor(ptx + "\n// b"), *compiled.module);
  EXPECT_NE(cache.find(cache.entryFor(ptx + "\n// a")), nullptr);  // a is now the more recently used
  cache.store(cache.entryFor(ptx + "\n// c"), *compiled.module);
  EXPECT_EQ(entries(folder).size(), 2u);
  EXPECT_NE(cache.find(cache.entryFor(ptx + "\n// a")), nullptr);
  EXPECT_EQ(cache.find(cache.entryFor(ptx + "\n// b")), nullptr);
  EXPECT_NE(cache.find(cache.entryFor(ptx + "\n// c")), nullptr);
  // An entry larger than the whole cache is not kept.
  runtime::ComputeCache tiny(runtime::ComputeCacheSettings{folder, 100});
  tiny.store(tiny.entryFor(ptx + "\n// d"), *compiled.module);
  EXPECT_EQ(tiny.find(tiny.entryFor(ptx + "\n// d")), nullptr);
  fs::remove_all(folder);
}

TEST(ComputeCache, CudasEnvironmentVariablesSetItUp) {
  ::setenv("CUDA_CACHE_PATH", "/tmp/some/cache", 1);
  ::setenv("CUDA_CACHE_MAXSIZE", "1048576", 1);
  ::unsetenv("CUDA_CACHE_DISABLE");
  std::optional<runtime::ComputeCacheSettings> s = runtime::computeCacheFromEnvironment();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->directory, fs::path("/tmp/some/cache/ptxsim"));
  EXPECT_EQ(s->maxBytes, 1048576u);
  ::setenv("CUDA_CACHE_DISABLE", "1", 1);
  EXPECT_FALSE(runtime::computeCacheFromEnvironment().has_value());
  ::unsetenv("CUDA_CACHE_DISABLE");
  ::unsetenv("CUDA_CACHE_PATH");
  ::unsetenv("CUDA_CACHE_MAXSIZE");
  const char* home = std::getenv("HOME");
  std::string savedHome = home != nullptr ? home : "";
  ::setenv("HOME", "/home/someone", 1);
  s = runtime::computeCacheFromEnvironment();
  ::setenv("HOME", savedHome.c_str(), 1);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->directory, fs::path("/home/someone/.nv/ComputeCache/ptxsim"));
  EXPECT_EQ(s->maxBytes, uint64_t{256} << 20);
}

}  // namespace
}  // namespace ptxsim
