#pragma once

// A hand-written PTX lexer that feeds the ANTLR parser.
//
// PTX tokens are simple, and ANTLR's generated lexer spends most of its time
// in the generic DFA and in UTF-32 conversion. This lexer reads the UTF-8
// bytes directly and produces exactly the token types of PtxLexer.g4 (a test
// checks the two agree on the corpus). It also bounds nesting, so the
// recursive-descent parser can never overflow the stack on hostile input.

#include "ptxsim/grammar/antlr_runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ptxsim/grammar/ptx_token.h"

namespace ptxsim::grammar {

// Limits that keep the recursive parser and lowering within a small stack.
struct LexerLimits {
  uint32_t maxNestingDepth = 256;   // open ( [ { at once
  uint32_t maxPrefixOperators = 256; // consecutive operator tokens
  uint32_t maxOperatorsPerStatement = 1024;
};

class FastLexer final : public antlr4::TokenSource {
 public:
  explicit FastLexer(std::string_view source, LexerLimits limits = {});

  // The next token, pointing into the source text (the fast path).
  PtxToken lex();
  // The same token as an ANTLR CommonToken, for ANTLR's own token streams.
  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return pos_ - lineStart_; }
  antlr4::CharStream* getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "<ptx>"; }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override;

  // Set when the lexer stopped early because a nesting limit was exceeded;
  // the parser reports it as an error at that position.
  bool limitExceeded() const { return limitExceeded_; }
  uint32_t limitLine() const { return limitLine_; }
  uint32_t limitColumn() const { return limitColumn_; }
  const std::string& limitMessage() const { return limitMessage_; }

 private:
  struct Span {
    size_t type;
    size_t begin;
    size_t end;
  };

  void skipWhitespaceAndComments();
  Span lexToken();
  Span lexDotWord(size_t begin);
  Span lexIdentifier(size_t begin);
  Span lexNumber(size_t begin);
  Span lexString(size_t begin);
  Span lexPunctuation(size_t begin);
  size_t scanNamePart(size_t at) const;
  size_t scanQualifiedPart(size_t at) const;
  bool trackNesting(size_t type, size_t begin);

  std::string_view src_;
  LexerLimits limits_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t lineStart_ = 0;
  uint32_t depth_ = 0;
  uint32_t operatorRun_ = 0;
  uint32_t statementOperators_ = 0;
  bool limitExceeded_ = false;
  uint32_t limitLine_ = 0;
  uint32_t limitColumn_ = 0;
  std::string limitMessage_;
  bool atEof_ = false;
};

}  // namespace ptxsim::grammar
