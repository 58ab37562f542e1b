#pragma once

// Parsing a whole PTX text into one ANTLR parse tree, with full LL
// prediction and error recovery, so the errors reported are exactly what the
// grammar says. This is the careful path: compilePtx parses with the fast
// streaming ModuleItemReader and comes here only when that fails.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "PtxParser.h"
#include "ptxsim/grammar/antlr_runtime.h"

namespace ptxsim::grammar {

struct SyntaxError {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based, in bytes
  std::string message;
};

// Owns the token stream, the parser and therefore the tree; the tree lives
// as long as this object.
class ParsedModule {
 public:
  ParsedModule(ParsedModule&&) noexcept;
  ParsedModule& operator=(ParsedModule&&) noexcept;
  ~ParsedModule();

  antlr::PtxParser::ModuleContext* tree() const { return tree_; }
  const std::vector<SyntaxError>& errors() const { return errors_; }
  bool ok() const { return errors_.empty(); }

 private:
  friend ParsedModule parse(std::string_view source, size_t maxErrors);
  struct State;
  ParsedModule();

  std::unique_ptr<State> state_;
  antlr::PtxParser::ModuleContext* tree_ = nullptr;
  std::vector<SyntaxError> errors_;
};

// Parses one PTX module. Tokens point into `source`, which must outlive the
// returned object. At most `maxErrors` syntax errors are collected.
ParsedModule parse(std::string_view source, size_t maxErrors = 20);

}  // namespace ptxsim::grammar
