// The fat binary reader on containers built here the way nvcc lays them out
// (an ELF cubin entry, a zstd-compressed PTX entry, an uncompressed one).

#include "ptxsim/runtime/fatbin.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <cstring>

namespace ptxsim::runtime {
namespace {

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); }

// One entry: a 64-byte header (80 for PTX, as nvcc writes) and its payload.
enum class Packing { Plain, Zstd, Lz4 };

std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, const std::string& payload, Packing packing) {
  std::string bytes = payload;
  uint32_t flags = 0x11;
  bool compress = packing != Packing::Plain;
  if (packing == Packing::Lz4) {
    std::string out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(payload.size()))), '\0');
    int n = LZ4_compress_default(payload.data(), out.data(), static_cast<int>(payload.size()),
                                 static_cast<int>(out.size()));
    out.resize(static_cast<size_t>(n));
    bytes = out;
    flags |= 0x2000;
  } else if (packing == Packing::Zstd) {
    std::string out(ZSTD_compressBound(payload.size()), '\0');
    size_t n = ZSTD_compress(out.data(), out.size(), payload.data(), payload.size(), 3);
    out.resize(n);
    bytes = out;
    flags |= 0x8000;
  }
  size_t padded = (bytes.size() + 7) / 8 * 8;
  uint32_t header = kind == 1 ? 80 : 64;
  std::vector<uint8_t> e(header + padded, 0);
  e[0] = static_cast<uint8_t>(kind);
  e[2] = 1;
  e[3] = 1;
  put32(e, 4, header);
  put64(e, 8, padded);
  put32(e, 16, compress ? static_cast<uint32_t>(bytes.size()) : 0);
  put32(e, 28, arch);
  put32(e, 40, flags);
  put64(e, 56, payload.size());
  std::memcpy(e.data() + header, bytes.data(), bytes.size());
  return e;
}

std::vector<uint8_t> container(const std::vector<std::vector<uint8_t>>& entries) {
  std::vector<uint8_t> c(16, 0);
  put32(c, 0, kFatbinMagic);
  c[4] = 1;
  c[6] = 16;
  for (const auto& e : entries) c.insert(c.end(), e.begin(), e.end());
  put64(c, 8, c.size() - 16);
  return c;
}

TEST(Fatbin, ReadsCompressedAndPlainPtxAndPicksTheBestArchitecture) {
  std::string ptx80 = ".version 8.0\n.target sm_80\n// eighty";
  std::string ptx90 = ".version 9.0\n.target sm_90\n// ninety";
  std::vector<uint8_t> bytes =
      container({entry(2, 90,
                       std::string("\x7f"
                                   "ELF",
                                   4),
                       Packing::Plain),
                 entry(1, 80, ptx80, Packing::Plain), entry(1, 90, ptx90, Packing::Zstd)});
  std::string error;
  auto fatbin = readFatbin(bytes.data(), bytes.size(), error);
  ASSERT_TRUE(fatbin) << error;
  ASSERT_EQ(fatbin->entries.size(), 3u);
  EXPECT_EQ(fatbin->bytes, bytes.size());
  EXPECT_EQ(fatbin->architectures(), "sm_90 (cubin), compute_80 (PTX), compute_90 (PTX)");
  ASSERT_NE(fatbin->bestPtx(90), nullptr);
  EXPECT_EQ(fatbin->bestPtx(90)->ptx, ptx90);
  EXPECT_EQ(fatbin->bestPtx(86)->ptx, ptx80);
  EXPECT_EQ(fatbin->bestPtx(75), nullptr);
}

TEST(Fatbin, PicksTheNewestCubinNotAboveTheGpu) {
  // A GPU newer than all the machine code takes the newest cubin's register
  // counts (h100_forward and an sm_90 program); an older one none.
  std::vector<uint8_t> bytes = container({entry(2, 80,
                                                std::string("\x7f"
                                                            "ELF80",
                                                            6),
                                                Packing::Plain),
                                          entry(2, 90,
                                                std::string("\x7f"
                                                            "ELF90",
                                                            6),
                                                Packing::Plain),
                                          entry(1, 90, ".version 9.0", Packing::Plain)});
  std::string error;
  auto fatbin = readFatbin(bytes.data(), bytes.size(), error);
  ASSERT_TRUE(fatbin) << error;
  ASSERT_NE(fatbin->bestCubin(130), nullptr);
  EXPECT_EQ(fatbin->bestCubin(130)->arch, 90u);
  EXPECT_EQ(fatbin->bestCubin(90)->arch, 90u);
  EXPECT_EQ(fatbin->bestCubin(89)->arch, 80u);
  EXPECT_EQ(fatbin->bestCubin(75), nullptr);
}

TEST(Fatbin, ReadsTheLz4CompressionOfOlderToolkits) {
  std::string ptx = ".version 7.8\n.target sm_80\n" + std::string(300, 'x') + "// repeated text compresses";
  std::vector<uint8_t> bytes = container({entry(1, 80, ptx, Packing::Lz4)});
  std::string error;
  auto fatbin = readFatbin(bytes.data(), bytes.size(), error);
  ASSERT_TRUE(fatbin) << error;
  ASSERT_NE(fatbin->bestPtx(90), nullptr);
  EXPECT_EQ(fatbin->bestPtx(90)->ptx, ptx);
}

TEST(Fatbin, RejectsBadMagicTruncationAndDamagedPayloads) {
  std::string error;
  std::vector<uint8_t> junk(64, 0xab);
  EXPECT_FALSE(readFatbin(junk.data(), junk.size(), error));
  EXPECT_NE(error.find("bad magic"), std::string::npos);
  std::vector<uint8_t> bytes = container({entry(1, 90, ".version 9.0", Packing::Plain)});
  EXPECT_FALSE(readFatbin(bytes.data(), bytes.size() - 8, error));
  EXPECT_NE(error.find("truncated"), std::string::npos);
  std::vector<uint8_t> damaged = container({entry(1, 90, std::string(64, 'y'), Packing::Zstd)});
  damaged[16 + 80 + 6] ^= 0xff;
  EXPECT_FALSE(readFatbin(damaged.data(), damaged.size(), error));
  EXPECT_NE(error.find("cannot decompress the compute_90 PTX"), std::string::npos) << error;
}

}  // namespace
}  // namespace ptxsim::runtime
