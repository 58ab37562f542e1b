// The instruction table is data that the validator trusts; these checks
// keep it self-consistent as rows are added.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "operand_signature.h"
#include "opcode_decoder.h"
#include "ptxsim/isa/instruction_table.h"

namespace ptxsim::isa {
namespace {

TEST(InstructionTable, EveryOpcodeHasRowsNamedByItsMnemonic) {
  for (unsigned op = 1; op < kOpcodeCount; ++op) {
    auto opcode = static_cast<Opcode>(op);
    auto rows = rowsFor(opcode);
    ASSERT_FALSE(rows.empty()) << "opcode " << op << " (" << mnemonicOf(opcode) << ") has no row";
    for (const InstructionSpec& row : rows) {
      EXPECT_EQ(row.opcode, opcode);
      EXPECT_EQ(row.mnemonic, mnemonicOf(opcode));
    }
    auto match = matchMnemonic(mnemonicOf(opcode));
    ASSERT_TRUE(match.has_value()) << mnemonicOf(opcode);
    EXPECT_EQ(match->opcode, opcode) << mnemonicOf(opcode);
    EXPECT_EQ(match->length, mnemonicOf(opcode).size());
  }
}

TEST(InstructionTable, RowsAreWellFormed) {
  for (const InstructionSpec& row : instructionTable()) {
    lowering::Signature signature;
    std::string error;
    EXPECT_TRUE(lowering::parseSignature(row.operands, signature, error))
        << row.mnemonic << ": '" << row.operands << "': " << error;
    for (unsigned slot = 0; slot < row.typeSlots; ++slot) {
      EXPECT_FALSE(row.legalTypes[slot].empty()) << row.mnemonic << " slot " << slot;
    }
    for (const auto& token : signature.tokens) {
      if (token.fixedType == DataType::None && (token.role == lowering::OperandRole::Destination ||
                                                token.role == lowering::OperandRole::Source)) {
        EXPECT_LT(token.slot, std::max<unsigned>(row.typeSlots, 1)) << row.mnemonic << " uses a missing type slot";
      }
    }
    EXPECT_LE(row.minPtx, 90u) << row.mnemonic;
  }
}

TEST(InstructionTable, LongestMnemonicWins) {
  EXPECT_EQ(matchMnemonic("bar.warp.sync")->opcode, Opcode::BarWarpSync);
  EXPECT_EQ(matchMnemonic("bar.sync")->opcode, Opcode::Bar);
  EXPECT_EQ(matchMnemonic("bar.sync")->length, 3u);
  EXPECT_EQ(matchMnemonic("ld.global.v4.f32")->opcode, Opcode::Ld);
  EXPECT_EQ(matchMnemonic("cp.async.bulk.tensor.2d.shared::cluster.global")->opcode, Opcode::CpAsyncBulkTensor);
  EXPECT_FALSE(matchMnemonic("ldx").has_value());
  EXPECT_FALSE(matchMnemonic("frobnicate.u32").has_value());
}

TEST(InstructionTable, VocabularyIsUnambiguousWithinAGroup) {
  std::set<std::pair<std::string, ModGroup>> seen;
  for (const ModifierInfo& info : modifierVocabulary()) {
    if (info.text.empty()) continue;
    EXPECT_TRUE(seen.emplace(std::string(info.text), info.group).second) << info.text;
    EXPECT_EQ(groupOf(info.mod), info.group) << info.text;
  }
}

// Hand-checked decodings against the PTX ISA.
TEST(OpcodeDecoder, DecodesTypesAndModifiers) {
  std::string error;
  auto cvt = lowering::decodeOpcode("cvt.rn.satfinite.e4m3x2.f32", error);
  ASSERT_TRUE(cvt) << error;
  EXPECT_EQ(cvt->spec->opcode, Opcode::Cvt);
  EXPECT_EQ(cvt->typeCount, 2);
  EXPECT_EQ(cvt->types[0], DataType::E4M3x2);
  EXPECT_EQ(cvt->types[1], DataType::F32);
  EXPECT_EQ(cvt->modifiers.get(ModGroup::Rounding), Mod::Rn);
  EXPECT_EQ(cvt->modifiers.get(ModGroup::Saturate), Mod::Satfinite);

  auto atom = lowering::decodeOpcode("atom.acq_rel.gpu.global.cas.b32", error);
  ASSERT_TRUE(atom) << error;
  EXPECT_EQ(atom->modifiers.get(ModGroup::Semantics), Mod::AcqRel);
  EXPECT_EQ(atom->modifiers.get(ModGroup::Scope), Mod::Gpu);
  EXPECT_EQ(atom->modifiers.get(ModGroup::AtomicOp), Mod::AtomCas);

  auto mma = lowering::decodeOpcode("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", error);
  ASSERT_TRUE(mma) << error;
  EXPECT_EQ(mma->shape.m, 16);
  EXPECT_EQ(mma->shape.n, 8);
  EXPECT_EQ(mma->shape.k, 16);
  EXPECT_EQ(mma->typeCount, 4);

  EXPECT_FALSE(lowering::decodeOpcode("add.rn.s32", error));
  EXPECT_NE(error.find("illegal modifier combination"), std::string::npos) << error;
  EXPECT_FALSE(lowering::decodeOpcode("add.rn.rz.f32", error));
  EXPECT_NE(error.find("illegal modifier combination"), std::string::npos) << error;
  EXPECT_FALSE(lowering::decodeOpcode("add.foo.s32", error));
  EXPECT_NE(error.find("'.foo' is not a valid modifier for 'add'"), std::string::npos) << error;
  EXPECT_FALSE(lowering::decodeOpcode("shl.f32", error));
  EXPECT_NE(error.find("invalid type"), std::string::npos) << error;
}

}  // namespace
}  // namespace ptxsim::isa
