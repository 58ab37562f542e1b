// Device runtime functions: printf (the formatter on host-packed buffers,
// vprintf from PTX, and the printf_cases program against the text an H100
// printed), __assertfail, malloc and free.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "../../../sim/src/semantics/printf_format.h"
#include "../../support/cuda_programs.h"

namespace ptxsim {
namespace {

using sim::semantics::formatPrintf;
using sim::semantics::PrintfArguments;

// An argument buffer packed as nvcc packs it: each value at its natural
// alignment; strings live at made-up addresses.
class HostArgs final : public PrintfArguments {
 public:
  template <typename T>
  HostArgs& add(T value) {
    size_t at = (bytes_.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
    return *this;
  }
  HostArgs& str(const std::string& text) {
    uint64_t address = 0x1000 * (strings_.size() + 1);
    strings_[address] = text;
    return add(address);
  }
  bool read(uint64_t offset, unsigned size, uint64_t& value) override {
    if (offset + size > bytes_.size()) return false;
    value = 0;
    std::memcpy(&value, bytes_.data() + offset, size);
    return true;
  }
  bool readString(uint64_t address, uint64_t limit, std::string& text) override {
    auto it = strings_.find(address);
    if (it == strings_.end()) return false;
    text = it->second.substr(0, std::min<uint64_t>(limit, it->second.size()));
    return true;
  }

 private:
  std::vector<uint8_t> bytes_;
  std::map<uint64_t, std::string> strings_;
};

std::string format(const std::string& fmt, HostArgs args, int* used = nullptr) {
  std::string out;
  int n = formatPrintf(fmt, args, out);
  if (used != nullptr) *used = n;
  return out;
}

TEST(PrintfFormat, IntegerConversionsAndFlags) {
  EXPECT_EQ(format("%d %i %u %o %x %X", HostArgs().add(-42).add(42).add(-42).add(8).add(255).add(255)),
            "-42 42 4294967254 10 ff FF");
  EXPECT_EQ(format("[%5d][%-5d][%05d][%+d][% d][%+05d][%-05d][%+ d]",
                   HostArgs().add(42).add(42).add(-42).add(42).add(42).add(42).add(42).add(42)),
            "[   42][42   ][-0042][+42][ 42][+0042][42   ][+42]");
  EXPECT_EQ(format("[%.3d][%8.3d][%.0d][%5.0d][%.10d][%08.3d]",
                   HostArgs().add(7).add(7).add(0).add(0).add(-7).add(7)),
            "[007][     007][][     ][-0000000007][     007]");
  EXPECT_EQ(format("[%#o][%#x][%#X][%#x][%#.0o][%#08x]",
                   HostArgs().add(8).add(255).add(255).add(0).add(0).add(255)),
            "[010][0xff][0XFF][0][0][0x0000ff]");
  EXPECT_EQ(format("%d %d %u", HostArgs().add(INT32_MIN).add(INT32_MAX).add(UINT32_MAX)),
            "-2147483648 2147483647 4294967295");
}

TEST(PrintfFormat, LengthModifiersChooseTheArgumentSize) {
  // h narrows the promoted int; l and ll take 8 bytes at 8-byte alignment.
  EXPECT_EQ(format("%hd %hd %hu %hx", HostArgs().add(70000).add(40000).add(-1).add(0x12345)),
            "4464 -25536 65535 2345");
  EXPECT_EQ(format("%hhd %hhu", HostArgs().add(300).add(-1)), "44 255");
  EXPECT_EQ(
      format(
          "%d %ld %lld %llu %lx",
          HostArgs().add(1).add(int64_t{-1}).add(INT64_MIN).add(UINT64_MAX).add(int64_t{0x123456789abcdef0})),
      "1 -1 -9223372036854775808 18446744073709551615 123456789abcdef0");
  // Mismatched types read the buffer by the format (as the H100 does).
  EXPECT_EQ(format("%d %d, %ld", HostArgs().add(1.5).add(7).add(42)), "0 1073217536, 180388626439");
}

TEST(PrintfFormat, CharactersStringsAndPointers) {
  EXPECT_EQ(format("[%c][%3c][%-3c][%c]", HostArgs().add(int{'A'}).add(int{'b'}).add(int{'c'}).add(0x141)),
            "[A][  b][c  ][A]");
  EXPECT_EQ(
      format(
          "[%s][%10s][%-10s][%.2s][%10.3s][%.0s][%s]",
          HostArgs().str("hello").str("hello").str("hello").str("hello").str("hello").str("hello").str("")),
      "[hello][     hello][hello     ][he][       hel][][]");
  EXPECT_EQ(format("[%s][%.3s][%.6s][%10s]",
                   HostArgs().add(uint64_t{0}).add(uint64_t{0}).add(uint64_t{0}).add(uint64_t{0})),
            "[(null)][][(null)][    (null)]");
  EXPECT_EQ(format("%p %p [%20p]", HostArgs().add(uint64_t{0x1234}).add(uint64_t{0}).add(uint64_t{0xabc})),
            "0x1234 (nil) [               0xabc]");
  std::string withNul = format("a%cb", HostArgs().add(0));
  EXPECT_EQ(withNul, std::string("a\0b", 3));
}

TEST(PrintfFormat, FloatingPoint) {
  double pi = 3.14159265358979;
  EXPECT_EQ(format("%f %F %e %E %g %G %a %A",
                   HostArgs().add(pi).add(pi).add(pi).add(pi).add(pi).add(pi).add(pi).add(pi)),
            "3.141593 3.141593 3.141593e+00 3.141593E+00 3.14159 3.14159 0x1.921fb54442d11p+1 "
            "0X1.921FB54442D11P+1");
  EXPECT_EQ(format("[%10.3f][%-10.3f][%010.3f][%+f][%.0f][%#.0f][%.0e][%#g][%.3g]", HostArgs()
                                                                                        .add(3.14159)
                                                                                        .add(3.14159)
                                                                                        .add(-3.14159)
                                                                                        .add(3.14159)
                                                                                        .add(2.5)
                                                                                        .add(2.0)
                                                                                        .add(15000.0)
                                                                                        .add(1.5)
                                                                                        .add(1234.5678)),
            "[     3.142][3.142     ][-00003.142][+3.141590][2][2.][2e+04][1.50000][1.23e+03]");
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(
      format(
          "%f %E %g|%5.1f|%-6f|%+f|%010f|%f|%e|%a",
          HostArgs().add(inf).add(-inf).add(inf).add(inf).add(nan).add(inf).add(-inf).add(-nan).add(0.0).add(
              -0.0)),
      "inf -INF inf|  inf|nan   |+inf|      -inf|-nan|0.000000e+00|-0x0p+0");
  // Round half to even on exact ties, correctly rounded otherwise.
  EXPECT_EQ(format("%.0f %.0f %.0f %.1f %.2f", HostArgs().add(0.5).add(1.5).add(2.5).add(0.25).add(1.005)),
            "0 2 2 0.2 1.00");
  EXPECT_EQ(format("%g %g %g %.17g %a %.2a",
                   HostArgs().add(100000.0).add(1e6).add(1e-5).add(0.1).add(1e-320).add(1.999)),
            "100000 1e+06 1e-05 0.10000000000000001 0x0.00000000007e8p-1022 0x2.00p+0");
}

TEST(PrintfFormat, StarWidthPercentAndUnknownConversions) {
  int used = 0;
  EXPECT_EQ(format("[%*d][%*d][%0*d]", HostArgs().add(5).add(42).add(-5).add(42).add(4).add(7), &used),
            "[   42][42   ][0007]");
  EXPECT_EQ(used, 6);  // each * is an argument
  EXPECT_EQ(format("100%% [%5%] %%d [%y] [%5y] [%k%d] end %", HostArgs().add(9), &used),
            "100% [%5%] %d [%y] [%5y] [%k9] end %");
  EXPECT_EQ(used, 1);
  EXPECT_EQ(format("no conversions", HostArgs(), &used), "no conversions");
  EXPECT_EQ(used, 0);
}

TEST(PrintfFormat, PastThirtyTwoArgumentsPrintsFormatBytes) {
  HostArgs args;
  std::string fmt;
  for (int i = 1; i <= 34; ++i) {
    args.add(i);
    fmt += "%d ";
  }
  int used = 0;
  std::string out = format(fmt, args, &used);
  EXPECT_EQ(used, 32);
  // 33rd: the format's bytes 0-7 ("%d %d %d") as an int: "%d %" = 0x25206425.
  EXPECT_NE(out.find("31 32 622879781 543434016 "), std::string::npos) << out;
}

TEST(PrintfFormat, FailedReadStops) {
  int used = 0;
  format("%d %d", HostArgs().add(1), &used);
  EXPECT_EQ(used, -1);
  format("%s", HostArgs().add(uint64_t{0x9999}), &used);
  EXPECT_EQ(used, -1);
}

// PTX byte-array initializer for a NUL-terminated string.
std::string bytes(const std::string& text) {
  std::string out = "{";
  for (unsigned char c : text) out += std::to_string(c) + ", ";
  return out + "0}";
}

std::string header(const std::string& globals) {
  return ".version 9.0\n.target sm_90\n.address_size 64\n"
         ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 p0, .param .b64 p1);\n"
         ".extern .func __assertfail (.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param "
         ".b64 a4);\n"
         ".extern .func (.param .b64 func_retval0) malloc (.param .b64 m0);\n"
         ".extern .func free (.param .b64 f0);\n" +
         globals;
}

struct KernelOutput {
  std::string printed;
  std::vector<uint64_t> out;
  sim::LaunchResult result;
};

KernelOutput launch(const std::string& ptx, unsigned threads, size_t outWords, sim::GpuConfig config = {}) {
  Device device(config, DeviceOptions{1});
  auto module = device.loadModule(ptx, "devrt.ptx");
  uint64_t out = device.malloc(outWords * 8);
  device.memset(out, 0, outWords * 8);
  KernelOutput run;
  run.result = device.launch(*module, "k", {1}, {threads}, 0, KernelArgs().add(out));
  run.out = device.read<uint64_t>(out, outWords);
  run.printed = device.takePrintfOutput();
  return run;
}

// Each lane prints its format with %tid.x, a string and the double 1.5;
// the return value goes to out[tid].
std::string printfKernel(const std::string& formatText, bool passBuffer = true) {
  return header(".global .align 1 .b8 fmt[" + std::to_string(formatText.size() + 1) +
                "] = " + bytes(formatText) + ";\n.global .align 1 .b8 word[4] = " + bytes("abc") + ";\n") +
         ".visible .entry k(.param .u64 out_param) {\n"
         ".local .align 8 .b8 buf[24];\n"
         ".reg .b64 %rd<12>; .reg .b32 %r<4>; .reg .f64 %fd<2>;\n"
         "ld.param.u64 %rd1, [out_param];\n"
         "mov.u32 %r1, %tid.x;\n"
         "mov.u64 %rd2, buf; cvta.local.u64 %rd3, %rd2;\n"
         "st.local.u32 [%rd2], %r1;\n"
         "mov.u64 %rd4, word; cvta.global.u64 %rd5, %rd4; st.local.u64 [%rd2+8], %rd5;\n"
         "mov.f64 %fd1, 0d3FF8000000000000; st.local.f64 [%rd2+16], %fd1;\n"
         "mov.u64 %rd6, fmt; cvta.global.u64 %rd7, %rd6;\n" +
         std::string(passBuffer ? "" : "mov.u64 %rd3, 0;\n") +
         "{ .param .b64 param0; st.param.b64 [param0], %rd7; .param .b64 param1; st.param.b64 [param1], "
         "%rd3;\n"
         "  .param .b32 retval0; call.uni (retval0), vprintf, (param0, param1); ld.param.b32 %r2, [retval0]; "
         "}\n"
         "mul.wide.u32 %rd8, %r1, 8; add.u64 %rd9, %rd1, %rd8; st.global.u32 [%rd9], %r2;\n"
         "ret;\n}\n";
}

TEST(DeviceRuntime, VprintfLanesPrintInLaneOrder) {
  KernelOutput run = launch(printfKernel("lane %2d: %s|%.1f\n"), 32, 32);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  std::string want;
  for (int i = 0; i < 32; ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "lane %2d: abc|1.5\n", i);
    want += line;
  }
  EXPECT_EQ(run.printed, want);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(run.out[i], 3u) << i;
}

TEST(DeviceRuntime, VprintfWithoutArgumentsReturnsZero) {
  KernelOutput run = launch(printfKernel("hi\n", false), 2, 2);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.printed, "hi\nhi\n");
  EXPECT_EQ(run.out[0], 0u);
}

TEST(DeviceRuntime, VprintfConversionWithNullBufferFaults) {
  // The H100 reports cudaErrorIllegalAddress for printf("%d\n") with no arguments.
  KernelOutput run = launch(printfKernel("%d\n", false), 1, 1);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_NE(run.result.error.message.find("no arguments"), std::string::npos) << run.result.error.message;
}

TEST(DeviceRuntime, VprintfNullFormatReturnsMinusOne) {
  std::string ptx = printfKernel("x");
  ptx.replace(ptx.find("mov.u64 %rd6, fmt; cvta.global.u64 %rd7, %rd6;"), 47, "mov.u64 %rd7, 0;");
  KernelOutput run = launch(ptx, 1, 1);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  EXPECT_EQ(run.printed, "");
  EXPECT_EQ(run.out[0], 0xffffffffu);  // -1 as a 32-bit result
}

TEST(DeviceRuntime, AssertFailReportsCudasLineAndFailsTheLaunch) {
  std::string ptx =
      header(".global .align 1 .b8 msg[6] = " + bytes("x > 0") + ";\n.global .align 1 .b8 file[5] = " +
             bytes("a.cu") + ";\n.global .align 1 .b8 fn[12] = " + bytes("void k(int)") + ";\n") +
      ".visible .entry k(.param .u64 out_param) {\n"
      ".reg .b64 %rd<8>; .reg .b32 %r<2>; .reg .pred %p1;\n"
      "mov.u32 %r1, %tid.x; setp.lt.u32 %p1, %r1, 5; @%p1 bra DONE;\n"
      "mov.u64 %rd1, msg; cvta.global.u64 %rd2, %rd1; mov.u64 %rd3, file; cvta.global.u64 %rd4, %rd3;\n"
      "mov.u64 %rd5, fn; cvta.global.u64 %rd6, %rd5;\n"
      "{ .param .b64 a0; st.param.b64 [a0], %rd2; .param .b64 a1; st.param.b64 [a1], %rd4;\n"
      "  .param .b32 a2; st.param.b32 [a2], 17; .param .b64 a3; st.param.b64 [a3], %rd6;\n"
      "  .param .b64 a4; st.param.b64 [a4], 1; call.uni __assertfail, (a0, a1, a2, a3, a4); }\n"
      "DONE: ret;\n}\n";
  KernelOutput run = launch(ptx, 8, 1);
  EXPECT_EQ(run.result.error.kind, sim::LaunchErrorKind::Assert);
  EXPECT_EQ(
      run.result.error.message.rfind(
          "a.cu:17: void k(int): block: [0,0,0], thread: [5,0,0] Assertion `x > 0` failed. in kernel k", 0),
      0u)
      << run.result.error.message;
  EXPECT_EQ(run.printed, "");  // the GPU prints it to stderr, not with printf
}

// Each lane mallocs `size` bytes (size from the kernel's text), stores its
// lane number in every 8-byte word, reads them back, and writes
// out[tid] = pointer (0 for NULL) and out[32 + tid] = 1 if the words held.
// `freeMode`: 0 free, 1 keep, 2 free twice, 3 free pointer + 16.
std::string mallocKernel(uint64_t size, int freeMode) {
  std::string freeCall = "{ .param .b64 f0; st.param.b64 [f0], %rd9; call.uni free, (f0); }\n";
  std::string frees = freeMode == 0   ? freeCall
                      : freeMode == 2 ? freeCall + freeCall
                      : freeMode == 3 ? "add.u64 %rd9, %rd9, 16;\n" + freeCall
                                      : "";
  return header("") +
         ".visible .entry k(.param .u64 out_param) {\n"
         ".reg .b64 %rd<16>; .reg .b32 %r<2>; .reg .pred %p<3>;\n"
         "ld.param.u64 %rd1, [out_param]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 1;\n"
         "{ .param .b64 m0; st.param.b64 [m0], " +
         std::to_string(size) +
         "; .param .b64 retval0;\n"
         "  call.uni (retval0), malloc, (m0); ld.param.b64 %rd9, [retval0]; }\n"
         "mul.wide.u32 %rd3, %r1, 8; add.u64 %rd4, %rd1, %rd3; st.global.u64 [%rd4], %rd9;\n"
         "setp.eq.u64 %p1, %rd9, 0; @%p1 bra DONE;\n"
         "mov.u64 %rd5, 0;\n"
         "W: add.u64 %rd6, %rd9, %rd5; st.u64 [%rd6], %rd2; add.u64 %rd5, %rd5, 8; setp.lt.u64 %p2, %rd5, " +
         std::to_string(size) +
         "; @%p2 bra W;\n"
         "bar.sync 0;\n"
         "mov.u64 %rd5, 0; mov.u64 %rd10, 1;\n"
         "R: add.u64 %rd6, %rd9, %rd5; ld.u64 %rd7, [%rd6]; setp.ne.u64 %p2, %rd7, %rd2; @%p2 mov.u64 %rd10, "
         "0;\n"
         "add.u64 %rd5, %rd5, 8; setp.lt.u64 %p2, %rd5, " +
         std::to_string(size) +
         "; @%p2 bra R;\n"
         "st.global.u64 [%rd4+256], %rd10;\n" +
         frees + "DONE: ret;\n}\n";
}

TEST(DeviceRuntime, MallocGivesEachThreadItsOwnAlignedBlock) {
  KernelOutput run = launch(mallocKernel(40, 0), 32, 64);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  std::vector<uint64_t> pointers(run.out.begin(), run.out.begin() + 32);
  std::sort(pointers.begin(), pointers.end());
  for (int i = 0; i < 32; ++i) {
    EXPECT_NE(run.out[i], 0u) << i;
    EXPECT_EQ(run.out[i] % 16, 0u) << i;
    EXPECT_EQ(run.out[32 + i], 1u) << "lane " << i << " saw another lane's writes";
    if (i > 0) EXPECT_GE(pointers[i] - pointers[i - 1], 48u);  // 40 bytes round up to 48
  }
}

TEST(DeviceRuntime, MallocReturnsNullWhenTheHeapIsExhausted) {
  sim::GpuConfig config;
  config.mallocHeapBytes = 4096;
  KernelOutput run = launch(mallocKernel(1024, 1), 32, 64, config);
  ASSERT_FALSE(run.result.error) << run.result.error.message;
  for (int i = 0; i < 32; ++i) {
    if (i < 4) {
      EXPECT_NE(run.out[i], 0u) << i;
      EXPECT_EQ(run.out[32 + i], 1u) << i;
    } else {
      EXPECT_EQ(run.out[i], 0u) << i;
    }
  }
  // Freed blocks are reused: the same launch with free succeeds for 4 lanes too,
  // and a second launch of the freeing kernel finds the heap empty again.
  KernelOutput huge = launch(mallocKernel(uint64_t{1} << 40, 1), 1, 64, config);
  ASSERT_FALSE(huge.result.error) << huge.result.error.message;
  EXPECT_EQ(huge.out[0], 0u);
  KernelOutput max = launch(mallocKernel(UINT64_MAX, 1), 1, 64, config);
  ASSERT_FALSE(max.result.error) << max.result.error.message;
  EXPECT_EQ(max.out[0], 0u);  // no wrap to a zero-byte block
}

TEST(DeviceRuntime, FreeOfABadPointerOrTwiceIsAnError) {
  KernelOutput twice = launch(mallocKernel(16, 2), 1, 64);
  EXPECT_EQ(twice.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
  EXPECT_NE(twice.result.error.message.find("not a pointer device malloc returned"), std::string::npos)
      << twice.result.error.message;
  KernelOutput inside = launch(mallocKernel(64, 3), 1, 64);
  EXPECT_EQ(inside.result.error.kind, sim::LaunchErrorKind::IllegalAddress);
}

// printf_cases.ptx, or null after a test failure carrying the loader's
// error (a refused instruction names itself and its PTX and source lines):
// an instruction that becomes refused must not turn these tests into skips.
std::shared_ptr<sim::LoadedModule> loadPrintfCases(Device& device) {
  try {
    return test::loadCudaProgram(device, "printf/printf_cases");
  } catch (const Error& e) {
    ADD_FAILURE() << "printf_cases.ptx does not load: " << e.what();
    return nullptr;
  }
}

// tests/cuda/printf/printf_cases.cu run as its main runs it, compared byte
// for byte with what an H100 printed (printf_cases.expected).
TEST(DeviceRuntime, PrintfCasesMatchTheGpu) {
  std::string problem =
      test::recordingProblem("printf/printf_cases.expected",
                             "record it on an H100: build tests/cuda/printf/printf_cases.cu with nvcc "
                             "-arch=sm_90 and save what it prints");
  if (!problem.empty()) GTEST_FAIL() << problem;
  std::string expected = test::readCudaFile("printf/printf_cases.expected");
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = loadPrintfCases(device);
  if (module == nullptr) return;  // the failure, with the loader's error, is recorded
  uint32_t count = device.read<uint32_t>(device.symbolAddress(*module, "case_count"), 1)[0];
  std::string printed;
  for (uint32_t i = 0; i < count; ++i) {
    sim::LaunchResult result =
        device.launch(*module, "cases", {1}, {i == 0 ? 32u : 1u}, 0, KernelArgs().add(static_cast<int>(i)));
    ASSERT_FALSE(result.error) << "case " << i << ": " << result.error.message;
    printed += device.takePrintfOutput();
  }
  // Line by line, so a difference names its case.
  std::istringstream want(expected), got(printed);
  std::string w, g;
  unsigned line = 0;
  while (std::getline(want, w)) {
    ++line;
    ASSERT_TRUE(static_cast<bool>(std::getline(got, g))) << "simulator output ends before line " << line;
    EXPECT_EQ(g, w) << "line " << line;
  }
  EXPECT_FALSE(static_cast<bool>(std::getline(got, g))) << "simulator printed more: " << g;
  EXPECT_EQ(printed, expected);
}

TEST(DeviceRuntime, PrintfCasesRiskyOnesBehaveAsOnTheGpu) {
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = loadPrintfCases(device);
  if (module == nullptr) return;  // the failure, with the loader's error, is recorded
  // risky(0): conversions with no arguments: cudaErrorIllegalAddress on the H100.
  sim::LaunchResult r0 = device.launch(*module, "risky", {1}, {1}, 0, KernelArgs().add(0));
  EXPECT_EQ(r0.error.kind, sim::LaunchErrorKind::IllegalAddress) << r0.error.message;
  device.takePrintfOutput();
  // risky(1): a null format prints nothing and returns -1.
  sim::LaunchResult r1 = device.launch(*module, "risky", {1}, {1}, 0, KernelArgs().add(1));
  ASSERT_FALSE(r1.error) << r1.error.message;
  EXPECT_EQ(device.takePrintfOutput(), "-> -1 n=0\n");
  // risky(3): assert; the H100 wrote this line to stderr.
  sim::LaunchResult r3 = device.launch(*module, "risky", {1}, {1}, 0, KernelArgs().add(3));
  EXPECT_EQ(r3.error.kind, sim::LaunchErrorKind::Assert);
  EXPECT_NE(
      r3.error.message.find("printf_cases.cu:170: void risky(int): block: [0,0,0], thread: [0,0,0] Assertion "
                            "`vi[0] == 41` failed."),
      std::string::npos)
      << r3.error.message;
}

}  // namespace
}  // namespace ptxsim
