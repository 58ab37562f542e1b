// The issue order prepared code is put in (instruction_schedule.h): loads
// first within a block, nothing moved across a dependence, a store, or an
// instruction that must stay put; block boundaries where the PTX has them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../sim/src/exec/preparer.h"
#include "ptxsim/isa/lower.h"

namespace ptxsim::sim::exec {
namespace {

// The PTX line of each prepared instruction of the kernel `body` makes, in
// issue order (line 0 is the body's first; the implicit ret is left out).
std::vector<uint32_t> issueOrder(const std::string& declarations, const std::string& body) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
                    declarations + "\n" + body + "}\n";
  isa::CompileResult compiled = isa::compilePtx(ptx);
  EXPECT_TRUE(compiled.ok()) << (compiled.errors.empty() ? "" : compiled.errors[0].message);
  if (!compiled.ok()) return {};
  std::vector<std::string> errors;
  ModulePlacement placement;
  placement.globalAddresses.assign(compiled.module->globals.size(), 0x1000);
  auto kernel = prepareKernel(*compiled.module, 0, placement, errors);
  EXPECT_NE(kernel, nullptr) << (errors.empty() ? "" : errors[0]);
  if (kernel == nullptr) return {};
  const PreparedFunction& fn = kernel->kernel();
  std::vector<uint32_t> lines;
  for (const PreparedInstruction& pi : fn.code) {
    if (pi.source != fn.implicitReturn.get()) lines.push_back(pi.source->where.line - 7);
  }
  return lines;
}

using Order = std::vector<uint32_t>;

TEST(InstructionSchedule, LoadsOfAnUnrolledBodyIssueBeforeTheirUses) {
  // What nvcc emits for two iterations of sum += a[i] * b[i]: each pair of
  // loads, then its use. The four loads issue first (the second pair's
  // addresses are ready first), then the uses.
  Order order = issueOrder(".reg .u64 %a, %b; .reg .f32 %x<4>, %s;",
                           "ld.param.u64 %a, [p];\n"            // 0
                           "add.u64 %b, %a, 4096;\n"            // 1
                           "ld.global.f32 %x0, [%a];\n"         // 2
                           "ld.global.f32 %x1, [%b];\n"         // 3
                           "fma.rn.f32 %s, %x0, %x1, %s;\n"     // 4
                           "ld.global.f32 %x2, [%a+4];\n"       // 5
                           "ld.global.f32 %x3, [%b+4];\n"       // 6
                           "fma.rn.f32 %s, %x2, %x3, %s;\n"     // 7
                           "ret;\n");                           // 8
  EXPECT_EQ(order, Order({0, 1, 2, 5, 3, 6, 4, 7, 8}));
}

TEST(InstructionSchedule, ALoadNeverPassesAStoreNorAStoreALoad) {
  // After the barrier: both loads pass the add, the store stays between them.
  Order order = issueOrder(".reg .u64 %a; .reg .u32 %x, %y, %w;",
                           "ld.param.u64 %a, [p];\n"     // 0
                           "bar.sync 0;\n"               // 1
                           "add.u32 %w, %w, 1;\n"        // 2
                           "ld.global.u32 %x, [%a];\n"   // 3
                           "st.global.u32 [%a+8], 7;\n"  // 4
                           "ld.global.u32 %y, [%a+4];\n" // 5
                           "ret;\n");                    // 6
  EXPECT_EQ(order, Order({0, 1, 3, 4, 5, 2, 6}));
}

TEST(InstructionSchedule, AccessesToDifferentStateSpacesPassEachOther) {
  // sgemm_tiled's tile loads: each global load, then its shared store. The
  // second global load passes the first shared store (the two spaces never
  // alias), so both loads are in flight together; the shared stores keep
  // their order, and neither global load passes the generic store (it may
  // write anything) nor the shared load the shared store before it.
  Order order = issueOrder(".reg .u64 %a, %g; .reg .u32 %s, %x, %y, %z, %t;",
                           "ld.param.u64 %a, [p];\n"        // 0
                           "bar.sync 0;\n"                  // 1
                           "ld.global.u32 %x, [%a];\n"      // 2
                           "st.shared.u32 [%s], %x;\n"      // 3
                           "ld.global.u32 %y, [%a+64];\n"   // 4
                           "st.shared.u32 [%s+4], %y;\n"    // 5
                           "ld.shared.u32 %t, [%s+8];\n"    // 6
                           "st.u32 [%g], %t;\n"             // 7
                           "ld.global.u32 %z, [%a+128];\n"  // 8
                           "ret;\n");                       // 9
  EXPECT_EQ(order, Order({0, 1, 2, 4, 3, 5, 6, 7, 8, 9}));
}

TEST(InstructionSchedule, FixedInstructionsAndBlockStartsKeepTheirPlace) {
  // The barrier, the volatile load, the atomic and the label's block all
  // stay where they are; only the load after the barrier moves, up to it.
  Order order = issueOrder(".reg .u64 %a; .reg .u32 %x, %y, %z, %w, %v; .reg .pred %p;",
                           "ld.param.u64 %a, [p];\n"               // 0
                           "add.u32 %z, %z, 1;\n"                  // 1
                           "bar.sync 0;\n"                         // 2
                           "add.u32 %w, %z, 1;\n"                  // 3
                           "ld.global.u32 %x, [%a];\n"             // 4
                           "ld.volatile.global.u32 %y, [%a+4];\n"  // 5
                           "add.u32 %w, %w, %x;\n"                 // 6
                           "atom.global.add.u32 %v, [%a], 1;\n"    // 7
                           "setp.eq.u32 %p, %v, 0;\n"              // 8
                           "@%p bra L;\n"                          // 9
                           "add.u32 %w, %w, 1;\n"                  // 10
                           "L:\n"                                  // 11
                           "add.u32 %y, %y, 1;\n"                  // 12
                           "ld.global.u32 %x, [%a+8];\n"           // 13
                           "ret;\n");                              // 14
  EXPECT_EQ(order, Order({0, 1, 2, 4, 3, 5, 6, 7, 8, 9, 10, 13, 12, 14}));
}

TEST(InstructionSchedule, CarryChainsAndWritesOfAReadRegisterKeepTheirOrder) {
  // The loads would go first, but the first overwrites %x, which add.cc
  // reads; add.cc and addc keep their order (they share the carry flag),
  // and the first addc issues while the loads wait for their address.
  Order order = issueOrder(".reg .u64 %a; .reg .u32 %x, %y, %lo, %hi;",
                           "ld.param.u64 %a, [p];\n"         // 0
                           "add.cc.u32 %lo, %lo, %x;\n"      // 1
                           "addc.u32 %hi, %hi, 0;\n"         // 2
                           "ld.global.u32 %x, [%a];\n"       // 3
                           "ld.global.u32 %y, [%a+4];\n"     // 4
                           "add.cc.u32 %lo, %lo, %y;\n"      // 5
                           "addc.u32 %hi, %hi, 0;\n"         // 6
                           "ret;\n");                        // 7
  EXPECT_EQ(order, Order({0, 1, 2, 4, 3, 5, 6, 7}));
}

}  // namespace
}  // namespace ptxsim::sim::exec
