#include "ptxsim/grammar/ptx_token_stream.h"

namespace ptxsim::grammar {

void PtxTokenStream::fill(size_t absoluteIndex) {
  while (lexed_ <= absoluteIndex && !sawEof_) {
    if ((lexed_ >> kBlockBits) - firstBlock_ == blocks_.size()) {
      blocks_.push_back(std::make_unique<PtxToken[]>(kBlockSize));
    }
    PtxToken& token = at(lexed_);
    token = lexer_.lex();
    token.setTokenIndex(lexed_++);
    sawEof_ = token.getType() == antlr4::Token::EOF;
  }
}

antlr4::Token* PtxTokenStream::LT(ssize_t k) {
  if (k > 0) {
    size_t i = p_ + static_cast<size_t>(k) - 1;
    if (i >= lexed_) {
      fill(i);
      if (i >= lexed_) i = lexed_ - 1;  // EOF repeats
    }
    return &at(i);
  }
  if (k == 0) return nullptr;
  // The parser looks one token back when it closes a rule; trim() keeps it.
  auto back = static_cast<size_t>(-k);
  if (back > p_ || p_ - back < (firstBlock_ << kBlockBits)) return nullptr;
  return &at(p_ - back);
}

antlr4::Token* PtxTokenStream::get(size_t index) const {
  if (index < (firstBlock_ << kBlockBits) || index >= lexed_) {
    throw antlr4::IndexOutOfBoundsException("token " + std::to_string(index) + " is no longer buffered");
  }
  // ANTLR's interface hands out mutable tokens from a const stream.
  return const_cast<PtxToken*>(&at(index));
}

void PtxTokenStream::consume() {
  if (LA(1) == antlr4::Token::EOF) throw antlr4::IllegalStateException("cannot consume EOF");
  ++p_;
  if (markers_ == 0) trim();
}

void PtxTokenStream::release(ssize_t marker) {
  if (marker != -markers_) throw antlr4::IllegalStateException("release() called with an invalid marker");
  --markers_;
  if (markers_ == 0) trim();
}

void PtxTokenStream::trim() {
  // Drop whole blocks before the token preceding the current one, which
  // LT(-1) may still ask for.
  size_t keepFrom = p_ == 0 ? 0 : p_ - 1;
  size_t drop = 0;
  while (drop < blocks_.size() && ((firstBlock_ + drop + 1) << kBlockBits) <= keepFrom) ++drop;
  if (drop == 0) return;
  blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<ptrdiff_t>(drop));
  firstBlock_ += drop;
}

void PtxTokenStream::seek(size_t index) {
  if (index < (firstBlock_ << kBlockBits)) throw antlr4::IllegalArgumentException("cannot seek before the buffered tokens");
  fill(index);
  p_ = std::min(index, lexed_ - 1);
}

std::string PtxTokenStream::getText(const antlr4::misc::Interval& interval) {
  std::string text;
  auto first = std::max<size_t>(static_cast<size_t>(std::max<ssize_t>(interval.a, 0)), firstBlock_ << kBlockBits);
  auto last = static_cast<size_t>(interval.b);
  for (size_t i = first; i <= last && i < lexed_; ++i) {
    if (at(i).getType() == antlr4::Token::EOF) break;
    text += at(i).view();
  }
  return text;
}

std::string PtxTokenStream::getText() { return getText(antlr4::misc::Interval(size_t{0}, size())); }

std::string PtxTokenStream::getText(antlr4::RuleContext* ctx) { return getText(ctx->getSourceInterval()); }

std::string PtxTokenStream::getText(antlr4::Token* start, antlr4::Token* stop) {
  if (start == nullptr || stop == nullptr) return "";
  return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

}  // namespace ptxsim::grammar
