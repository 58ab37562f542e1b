#pragma once

// Parsing PTX text into an ANTLR parse tree.
//
// Parsing runs in SLL prediction mode first, which is fast and right for
// almost every input; only when SLL reports an error is the text parsed
// again with full LL prediction and error recovery, so the errors reported
// are exactly what the grammar says.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "PtxParser.h"

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

// Parses one PTX module. `source` must outlive the returned object only
// during this call (tokens copy their text). At most `maxErrors` syntax
// errors are collected.
ParsedModule parse(std::string_view source, size_t maxErrors = 20);

}  // namespace ptxsim::grammar
