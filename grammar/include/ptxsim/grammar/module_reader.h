#pragma once

// Streaming parse: one top-level item (directive, variable or function) at
// a time. The item's tokens and parse tree live until the next call, so a
// caller lowers each item and then lets it go; memory stays proportional to
// the largest function, not to the file. The fast path uses SLL prediction
// and stops at the first syntax error; the caller then calls parse() on the
// whole text for full LL error reporting.

#include <memory>
#include <string_view>

#include "PtxParser.h"

namespace ptxsim::grammar {

class ModuleItemReader {
 public:
  explicit ModuleItemReader(std::string_view source);
  ~ModuleItemReader();
  ModuleItemReader(const ModuleItemReader&) = delete;
  ModuleItemReader& operator=(const ModuleItemReader&) = delete;

  // The next item, or nullptr at the end of the input or after a syntax
  // error (then failed() is true). Invalidates the previous item.
  antlr::PtxParser::ModuleItemContext* next();
  bool failed() const { return failed_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  ssize_t marker_ = 0;  // UnbufferedTokenStream markers are negative numbers
  bool holdingMarker_ = false;
  bool failed_ = false;
};

}  // namespace ptxsim::grammar
