// The PTX linker of -rdc=true programs on hand-written modules: the linked
// module is loaded and run on the simulator, so each test checks what the
// kernels compute, not only the text.

#include "ptxsim/runtime/ptx_linker.h"

#include <gtest/gtest.h>

#include "ptxsim/runtime/device.h"

namespace ptxsim::runtime {
namespace {

const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// A kernel k(out) that stores `body`'s %v (u32) to out[tid].
std::string kernelModule(const std::string& declarations, const std::string& body,
                         const std::string& version = ".version 8.0\n.target sm_80\n") {
  return version + ".address_size 64\n" + declarations +
         "\n.visible .entry k(.param .u64 out_param)\n{\n"
         "  .reg .u32 %v, %t, %a;\n  .reg .u64 %out, %o;\n"
         "  ld.param.u64 %out, [out_param];\n  mov.u32 %t, %tid.x;\n" +
         body +
         "\n  mul.wide.u32 %o, %t, 4;\n  add.u64 %out, %out, %o;\n  st.global.u32 [%out], %v;\n  ret;\n}\n";
}

// Links, loads and runs k on 4 threads; returns out[0..3].
std::vector<uint32_t> linkAndRun(const std::vector<PtxLinkInput>& modules, std::string* linked = nullptr) {
  PtxLinkResult r = linkPtx(modules);
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors.front());
  if (linked != nullptr) *linked = r.ptx;
  if (!r.ok()) return {};
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  auto module = device.loadModule(r.ptx, "linked.ptx");
  uint64_t out = device.malloc(16);
  sim::LaunchResult result = device.launch(*module, "k", {1}, {4}, 0, KernelArgs().add(out));
  EXPECT_FALSE(result.error) << result.error.message;
  return device.read<uint32_t>(out, 4);
}

const char* kCallTwice =
    "  { .param .b32 a0; .param .b32 r0;\n  st.param.b32 [a0], %t;\n"
    "  call.uni (r0), twice, (a0);\n  ld.param.b32 %v, [r0]; }";

TEST(PtxLinker, ResolvesAFunctionAndAVariableOfAnotherModule) {
  std::string user = kernelModule(
      ".extern .func (.param .b32 ret) twice(.param .b32 x);\n.extern .global .align 4 .u32 base;",
      std::string(kCallTwice) + "\n  ld.global.u32 %a, [base];\n  add.u32 %v, %v, %a;");
  std::string definer =
      std::string(kHeader) +
      ".visible .global .align 4 .u32 base = 100;\n"
      ".visible .func (.param .b32 ret) twice(.param .b32 x)\n{\n  .reg .u32 %x;\n"
      "  ld.param.u32 %x, [x];\n  shl.b32 %x, %x, 1;\n  st.param.b32 [ret], %x;\n  ret;\n}\n";
  std::string linked;
  EXPECT_EQ(linkAndRun({{"user", user}, {"definer", definer}}, &linked),
            (std::vector<uint32_t>{100, 102, 104, 106}));
  // One header; the extern declarations that the definitions satisfy are gone
  // when the definition comes first.
  EXPECT_EQ(linked.find(".version"), linked.rfind(".version"));
  EXPECT_EQ(linkAndRun({{"definer", definer}, {"user", user}}, &linked),
            (std::vector<uint32_t>{100, 102, 104, 106}));
  EXPECT_EQ(linked.find(".extern"), std::string::npos) << linked;
}

TEST(PtxLinker, TakesTheNewestVersionAndTheMostDemandingTarget) {
  std::string a = kernelModule("", "  mov.u32 %v, 7;", ".version 7.8\n.target sm_75\n");
  std::string b = ".version 8.3\n.target sm_90a\n.address_size 64\n.visible .global .u32 unused;\n";
  PtxLinkResult r = linkPtx({{"a", a}, {"b", b}});
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r.ptx.find(".version 8.3\n.target sm_90a\n.address_size 64\n"), std::string::npos) << r.ptx;
  EXPECT_EQ(r.ptx.find("7.8"), std::string::npos);
}

TEST(PtxLinker, RenamesCollidingInternalNamesWithinTheirModuleOnly) {
  // Both modules have a static helper, an internal variable and a $str of the
  // same names; the comment that names the helper must stay as written.
  auto helperModule = [](int factor, const std::string& entry) {
    std::string f = std::to_string(factor);
    return std::string(kHeader) + ".global .align 4 .u32 counter = " + f + ";\n" +
           ".global .align 1 .b8 $str[2] = {" + f + ", 0};\n" + "// _ZL6helperi multiplies by " + f + "\n" +
           ".func (.param .b32 ret) _ZL6helperi(.param .b32 x)\n{\n  .reg .u32 %x, %c;\n  .reg .u64 %s;\n"
           "  ld.param.u32 %x, [x];\n  mul.lo.u32 %x, %x, " +
           f +
           ";\n  ld.global.u32 %c, [counter];\n"
           "  add.u32 %x, %x, %c;\n  mov.u64 %s, $str;\n  ld.global.u8 %c, [%s];\n  add.u32 %x, %x, %c;\n"
           "  st.param.b32 [ret], %x;\n  ret;\n}\n" +
           ".visible .func (.param .b32 ret) " + entry +
           "(.param .b32 x)\n{\n  .reg .u32 %x;\n"
           "  { .param .b32 a; .param .b32 r;\n  ld.param.u32 %x, [x];\n  st.param.b32 [a], %x;\n"
           "  call.uni (r), _ZL6helperi, (a);\n  ld.param.b32 %x, [r]; }\n  st.param.b32 [ret], %x;\n  "
           "ret;\n}\n";
  };
  std::string user = kernelModule(
      ".extern .func (.param .b32 ret) viaTwo(.param .b32 x);\n.extern .func (.param .b32 ret) "
      "viaThree(.param .b32 "
      "x);",
      "  { .param .b32 a; .param .b32 r;\n  st.param.b32 [a], %t;\n  call.uni (r), viaTwo, (a);\n"
      "  ld.param.b32 %v, [r]; }\n  { .param .b32 a; .param .b32 r;\n  st.param.b32 [a], %t;\n"
      "  call.uni (r), viaThree, (a);\n  ld.param.b32 %a, [r]; }\n  mul.lo.u32 %a, %a, 1000;\n  add.u32 %v, "
      "%v, %a;");
  std::string linked;
  // viaTwo(t) = 2t + 2 + 2, viaThree(t) = 3t + 3 + 3.
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 4; ++t) expected.push_back(2 * t + 4 + 1000 * (3 * t + 6));
  EXPECT_EQ(
      linkAndRun({{"user", user}, {"two", helperModule(2, "viaTwo")}, {"three", helperModule(3, "viaThree")}},
                 &linked),
      expected);
  EXPECT_NE(linked.find("_ZL6helperi$tu3"), std::string::npos) << linked;
  EXPECT_NE(linked.find("$str$tu3"), std::string::npos);
  EXPECT_NE(linked.find("counter$tu3"), std::string::npos);
  EXPECT_NE(linked.find("// _ZL6helperi multiplies by 3"), std::string::npos) << "a comment was rewritten";
}

TEST(PtxLinker, TwoStrongDefinitionsAreAnErrorNamingBothModules) {
  std::string def = std::string(kHeader) + ".visible .global .align 4 .u32 dup = 1;\n";
  PtxLinkResult r = linkPtx({{"TU 1 (a.cu)", def}, {"TU 2 (b.cu)", def}});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "multiple definition of device symbol 'dup' (in TU 1 (a.cu) and TU 2 (b.cu))");
  EXPECT_TRUE(r.ptx.empty());
}

TEST(PtxLinker, AnUndefinedExternIsAnErrorNamingWhereItIsDeclared) {
  std::string user = kernelModule(".extern .func (.param .b32 ret) twice(.param .b32 x);", kCallTwice);
  PtxLinkResult r = linkPtx({{"TU 1 (a.cu)", user}, {"TU 2", std::string(kHeader)}});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "undefined reference to device symbol 'twice' (declared in TU 1 (a.cu))");
}

TEST(PtxLinker, KeepsCudaSystemCallsAndDynamicSharedMemoryDeclared) {
  std::string decls =
      ".extern .func (.param .b32 ret) vprintf(.param .b64 f, .param .b64 a);\n"
      ".extern .shared .align 4 .b8 dyn[];\n";
  std::string a = kernelModule(decls, "  mov.u32 %v, 1;");
  std::string b = std::string(kHeader) + decls + ".visible .func other()\n{\n  ret;\n}\n";
  PtxLinkResult r = linkPtx({{"a", a}, {"b", b}});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.ptx.find("vprintf"), r.ptx.rfind("vprintf")) << "declared once";
  EXPECT_NE(r.ptx.find("dyn[]"), std::string::npos);
  EXPECT_EQ(r.ptx.find("dyn[]"), r.ptx.rfind("dyn[]"));
}

TEST(PtxLinker, WeakDefinitionsResolveToOneAndAStrongOneWins) {
  auto weak = [](const std::string& linkage, int value) {
    return std::string(kHeader) + linkage +
           " .func (.param .b32 ret) twice(.param .b32 x)\n{\n  .reg .u32 %x;\n" + "  mov.u32 %x, " +
           std::to_string(value) + ";\n  st.param.b32 [ret], %x;\n  ret;\n}\n" + linkage +
           " .global .align 4 .u32 base = " + std::to_string(value) + ";\n";
  };
  std::string user = kernelModule(
      ".extern .func (.param .b32 ret) twice(.param .b32 x);\n.extern .global .align 4 .u32 base;",
      std::string(kCallTwice) +
          "\n  ld.global.u32 %a, [base];\n  mul.lo.u32 %a, %a, 1000;\n  add.u32 %v, %v, %a;");
  // Two weak definitions: the first one.
  EXPECT_EQ(linkAndRun({{"user", user}, {"w1", weak(".weak", 5)}, {"w2", weak(".weak", 6)}}),
            std::vector<uint32_t>(4, 5005));
  // A strong definition beats weak ones wherever it is, even after a module
  // whose own code uses the weak one it brought.
  std::string weakUser = weak(".weak", 7) +
                         ".visible .entry k(.param .u64 out_param)\n{\n  .reg .u32 %v, %t, %a;\n"
                         "  .reg .u64 %out;\n  ld.param.u64 %out, [out_param];\n  mov.u32 %t, 0;\n" +
                         std::string(kCallTwice) +
                         "\n  ld.global.u32 %a, [base];\n  add.u32 %v, %v, %a;\n  st.global.u32 [%out], %v;\n"
                         "  ret;\n}\n";
  std::string linked;
  std::vector<uint32_t> out = linkAndRun({{"weakUser", weakUser}, {"strong", weak(".visible", 9)}}, &linked);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out[0], 18u) << linked;
}

TEST(PtxLinker, RenumbersFileIndicesPerModule) {
  auto withLines = [](const std::string& file, const std::string& fn) {
    return std::string(kHeader) + ".file 1 \"" + file + "\"\n.visible .func " + fn +
           "()\n{\n  .loc 1 7 3\n  ret;\n}\n";
  };
  PtxLinkResult r = linkPtx({{"a", withLines("a.cu", "fa")}, {"b", withLines("b.cu", "fb")}});
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r.ptx.find(".file 1 \"a.cu\""), std::string::npos) << r.ptx;
  EXPECT_NE(r.ptx.find(".file 2 \"b.cu\""), std::string::npos) << r.ptx;
  EXPECT_NE(r.ptx.find(".loc 2 7 3"), std::string::npos) << r.ptx;
  Device device(sim::GpuConfig{}, DeviceOptions{1});
  EXPECT_NO_THROW(device.loadModule(r.ptx, "linked.ptx"));
  EXPECT_EQ(describeModule(1, withLines("b.cu", "fb")), "TU 2 (b.cu)");
}

}  // namespace
}  // namespace ptxsim::runtime
