#pragma once

// Lowers one function body: declarations into dense registers and local
// variables, labels into instruction indices, instructions into decoded
// form with checked operands, `.loc` into debug locations.

#include <string>
#include <vector>

#include "constant_expression.h"
#include "name_scopes.h"
#include "opcode_decoder.h"
#include "operand_signature.h"
#include "ptxas_rules.h"

namespace ptxsim::isa::lowering {

// A `.loc` naming a file index, checked once the whole module is read.
struct FileUse {
  uint32_t file;
  SourceLocation where;
};

class FunctionLowerer {
 public:
  FunctionLowerer(LoweringContext& context, OpcodeDecoder& decoder, uint32_t functionIndex,
                  std::vector<FileUse>& fileUses);
  void lowerBody(gen::PtxParser::FunctionBodyContext* body);

 private:
  using P = gen::PtxParser;

  Function& function() { return context_.module().functions[functionIndex_]; }
  void lowerStatements(const std::vector<antlr4::tree::ParseTree*>& children);
  void lowerDeclaration(P::DeclarationStatementContext* statement);
  void lowerLabel(antlr4::Token* name);
  void closeBlock();
  void lowerBranchTable(antlr4::Token* name, P::TargetListStatementContext* list);
  void lowerLoc(P::LocStatementContext* statement);
  void lowerInstruction(P::InstructionStatementContext* statement);
  bool lowerGuard(P::GuardContext* guard, Instruction& inst);
  bool checkVersion(const InstructionSpec& spec, antlr4::Token* opcode);
  // What ptxas refuses for the module's target that the table's row takes (strict/ptxas_rules.h).
  bool checkPtxasRules(const DecodedOpcode& decoded, P::InstructionStatementContext* statement);
  // An operand as those rules see it, from the parse tree (written_operands.cpp).
  strict::WrittenOperand describeOperand(P::OperandContext* operand) const;
  strict::WrittenOperand describeName(std::string_view name) const;
  void finish();

  // Operands (operand_lowerer.cpp).
  bool lowerOperands(P::InstructionStatementContext* statement, Instruction& inst);
  // wgmma's accumulator registers against D's type, as ptxas checks them
  // (accumulator_registers.cpp).
  bool checkWgmmaAccumulators(const Instruction& inst);
  bool lowerCallOperands(const std::vector<P::OperandContext*>& operands, Instruction& inst);
  bool lowerOperand(P::OperandContext* ctx, OperandRole role, uint32_t slot, Operand& out);
  bool lowerName(antlr4::Token* token, OperandRole role, uint32_t slot, Operand& out);
  bool lowerElements(const std::vector<P::OperandContext*>& elements, OperandKind kind, Operand& out);
  bool lowerExpression(P::ExprContext* expr, OperandRole role, uint32_t slot, Operand& out);
  bool checkOperand(const Operand& op, const SignatureToken& token, size_t position, const Instruction& inst,
                    antlr4::ParserRuleContext* where);
  bool checkRegisterType(uint32_t reg, DataType expected, bool allowWider, SourceLocation where);
  std::optional<SymbolRef> resolveSymbol(std::string_view name) const;
  bool fail(SourceLocation where, std::string message);

  LoweringContext& context_;
  OpcodeDecoder& decoder_;
  uint32_t functionIndex_;
  std::vector<FileUse>& fileUses_;
  NameScopes scopes_;
  // Where a label's position goes once its block closes: a branch's operand
  // (index in Function::operands), or else an entry of a .branchtargets list.
  struct BranchTarget {
    uint32_t operand;
    uint32_t table;
    uint32_t entry;
    SourceLocation where;
  };
  void useLabel(std::string_view name, BranchTarget target);
  std::vector<BranchTarget> branchTargets_;  // indexed by LabelUse::id
  DebugLocation currentDebug_;
  std::string_view opcodeText_;  // the opcode token being lowered, for messages
  std::vector<P::OperandContext*> operandScratch_;  // reused by every instruction
  std::vector<strict::WrittenOperand> writtenScratch_;  // likewise, for checkPtxasRules
};

}  // namespace ptxsim::isa::lowering
