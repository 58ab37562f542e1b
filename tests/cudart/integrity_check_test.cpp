// The digest behind the static CUDA runtime's integrity check: MD2 against
// RFC 1319's test suite (appendix A.5), and the constant answers some
// runtime versions expect. (That the whole answer is right is shown by
// every statically linked program the program tests run: NVIDIA's runtime
// refuses to start otherwise.)

#include "integrity_check.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace ptxsim::driver {
namespace {

std::string hex(const std::array<uint8_t, 16>& digest) {
  std::string out;
  char byte[3];
  for (uint8_t b : digest) {
    std::snprintf(byte, sizeof byte, "%02x", b);
    out += byte;
  }
  return out;
}

std::string md2Of(const std::string& text) { return hex(md2(std::vector<uint8_t>(text.begin(), text.end()))); }

TEST(IntegrityCheck, Md2MatchesRfc1319TestSuite) {
  EXPECT_EQ(md2Of(""), "8350e5a3e24c153df2275c9f80692773");
  EXPECT_EQ(md2Of("a"), "32ec01ec4a6dac72c0ab96fb34c0b5d1");
  EXPECT_EQ(md2Of("abc"), "da853b0d3f88d99b30283a69e6ded6bb");
  EXPECT_EQ(md2Of("message digest"), "ab4f496bfb2a530b219ff33031fe06b0");
  EXPECT_EQ(md2Of("abcdefghijklmnopqrstuvwxyz"), "4e8ddff3650292ab5a4108c3aa47940b");
  EXPECT_EQ(md2Of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "da33def2a42df13975352846c30338cd");
  std::string digits;
  for (int i = 0; i < 8; ++i) digits += "1234567890";
  EXPECT_EQ(md2Of(digits), "d5976f79d83d3a0dc9806c3c66f3efd8");
}

TEST(IntegrityCheck, HmacKeysBothPasses) {
  // HMAC (RFC 2104) with a 16-byte block: the key padded with 0x36 inside,
  // 0x5c outside.
  std::array<uint8_t, 16> key{};
  for (int i = 0; i < 16; ++i) key[i] = static_cast<uint8_t>(i * 17);
  std::vector<uint8_t> message = {'p', 't', 'x'};
  std::vector<uint8_t> inner;
  for (uint8_t k : key) inner.push_back(k ^ 0x36);
  inner.insert(inner.end(), message.begin(), message.end());
  std::array<uint8_t, 16> innerDigest = md2(inner);
  std::vector<uint8_t> outer;
  for (uint8_t k : key) outer.push_back(k ^ 0x5c);
  outer.insert(outer.end(), innerDigest.begin(), innerDigest.end());
  EXPECT_EQ(hex(hmacMd2(key, message)), hex(md2(outer)));
  EXPECT_NE(hex(hmacMd2(key, message)), hex(md2(message)));
}

TEST(IntegrityCheck, SomeRuntimeVersionsExpectConstants) {
  IntegrityInputs inputs;
  inputs.runtimeVersion = 13000;
  EXPECT_EQ(integrityResponse(inputs)[0], 0x3341181C03CB675Cull);
  inputs.runtimeVersion = 12081;
  EXPECT_EQ(integrityResponse(inputs)[0], 0x1841181C03CB675Cull);
  inputs.runtimeVersion = 13002;
  EXPECT_NE(integrityResponse(inputs)[0], 0x3341181C03CB675Cull);
}

}  // namespace
}  // namespace ptxsim::driver
