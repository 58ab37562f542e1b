#pragma once

// A token stream over the FastLexer that keeps only the tokens still
// needed: those after the oldest mark (the parser marks while predicting,
// and ModuleItemReader marks each top-level item so its tree stays valid).
// Tokens live in fixed-size blocks, so their addresses never change while
// buffered and indexing is a shift and a mask.

#include "ptxsim/grammar/antlr_runtime.h"

#include <memory>
#include <vector>

#include "ptxsim/grammar/fast_lexer.h"
#include "ptxsim/grammar/ptx_token.h"

namespace ptxsim::grammar {

class PtxTokenStream final : public antlr4::TokenStream {
 public:
  explicit PtxTokenStream(FastLexer& lexer) : lexer_(lexer) {}

  antlr4::Token* LT(ssize_t k) override;
  size_t LA(ssize_t i) override {
    // The parser's prediction asks for the next few tokens all the time.
    if (i > 0 && p_ + static_cast<size_t>(i) <= lexed_) return at(p_ + static_cast<size_t>(i) - 1).type();
    return static_cast<PtxToken*>(LT(i))->type();
  }
  antlr4::Token* get(size_t index) const override;
  antlr4::TokenSource* getTokenSource() const override { return &lexer_; }
  void consume() override;
  ssize_t mark() override { return -(++markers_); }
  void release(ssize_t marker) override;
  size_t index() override { return p_; }
  void seek(size_t index) override;
  size_t size() override { return lexed_; }
  std::string getSourceName() const override { return "<ptx>"; }
  std::string getText(const antlr4::misc::Interval& interval) override;
  std::string getText() override;
  std::string getText(antlr4::RuleContext* ctx) override;
  std::string getText(antlr4::Token* start, antlr4::Token* stop) override;

 private:
  void fill(size_t absoluteIndex);
  void trim();

  FastLexer& lexer_;
  static constexpr size_t kBlockBits = 12;
  static constexpr size_t kBlockSize = size_t{1} << kBlockBits;
  PtxToken& at(size_t absoluteIndex) {
    return blocks_[(absoluteIndex >> kBlockBits) - firstBlock_][absoluteIndex & (kBlockSize - 1)];
  }
  const PtxToken& at(size_t absoluteIndex) const {
    return blocks_[(absoluteIndex >> kBlockBits) - firstBlock_][absoluteIndex & (kBlockSize - 1)];
  }

  // Block b holds tokens [b << kBlockBits, ...). Blocks are dropped from the
  // front once per kBlockSize tokens, so a vector is cheaper than a deque.
  std::vector<std::unique_ptr<PtxToken[]>> blocks_;
  size_t firstBlock_ = 0;  // number of the first block still held
  size_t lexed_ = 0;       // tokens lexed so far
  size_t p_ = 0;
  ssize_t markers_ = 0;
  bool sawEof_ = false;
};

}  // namespace ptxsim::grammar
