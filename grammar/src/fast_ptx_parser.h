#pragma once

// The generated parser with three of the runtime's hooks replaced for the
// fast path (SLL, bail on the first error, no listeners). The 4.9 runtime
// finds a context's parent with dynamic_cast in each of them, which costs a
// string comparison per class on the way; here every parent is known to be
// a ParserRuleContext. Terminal nodes come from a pool that is emptied with
// each top-level item instead of one heap allocation per token.

#include <deque>

#include "PtxParser.h"
#include "ptxsim/grammar/antlr_runtime.h"

namespace ptxsim::grammar {

class FastPtxParser final : public antlr::PtxParser {
 public:
  using antlr::PtxParser::PtxParser;

  // Frees the nodes of the previous item (the tracker owns the contexts).
  void releaseTree() {
    getTreeTracker().reset();
    terminals_.clear();
  }

  void addContextToParseTree() override {
    if (_ctx->parent != nullptr) addChildTo(static_cast<antlr4::ParserRuleContext*>(_ctx->parent), _ctx);
  }

  void enterOuterAlt(antlr4::ParserRuleContext* localctx, size_t altNum) override {
    localctx->setAltNumber(altNum);
    if (_buildParseTrees && _ctx != localctx && _ctx->parent != nullptr) {
      auto* parent = static_cast<antlr4::ParserRuleContext*>(_ctx->parent);
      parent->removeLastChild();
      addChildTo(parent, localctx);
    }
    _ctx = localctx;
  }

  antlr4::Token* consume() override {
    antlr4::Token* token = getCurrentToken();
    if (token->getType() != antlr4::Token::EOF) getInputStream()->consume();
    if (_buildParseTrees) {
      reserveChildren(_ctx);
      _ctx->addChild(&terminals_.emplace_back(token));
    }
    return token;
  }

 private:
  // A statement has up to about eight children; growing the vector one
  // push at a time would reallocate it three times.
  static void reserveChildren(antlr4::ParserRuleContext* ctx) {
    if (ctx->children.capacity() == 0) ctx->children.reserve(8);
  }
  static void addChildTo(antlr4::ParserRuleContext* parent, antlr4::RuleContext* child) {
    reserveChildren(parent);
    parent->addChild(child);
  }

  std::deque<antlr4::tree::TerminalNodeImpl> terminals_;
};

}  // namespace ptxsim::grammar
