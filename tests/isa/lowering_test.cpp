// Lowering from PTX text to the IR, checked against hand-derived values.

#include <gtest/gtest.h>

#include <cstring>

#include "ptxsim/isa/lower.h"

namespace ptxsim::isa {
namespace {

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

std::shared_ptr<const Module> compileOk(const std::string& body) {
  CompileResult result = compilePtx(kHeader + body);
  for (const Diagnostic& d : result.errors) ADD_FAILURE() << d.where.line << ":" << d.where.column << ": " << d.message;
  return result.module;
}

Diagnostic compileError(const std::string& body) {
  CompileResult result = compilePtx(kHeader + body);
  EXPECT_FALSE(result.ok());
  return result.errors.empty() ? Diagnostic{} : result.errors.front();
}

TEST(Lowering, ParametersFollowTheAbiOffsets) {
  auto m = compileOk(R"(
.visible .entry k(.param .u8 a, .param .u64 b, .param .align 16 .b8 c[20], .param .u32 d,
                  .param .u64 .ptr.global.align 16 e)
{ ret; }
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  ASSERT_EQ(k.params.size(), 5u);
  // u8 at 0; u64 aligned to 8; 20 bytes aligned to 16; u32 right after; u64 aligned to 8.
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.params[2].size, 20u);
  EXPECT_EQ(k.params[3].offset, 36u);
  EXPECT_EQ(k.params[4].offset, 40u);
  EXPECT_EQ(k.params[4].pointeeSpace, StateSpace::Global);
  EXPECT_EQ(k.params[4].pointeeAlignment, 16u);
  EXPECT_EQ(k.paramBytes, 48u);
  EXPECT_TRUE(k.isKernel);
  EXPECT_EQ(k.linkage, Linkage::Visible);
}

TEST(Lowering, RegistersAreDenseAndOperandsResolved) {
  auto m = compileOk(R"(
.entry k() {
  .reg .b32 %r<4>;
  .reg .f32 %f1;
  add.s32 %r3, %r1, -7;
  mov.f32 %f1, 0f3F800000;
  mov.u32 %r0, %tid.y;
  ret;
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  ASSERT_EQ(k.registers.size(), 5u);
  EXPECT_EQ(k.registerName(3), "%r3");
  EXPECT_EQ(k.registerName(4), "%f1");
  EXPECT_EQ(k.registers[4].type, DataType::F32);
  const Instruction& add = k.instructions.at(0);
  EXPECT_EQ(add.opcode, Opcode::Add);
  EXPECT_EQ(add.types[0], DataType::S32);
  ASSERT_EQ(add.operandCount, 3);
  const Operand* ops = &k.operands[add.firstOperand];
  EXPECT_EQ(ops[0].kind, OperandKind::Register);
  EXPECT_EQ(ops[0].index, 3u);
  EXPECT_EQ(ops[1].index, 1u);
  EXPECT_EQ(ops[2].kind, OperandKind::Immediate);
  EXPECT_EQ(ops[2].value, -7);
  const Operand& one = k.operands[k.instructions[1].firstOperand + 1];
  EXPECT_EQ(one.kind, OperandKind::FloatImmediate);
  EXPECT_EQ(one.immediateType, DataType::F32);
  EXPECT_EQ(one.value, 0x3F800000);
  const Operand& tid = k.operands[k.instructions[2].firstOperand + 1];
  EXPECT_EQ(tid.kind, OperandKind::Special);
  EXPECT_EQ(static_cast<SpecialRegister>(tid.index), SpecialRegister::Tid);
  EXPECT_EQ(tid.component, 1);
  EXPECT_EQ(add.where.line, 8u);
  EXPECT_EQ(add.where.column, 3u);
}

TEST(Lowering, ModifiersAreTypedByGroup) {
  auto m = compileOk(R"(
.entry k(.param .u64 p) {
  .reg .b64 %rd<3>;
  .reg .f32 %f<5>;
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [p];
  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];
  setp.lo.u32 %p1, %r1, %r2;
  mul.lo.s32 %r1, %r1, %r2;
  mul.wide.s32 %rd2, %r1, 4;
  ret;
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  const Instruction& ld = k.instructions.at(1);
  EXPECT_EQ(ld.modifiers.get(ModGroup::Space), Mod::Global);
  EXPECT_TRUE(ld.modifiers.has(Mod::Nc));
  EXPECT_EQ(ld.modifiers.get(ModGroup::Vector), Mod::V4);
  const Operand& address = k.operands[ld.firstOperand + 1];
  EXPECT_EQ(address.kind, OperandKind::Address);
  EXPECT_EQ(address.scope, SymbolScope::Register);
  EXPECT_EQ(address.value, 16);
  const Operand& param = k.operands[k.instructions[0].firstOperand + 1];
  EXPECT_EQ(param.scope, SymbolScope::Parameter);
  EXPECT_EQ(k.instructions[2].modifiers.get(ModGroup::Compare), Mod::CmpLo);
  EXPECT_EQ(k.instructions[3].modifiers.get(ModGroup::MulMode), Mod::MulLo);
  EXPECT_EQ(k.instructions[4].modifiers.get(ModGroup::MulMode), Mod::Wide);
}

TEST(Lowering, GlobalInitializersAndRelocations) {
  auto m = compileOk(R"(
.global .align 4 .u32 table[4] = {1, 2, 0x10};
.global .align 8 .u64 pointer = generic(table)+4;
.const .f32 half = 0.5;
.global .u8 bytes[] = {1, 2, 3};
)");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->globals.size(), 4u);
  const Variable& table = m->globals[0];
  EXPECT_EQ(table.size, 16u);
  uint32_t words[4];
  std::memcpy(words, table.initializer.data(), 16);
  EXPECT_EQ(words[0], 1u);
  EXPECT_EQ(words[2], 16u);
  EXPECT_EQ(words[3], 0u);
  const Variable& pointer = m->globals[1];
  ASSERT_EQ(pointer.relocations.size(), 1u);
  EXPECT_TRUE(pointer.relocations[0].generic);
  EXPECT_EQ(pointer.relocations[0].addend, 4);
  EXPECT_EQ(m->symbols[pointer.relocations[0].symbol].index, 0u);
  float half;
  std::memcpy(&half, m->globals[2].initializer.data(), 4);
  EXPECT_EQ(half, 0.5f);
  EXPECT_EQ(m->globals[3].size, 3u);
}

TEST(Lowering, BranchesReconvergeAtImmediatePostDominators) {
  auto m = compileOk(R"(
.entry k() {
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  setp.eq.s32 %p1, %r1, 0;         // 0
  @%p1 bra ELSE;                   // 1: diamond
  add.s32 %r2, %r2, 1;             // 2
  bra JOIN;                        // 3
ELSE:
  add.s32 %r2, %r2, 2;             // 4
JOIN:
  mov.u32 %r3, 0;                  // 5
LOOP:
  add.s32 %r3, %r3, 1;             // 6
  setp.lt.s32 %p2, %r3, 10;        // 7
  @%p2 bra LOOP;                   // 8: loop back edge
  @%p1 exit;                       // 9
  ret;                             // 10
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  EXPECT_EQ(k.instructions[1].branchTarget, 4u);
  EXPECT_EQ(k.instructions[1].reconvergence, 5u);
  EXPECT_EQ(k.instructions[3].branchTarget, 5u);
  EXPECT_EQ(k.instructions[8].branchTarget, 6u);
  EXPECT_EQ(k.instructions[8].reconvergence, 9u);
  // Blocks: [0,2) [2,4) [4,5) [5,6) [6,9) [9,10) [10,11)
  ASSERT_EQ(k.blocks.size(), 7u);
  EXPECT_EQ(k.blocks[4].first, 6u);
  EXPECT_EQ(k.blocks[4].end, 9u);
}

TEST(Lowering, BranchOutOfAllPathsReconvergesAtExit) {
  auto m = compileOk(R"(
.entry k() {
  .reg .pred %p1;
  @%p1 bra DONE;
  ret;
DONE:
  ret;
}
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->functions[0].instructions[0].reconvergence, kNone);
}

TEST(Lowering, IndirectBranchesReconvergeAfterAllTargets) {
  auto m = compileOk(R"(
.entry k() {
  .reg .b32 %r<3>;
  mov.u32 %r1, 1;                  // 0
tbl: .branchtargets A, B, C;
  brx.idx %r1, tbl;                // 1
A:
  add.s32 %r2, %r2, 1;             // 2
  bra JOIN;                        // 3
B:
  add.s32 %r2, %r2, 2;             // 4
  bra JOIN;                        // 5
C:
  add.s32 %r2, %r2, 3;             // 6
JOIN:
  ret;                             // 7
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(0);
  ASSERT_EQ(k.branchTables.size(), 1u);
  EXPECT_EQ(k.branchTables[0], (std::vector<uint32_t>{2, 4, 6}));
  EXPECT_EQ(k.instructions[1].opcode, Opcode::BrxIdx);
  EXPECT_EQ(k.instructions[1].reconvergence, 7u);
  EXPECT_EQ(k.blocks[k.instructions[1].block].successors.size(), 3u);
}

TEST(Lowering, CallsResolveFunctionsAndParams) {
  auto m = compileOk(R"(
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [x];
  add.s32 %r1, %r1, %r1;
  st.param.b32 [r], %r1;
  ret;
}
.entry k() {
  .reg .b32 %r<2>;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], 21;
    call.uni (b), twice, (a);
    ld.param.b32 %r1, [b];
  }
  ret;
}
)");
  ASSERT_TRUE(m);
  const Function& k = m->functions.at(1);
  const Instruction& call = k.instructions.at(1);
  EXPECT_EQ(call.opcode, Opcode::Call);
  const Operand& callee = k.operands[call.firstOperand + 1];
  EXPECT_EQ(callee.kind, OperandKind::Function);
  EXPECT_EQ(callee.index, 0u);
  EXPECT_EQ(k.operands[call.firstOperand].count, 1);
  EXPECT_EQ(k.operands[call.firstOperand + 2].count, 1);
  EXPECT_EQ(k.locals.size(), 2u);
}

TEST(Lowering, ErrorsAreLocated) {
  Diagnostic d = compileError(".entry k() {\n  .reg .b32 %r1;\n  add.s32 %r1, %r99, 1;\n}\n");
  EXPECT_EQ(d.where.line, 6u);
  EXPECT_EQ(d.where.column, 16u);
  EXPECT_NE(d.message.find("undeclared register '%r99'"), std::string::npos);

  d = compileError(".entry k() {\n  frobnicate.u32 1;\n}\n");
  EXPECT_EQ(d.where.line, 5u);
  EXPECT_EQ(d.where.column, 3u);
  EXPECT_NE(d.message.find("unknown instruction 'frobnicate'"), std::string::npos);

  d = compileError(".entry k() {\n  .reg .b64 %rd<3>;\n  add.s32 %rd1, %rd2, 1;\n}\n");
  EXPECT_NE(d.message.find("type mismatch"), std::string::npos);
  EXPECT_EQ(d.where.column, 11u);

  d = compileError(".entry k() {\n  bra NOWHERE;\n}\n");
  EXPECT_NE(d.message.find("undefined label 'NOWHERE'"), std::string::npos);
  EXPECT_EQ(d.where.column, 7u);
}

// wgmma's accumulator registers as ptxas 13.0 takes them for sm_90a (each
// declared type tried with ptxas): f32 in .f32 or .b32, f16 pairs in
// .f16x2 or .b32, s32 in .s32, .u32 or .b32; others "Arguments mismatch".
TEST(Lowering, WgmmaAccumulatorsHoldDsType) {
  auto kernel = [](const char* d, const char* a, unsigned k, const char* declared, unsigned count) {
    std::string list;
    for (unsigned r = 0; r < count; ++r) list += (r ? ",%d" : "{%d") + std::to_string(r);
    const std::string tail = std::string(a) == "s8" ? "%p" : "%p, 1, 1, 0, 0";
    return std::string(".version 8.4\n.target sm_90a\n.address_size 64\n.entry k() {\n.reg .") + declared +
           " %d<8>;\n.reg .b64 %da, %db;\n.reg .pred %p;\nwgmma.mma_async.sync.aligned.m64n8k" + std::to_string(k) +
           "." + d + "." + a + "." + a + " " + list + "}, %da, %db, " + tail + ";\n}\n";
  };
  struct Case {
    const char* d;
    const char* a;
    unsigned k, count;
    const char* declared;
    bool taken;
  };
  const Case cases[] = {{"f32", "f16", 16, 4, "f32", true},   {"f32", "f16", 16, 4, "b32", true},
                        {"f32", "f16", 16, 4, "u32", false},  {"f32", "f16", 16, 4, "f16x2", false},
                        {"f16", "f16", 16, 2, "f16x2", true}, {"f16", "f16", 16, 2, "b32", true},
                        {"f16", "f16", 16, 2, "f32", false},  {"f16", "f16", 16, 2, "u32", false},
                        {"s32", "s8", 32, 4, "s32", true},    {"s32", "s8", 32, 4, "u32", true},
                        {"s32", "s8", 32, 4, "f32", false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.d) + " in ." + c.declared);
    CompileResult result = compilePtx(kernel(c.d, c.a, c.k, c.declared, c.count));
    EXPECT_EQ(result.ok(), c.taken);
    if (!c.taken && !result.errors.empty())
      EXPECT_EQ(result.errors.front().message, "Arguments mismatch for instruction 'wgmma.mma_async'");
  }
}

}  // namespace
}  // namespace ptxsim::isa
