#include "ptxsim/grammar/module_reader.h"

#include "ptxsim/grammar/antlr_runtime.h"

#include "fast_ptx_parser.h"
#include "ptxsim/grammar/fast_lexer.h"
#include "ptxsim/grammar/ptx_token_stream.h"

namespace ptxsim::grammar {

struct ModuleItemReader::State {
  explicit State(std::string_view source) : lexer(source), tokens(lexer), parser(&tokens) {}
  FastLexer lexer;
  PtxTokenStream tokens;
  FastPtxParser parser;
};

ModuleItemReader::ModuleItemReader(std::string_view source) : state_(std::make_unique<State>(source)) {
  antlr::PtxParser& parser = state_->parser;
  parser.removeErrorListeners();
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
}

ModuleItemReader::~ModuleItemReader() {
  if (holdingMarker_) state_->tokens.release(marker_);
}

antlr::PtxParser::ModuleItemContext* ModuleItemReader::next() {
  State& s = *state_;
  // Let the previous item's tree and tokens go.
  if (holdingMarker_) {
    s.tokens.release(marker_);
    holdingMarker_ = false;
  }
  s.parser.releaseTree();
  if (failed_) return nullptr;
  bool atEnd = s.tokens.LA(1) == antlr4::Token::EOF;
  if (s.lexer.limitExceeded()) failed_ = true;
  if (atEnd || failed_) return nullptr;
  marker_ = s.tokens.mark();
  holdingMarker_ = true;
  try {
    antlr::PtxParser::ModuleItemContext* item = s.parser.moduleItem();
    if (s.lexer.limitExceeded()) {
      failed_ = true;
      return nullptr;
    }
    return item;
  } catch (const antlr4::ParseCancellationException&) {
    failed_ = true;
    return nullptr;
  }
}

}  // namespace ptxsim::grammar
