#pragma once

// State shared by the pieces of lowering: the module being built and the
// diagnostics collected so far.

#include "ptxsim/grammar/antlr_runtime.h"

#include <string>
#include <vector>

#include "ptxsim/isa/lower.h"
#include "PtxParser.h"
#include "ptxsim/grammar/ptx_token.h"
#include "ptxsim/isa/module.h"

namespace ptxsim::isa::lowering {

namespace gen = ptxsim::grammar::antlr;

inline SourceLocation locationOf(const antlr4::Token* token) {
  return {static_cast<uint32_t>(token->getLine()),
          static_cast<uint32_t>(token->getCharPositionInLine() + 1)};
}
inline SourceLocation locationOf(antlr4::tree::TerminalNode* node) {
  return locationOf(node->getSymbol());
}
inline SourceLocation locationOf(antlr4::ParserRuleContext* ctx) {
  return locationOf(ctx->getStart());
}

class LoweringContext {
 public:
  LoweringContext(Module& module, std::vector<Diagnostic>& errors, size_t maxErrors)
      : module_(module), errors_(errors), maxErrors_(maxErrors) {}

  Module& module() { return module_; }
  void error(SourceLocation where, std::string message) {
    if (errors_.size() < maxErrors_) errors_.push_back({where, std::move(message)});
  }
  bool full() const { return errors_.size() >= maxErrors_; }
  bool hasErrors() const { return !errors_.empty(); }

 private:
  Module& module_;
  std::vector<Diagnostic>& errors_;
  size_t maxErrors_;
};

}  // namespace ptxsim::isa::lowering
