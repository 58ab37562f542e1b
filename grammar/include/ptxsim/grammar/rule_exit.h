#pragma once

// What the generated parser runs when a rule returns. ANTLR 4.9 emits
// `auto onExit = finally([=] { exitRule(); });`, which heap-allocates a
// std::function in every rule invocation, and Parser::exitRule finds the
// parent context with a dynamic_cast (a type-name strcmp per class level).
// The build rewrites the hook to this guard (see rewrite_generated.cmake),
// which does what exitRule does with a static_cast: every parent of a
// parser rule context is a ParserRuleContext.

#include "ptxsim/grammar/antlr_runtime.h"

namespace ptxsim::grammar {

class RuleExit {
 public:
  explicit RuleExit(antlr4::Parser* parser) : parser_(parser) {}
  RuleExit(const RuleExit&) = delete;
  RuleExit& operator=(const RuleExit&) = delete;
  ~RuleExit();

 private:
  antlr4::Parser* parser_;
};

// The parser's protected state, reached through pointers to members (the
// one access path C++ offers from outside the class hierarchy).
struct ParserState : antlr4::Parser {
  static constexpr auto kContext = &ParserState::_ctx;
  static constexpr auto kInput = &ParserState::_input;
  static constexpr auto kMatchedEof = &ParserState::_matchedEOF;
  static constexpr auto kListeners = &ParserState::_parseListeners;
};

inline RuleExit::~RuleExit() {
  antlr4::Parser& p = *parser_;
  if (!(p.*ParserState::kListeners).empty()) {
    p.exitRule();  // listeners want their events: take the runtime's path
    return;
  }
  antlr4::ParserRuleContext*& ctx = p.*ParserState::kContext;
  antlr4::TokenStream* input = p.*ParserState::kInput;
  ctx->stop = (p.*ParserState::kMatchedEof) ? input->LT(1) : input->LT(-1);
  p.setState(ctx->invokingState);
  ctx = static_cast<antlr4::ParserRuleContext*>(ctx->parent);
}

}  // namespace ptxsim::grammar
