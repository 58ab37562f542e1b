// The operands of an instruction as written, for ptxas's argument checks
// (strict/ptxas_rules.h). Those run before the operands are lowered, so
// that ptxas's message comes first, as it does from ptxas; this reads the
// parse tree and the registers declared so far, and reports nothing itself.

#include "function_lowerer.h"
#include "ptxas_rules.h"
#include "tree_access.h"

namespace ptxsim::isa::lowering {

namespace {

using Kind = strict::WrittenOperand::Kind;

// What the terminals under a constant expression say: a name makes it an
// address or a register expression, a float literal a float.
void scanExpression(antlr4::tree::ParseTree* node, bool& hasName, bool& hasFloat) {
  if (auto* terminal = dynamic_cast<antlr4::tree::TerminalNode*>(node)) {
    const size_t type = terminal->getSymbol()->getType();
    hasName = hasName || type == gen::PtxParser::IDENT || type == gen::PtxParser::DOTTED;
    hasFloat = hasFloat || type == gen::PtxParser::FLOAT || type == gen::PtxParser::HEX_FLOAT;
    return;
  }
  for (antlr4::tree::ParseTree* child : node->children) scanExpression(child, hasName, hasFloat);
}

}  // namespace

strict::WrittenOperand FunctionLowerer::describeName(std::string_view name) const {
  // %r, and %v.x or %r.b0 (an element or a video part of a register).
  auto entry = scopes_.find(name);
  if (!entry && name.find('.') != std::string_view::npos)
    entry = scopes_.find(name.substr(0, name.find('.')));
  if (!entry || entry->kind != NameKind::Register) return {};
  return {Kind::Register, context_.module().functions[functionIndex_].registers[entry->index].type};
}

strict::WrittenOperand FunctionLowerer::describeOperand(P::OperandContext* operand) const {
  if (auto* n = exactly<P::NameOperandContext>(operand)) {
    return n->children.size() == 1 ? describeName(grammar::tokenText(n->value)) : strict::WrittenOperand{};
  }
  if (auto* literal = exactly<P::LiteralOperandContext>(operand)) {
    return {literal->getStop()->getType() == P::INT ? Kind::Integer : Kind::Float};
  }
  auto* e = exactly<P::ExprOperandContext>(operand);
  if (e == nullptr || e->PIPE() != nullptr) return {};
  if (auto* primary = exactly<P::PrimaryExprContext>(e->expr())) {
    auto* p = primary->primary();
    if (p->name() != nullptr && p->expr() == nullptr)
      return describeName(grammar::tokenText(p->name()->getStart()));
  }
  bool hasName = false, hasFloat = false;
  scanExpression(e->expr(), hasName, hasFloat);
  if (hasName) return {};
  return {hasFloat ? Kind::Float : Kind::Integer};
}

}  // namespace ptxsim::isa::lowering
