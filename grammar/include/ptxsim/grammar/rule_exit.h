#pragma once

// What the generated parser runs when a rule returns. ANTLR 4.9 emits
// `auto onExit = finally([=] { exitRule(); });`, which heap-allocates a
// std::function in every rule invocation; the build rewrites it to this
// plain guard (see rewrite_generated.cmake). Behaviour is identical.

#include "ptxsim/grammar/antlr_runtime.h"

namespace ptxsim::grammar {

class RuleExit {
 public:
  explicit RuleExit(antlr4::Parser* parser) : parser_(parser) {}
  RuleExit(const RuleExit&) = delete;
  RuleExit& operator=(const RuleExit&) = delete;
  ~RuleExit() { parser_->exitRule(); }

 private:
  antlr4::Parser* parser_;
};

}  // namespace ptxsim::grammar
