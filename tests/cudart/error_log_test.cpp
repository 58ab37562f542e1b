#include "error_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxsim::cudart {
namespace {

TEST(ErrorLog, DumpsFromAnIteratorAndAdvancesIt) {
  ErrorLog log;
  log.add(cudaLogLevelError, "ptxsim: first");
  cudaLogIterator it = log.current();
  EXPECT_EQ(it, 1u);
  log.add(cudaLogLevelError, "ptxsim: second");
  log.add(cudaLogLevelWarning, "ptxsim: third");
  EXPECT_EQ(log.dump(&it), "ptxsim: second\nptxsim: third\n");
  EXPECT_EQ(it, 3u);
  EXPECT_EQ(log.dump(&it), "");
  EXPECT_EQ(log.dump(nullptr), "ptxsim: first\nptxsim: second\nptxsim: third\n");
}

TEST(ErrorLog, DumpToMemoryKeepsTheNewestThatFitAndSaysSo) {
  ErrorLog log;
  std::string a(60, 'a'), b(60, 'b');
  log.add(cudaLogLevelError, a);
  log.add(cudaLogLevelError, b);
  char buffer[256];
  size_t size = sizeof buffer;
  ASSERT_TRUE(log.dumpToMemory(nullptr, buffer, &size));
  EXPECT_EQ(std::string(buffer), a + "\n" + b + "\n");
  EXPECT_EQ(size, 122u);
  // Room for the header line, the newest message and the NUL only.
  std::string header = "ptxsim: 1 older log message was left out\n";
  size = header.size() + 61 + 1;
  ASSERT_TRUE(log.dumpToMemory(nullptr, buffer, &size));
  EXPECT_EQ(std::string(buffer), header + b + "\n");
  EXPECT_EQ(size, header.size() + 61);
  size = 60;  // not even the newest message
  EXPECT_FALSE(log.dumpToMemory(nullptr, buffer, &size));
  EXPECT_EQ(size, 0u);
  cudaLogIterator end = log.current();
  size = sizeof buffer;
  ASSERT_TRUE(log.dumpToMemory(&end, buffer, &size));
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(buffer[0], '\0');
}

TEST(ErrorLog, KeepsAtMostItsCapacityAndCountsWhatItDropped) {
  ErrorLog log;
  std::string line(99, 'x');  // 100 bytes with its newline
  for (int i = 0; i < 300; ++i) log.add(cudaLogLevelError, line);
  std::string all = log.dump(nullptr);
  cudaLogIterator start = 0;
  std::string fromStart = log.dump(&start);
  EXPECT_EQ(start, 300u);
  // 256 lines fit in 25600 bytes; the 44 older ones are reported as dropped.
  EXPECT_EQ(fromStart, "ptxsim: 44 older log messages were left out\n" + all);
  EXPECT_EQ(all.size(), 25600u);
}

void record(void* data, cudaLogLevel level, char* message, size_t length) {
  static_cast<std::vector<std::string>*>(data)->push_back(std::to_string(level) +
                                                          std::string(message, length));
}

TEST(ErrorLog, CallsEachRegisteredCallbackUntilUnregistered) {
  ErrorLog log;
  std::vector<std::string> seen;
  cudaLogsCallbackHandle h = log.registerCallback(record, &seen);
  log.add(cudaLogLevelWarning, "w");
  EXPECT_TRUE(log.unregisterCallback(h));
  EXPECT_FALSE(log.unregisterCallback(h));
  log.add(cudaLogLevelError, "e");
  EXPECT_EQ(seen, std::vector<std::string>{"1w"});
}

}  // namespace
}  // namespace ptxsim::cudart
