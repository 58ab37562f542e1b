#pragma once

#include "ptxsim/grammar/antlr_runtime.h"

#include <vector>

#include "ptxsim/grammar/parse.h"

namespace ptxsim::grammar {

// Collects syntax errors with their locations, worded for PTX authors
// rather than in ANTLR's token-type vocabulary.
class SyntaxErrorListener final : public antlr4::BaseErrorListener {
 public:
  SyntaxErrorListener(std::vector<SyntaxError>& errors, size_t maxErrors)
      : errors_(errors), maxErrors_(maxErrors) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offendingSymbol, size_t line,
                   size_t charPositionInLine, const std::string& msg,
                   std::exception_ptr e) override;

  bool full() const { return errors_.size() >= maxErrors_; }

 private:
  std::vector<SyntaxError>& errors_;
  size_t maxErrors_;
};

}  // namespace ptxsim::grammar
