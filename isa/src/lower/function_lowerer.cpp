#include "function_lowerer.h"

#include "constant_expression.h"
#include "declarations.h"
#include "ptxsim/isa/cfg.h"
#include "ptxsim/isa/contraction.h"

namespace ptxsim::isa::lowering {

FunctionLowerer::FunctionLowerer(LoweringContext& context, OpcodeDecoder& decoder, uint32_t functionIndex,
                                 std::vector<FileUse>& fileUses)
    : context_(context), decoder_(decoder), functionIndex_(functionIndex), fileUses_(fileUses) {}

bool FunctionLowerer::fail(SourceLocation where, std::string message) {
  context_.error(where, std::move(message));
  return false;
}

void FunctionLowerer::lowerBody(P::FunctionBodyContext* body) {
  scopes_.push();  // parameters and the body's own declarations share one scope, as in ptxas
  Function& fn = function();
  for (uint32_t i = 0; i < fn.params.size(); ++i) {
    if (!scopes_.declare(fn.params[i].name, {NameKind::Parameter, i})) {
      fail(fn.where, "parameter '" + fn.params[i].name + "' redeclared");
    }
  }
  for (uint32_t i = 0; i < fn.returns.size(); ++i) {
    if (!scopes_.declare(fn.returns[i].name, {NameKind::ReturnValue, i})) {
      fail(fn.where, "return value '" + fn.returns[i].name + "' redeclared");
    }
  }
  lowerStatements(body->children);
  closeBlock();
  finish();
}

void FunctionLowerer::closeBlock() {
  scopes_.pop([this](const LabelUse& use, std::optional<NameEntry> found) {
    const BranchTarget& target = branchTargets_[use.id];
    if (!found) {
      fail(target.where, "undefined label '" + use.name + "'");
      return;
    }
    if (found->kind != NameKind::Label) {
      fail(target.where, "'" + use.name + "' is not a label");
      return;
    }
    Function& fn = function();
    if (target.operand != kNone) {
      fn.operands[target.operand].index = found->index;
    } else {
      fn.branchTables[target.table][target.entry] = found->index;
    }
  });
}

// `children` of a body or block: '{' statement* '}'.
void FunctionLowerer::lowerStatements(const std::vector<antlr4::tree::ParseTree*>& children) {
  auto statementAt = [&](size_t i) { return static_cast<P::StatementContext*>(children[i]); };
  for (size_t i = 1; i + 1 < children.size(); ++i) {
    if (context_.full()) return;
    P::StatementContext* s = statementAt(i);
    antlr4::Token* first = s->getStart();
    switch (first->getType()) {
      case P::LBRACE:
        scopes_.push();
        lowerStatements(s->children);
        closeBlock();
        break;
      case P::LOC: lowerLoc(static_cast<P::LocStatementContext*>(s)); break;
      case P::PRAGMA: break;  // pragmas inside bodies ("nounroll") do not change semantics
      case P::FILE: break;    // checked with the module's files
      case P::CALLPROTOTYPE: break;  // an unnamed prototype declares nothing `call` can use
      case P::BRANCHTARGETS:
      case P::CALLTARGETS:
        fail(locationOf(first), "a target list needs a label");
        break;
      case P::IDENT:
        if (s->getStop()->getType() == P::COLON) {  // `name:` rather than an instruction
          // `tbl: .branchtargets ...` names a table, not a position.
          if (i + 2 < children.size()) {
            size_t nextType = statementAt(i + 1)->getStart()->getType();
            if (nextType == P::BRANCHTARGETS || nextType == P::CALLTARGETS) {
              lowerBranchTable(first, static_cast<P::TargetListStatementContext*>(statementAt(++i)));
              break;
            }
            if (nextType == P::CALLPROTOTYPE) {
              ++i;  // a labelled prototype declares a name that `call` may use
              if (!scopes_.declare(grammar::tokenText(first), {NameKind::Prototype, 0})) {
                fail(locationOf(first), "'" + first->getText() + "' redeclared");
              }
              break;
            }
          }
          lowerLabel(first);
          break;
        }
        lowerInstruction(static_cast<P::InstructionStatementContext*>(s));
        break;
      case P::AT:
      case P::DOTTED:
        lowerInstruction(static_cast<P::InstructionStatementContext*>(s));
        break;
      default:
        lowerDeclaration(static_cast<P::DeclarationStatementContext*>(s));
        break;
    }
  }
}

void FunctionLowerer::lowerDeclaration(P::DeclarationStatementContext* statement) {
  auto* decl = statement->declaration();
  DeclaredType type = lowerDeclaredType(decl->stateSpace(), decl->declModifier(), context_);
  Function& fn = function();
  for (auto* declarator : decl->declarator()) {
    antlr4::Token* nameToken = declarator->IDENT()->getSymbol();
    std::string name = nameToken->getText();
    if (type.space == StateSpace::Reg) {
      if (!declarator->arrayDimension().empty() || declarator->initializer()) {
        fail(locationOf(declarator), "registers cannot be arrays or have initializers");
        continue;
      }
      uint32_t count = parameterizedCount(declarator);
      auto first = static_cast<uint32_t>(fn.registers.size());
      bool fresh = count > 0 ? scopes_.declareRange(name, first, count)
                             : scopes_.declare(name, {NameKind::Register, first});
      if (!fresh) {
        fail(locationOf(nameToken), "'" + name + "' redeclared");
        continue;
      }
      if (count > (1u << 24)) {
        fail(locationOf(declarator), "too many registers");
        continue;
      }
      auto nameIndex = static_cast<uint32_t>(fn.registerNames.size());
      fn.registerNames.push_back(name);
      if (count == 0) {
        fn.registers.push_back({nameIndex, kNone, type.type, type.vectorWidth});
      } else {
        for (uint32_t r = 0; r < count; ++r) fn.registers.push_back({nameIndex, r, type.type, type.vectorWidth});
      }
      continue;
    }
    Variable var;
    NameResolver resolve = [this](std::string_view n) { return resolveSymbol(n); };
    if (!lowerVariable(type, declarator, context_, resolve, var)) continue;
    auto index = static_cast<uint32_t>(fn.locals.size());
    if (!scopes_.declare(name, {NameKind::Local, index})) {
      fail(locationOf(nameToken), "'" + name + "' redeclared");
      continue;
    }
    fn.locals.push_back(std::move(var));
  }
}

void FunctionLowerer::lowerLabel(antlr4::Token* name) {
  auto position = static_cast<uint32_t>(function().instructions.size());
  if (!scopes_.declareLabel(grammar::tokenText(name), {NameKind::Label, position})) {
    fail(locationOf(name), "duplicate label '" + name->getText() + "'");
  }
}

void FunctionLowerer::useLabel(std::string_view name, BranchTarget target) {
  scopes_.useLabel(name, static_cast<uint32_t>(branchTargets_.size()));
  branchTargets_.push_back(target);
}

void FunctionLowerer::lowerBranchTable(antlr4::Token* name, P::TargetListStatementContext* list) {
  Function& fn = function();
  auto table = static_cast<uint32_t>(fn.branchTables.size());
  if (!scopes_.declareLabel(grammar::tokenText(name), {NameKind::BranchTable, table})) {
    fail(locationOf(name), "duplicate label '" + name->getText() + "'");
    return;
  }
  fn.branchTables.emplace_back();
  bool isCallTargets = list->getStart()->getType() == P::CALLTARGETS;
  for (auto* target : list->IDENT()) {
    if (isCallTargets) {
      if (!context_.module().findFunction(target->getText())) {
        fail(locationOf(target), "undefined function '" + target->getText() + "'");
      }
      continue;
    }
    auto entry = static_cast<uint32_t>(fn.branchTables[table].size());
    fn.branchTables[table].push_back(kNone);
    useLabel(grammar::tokenText(target->getSymbol()), {kNone, table, entry, locationOf(target)});
  }
}

void FunctionLowerer::lowerLoc(P::LocStatementContext* statement) {
  auto ints = statement->INT();
  auto number = [&](size_t i) {
    return static_cast<uint32_t>(parseIntegerLiteral(ints[i]->getText()).value_or(0));
  };
  currentDebug_ = {number(0), number(1), number(2)};
  fileUses_.push_back({currentDebug_.file, locationOf(statement)});
}

bool FunctionLowerer::lowerGuard(P::GuardContext* guard, Instruction& inst) {
  antlr4::Token* name = guard->IDENT()->getSymbol();
  auto entry = scopes_.find(grammar::tokenText(name));
  if (!entry || entry->kind != NameKind::Register) {
    return fail(locationOf(name), "undeclared register '" + name->getText() + "'");
  }
  DataType type = function().registers[entry->index].type;
  if (type != DataType::Pred) {
    return fail(locationOf(name), "type mismatch: guard '" + name->getText() + "' is " +
                                      std::string(typeName(type)) + ", not .pred");
  }
  inst.guard = {entry->index, guard->BANG() != nullptr};
  return true;
}

bool FunctionLowerer::checkVersion(const InstructionSpec& spec, antlr4::Token* opcode) {
  const Module& m = context_.module();
  auto version = [](uint32_t v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); };
  if (spec.minPtx > m.ptxVersion) {
    return fail(locationOf(opcode), "'" + std::string(spec.mnemonic) + "' requires PTX ISA " +
                                        version(spec.minPtx) + " or newer (module is " + version(m.ptxVersion) + ")");
  }
  if (spec.minSm > m.target.sm) {
    return fail(locationOf(opcode), "'" + std::string(spec.mnemonic) + "' requires sm_" +
                                        std::to_string(spec.minSm) + " or newer (target is sm_" +
                                        std::to_string(m.target.sm) + ")");
  }
  return true;
}

bool FunctionLowerer::checkPtxasRules(const DecodedOpcode& decoded, P::InstructionStatementContext* statement) {
  // Children are [guard] opcode [operand (',' operand)*] ';'.
  const size_t first = statement->getStart()->getType() == P::AT ? 2 : 1;
  writtenScratch_.clear();
  if (strict::readsOperands(decoded.spec->opcode)) {
    for (size_t k = first; k + 1 < statement->children.size(); k += 2) {
      writtenScratch_.push_back(describeOperand(static_cast<P::OperandContext*>(statement->children[k])));
    }
  }
  const strict::FormToCheck form{*decoded.spec,
                                 std::span(decoded.types.data(), decoded.typeCount),
                                 decoded.modifiers,
                                 static_cast<uint32_t>((statement->children.size() - first) / 2),
                                 context_.module().target.sm,
                                 context_.module().ptxVersion,
                                 writtenScratch_};
  std::string why = strict::ptxasRefusal(form);
  if (why.empty()) return true;
  return fail(locationOf(statement->opcode), why);
}

void FunctionLowerer::lowerInstruction(P::InstructionStatementContext* statement) {
  Instruction inst;
  antlr4::Token* opcode = statement->opcode;
  inst.where = locationOf(opcode);
  inst.debug = currentDebug_;
  if (statement->getStart()->getType() == P::AT &&
      !lowerGuard(static_cast<P::GuardContext*>(statement->children[0]), inst)) {
    return;
  }
  std::string error;
  std::string_view text = grammar::tokenText(opcode);
  const DecodedOpcode* decoded = decoder_.decode(text, error);
  if (!decoded) {
    fail(inst.where, error);
    return;
  }
  const InstructionSpec& spec = *decoded->spec;
  if (!checkVersion(spec, opcode)) return;
  if (!checkPtxasRules(*decoded, statement)) return;
  opcodeText_ = text;
  inst.opcode = spec.opcode;
  inst.spec = &spec;
  inst.unit = spec.unit;
  inst.types = decoded->types;
  inst.typeCount = decoded->typeCount;
  inst.modifiers = decoded->modifiers;
  inst.shape = decoded->shape;
  if (!lowerOperands(statement, inst)) return;
  if (!checkWgmmaAccumulators(inst)) return;
  function().instructions.push_back(inst);
}

void FunctionLowerer::finish() {
  Function& fn = function();
  if (context_.hasErrors()) return;
  for (Instruction& inst : fn.instructions) {
    if (inst.opcode == Opcode::Bra) inst.branchTarget = fn.operands[inst.firstOperand].index;
  }
  buildControlFlow(fn);
  // What runs is what ptxas builds: its fused multiply-adds included.
  contractMultiplyAdds(fn);
}

}  // namespace ptxsim::isa::lowering
