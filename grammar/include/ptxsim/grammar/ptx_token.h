#pragma once

// A token that points into the PTX text instead of copying it, so lexing
// allocates nothing per token. The text must outlive the token.

#include "ptxsim/grammar/antlr_runtime.h"

#include <string>
#include <string_view>

namespace ptxsim::grammar {

class PtxToken final : public antlr4::Token {
 public:
  PtxToken() = default;
  PtxToken(antlr4::TokenSource* source, size_t type, std::string_view text, size_t line, size_t column,
           size_t start)
      : source_(source), text_(text), type_(type), line_(line), column_(column), start_(start) {}

  std::string_view view() const { return text_; }
  size_t type() const { return type_; }  // getType() without the virtual call
  void setTokenIndex(size_t index) { index_ = index; }

  std::string getText() const override { return type_ == EOF ? "<EOF>" : std::string(text_); }
  size_t getType() const override { return type_; }
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() const override { return column_; }
  size_t getChannel() const override { return DEFAULT_CHANNEL; }
  size_t getTokenIndex() const override { return index_; }
  size_t getStartIndex() const override { return start_; }
  size_t getStopIndex() const override { return start_ + text_.size() - 1; }
  // ANTLR's error recovery makes its "missing token" from the source.
  antlr4::TokenSource* getTokenSource() const override { return source_; }
  antlr4::CharStream* getInputStream() const override { return nullptr; }
  std::string toString() const override { return "[@" + std::to_string(index_) + " '" + getText() + "']"; }

 private:
  antlr4::TokenSource* source_ = nullptr;
  std::string_view text_;
  size_t type_ = EOF;
  size_t line_ = 0;
  size_t column_ = 0;
  size_t start_ = 0;
  size_t index_ = 0;
};

// The text of a token the FastLexer made, without a copy.
inline std::string_view tokenText(const antlr4::Token* token) {
  return static_cast<const PtxToken*>(token)->view();
}

}  // namespace ptxsim::grammar
