#include "ptxsim/grammar/parse.h"

#include "ptxsim/grammar/antlr_runtime.h"

#include "PtxLexer.h"
#include "ptxsim/grammar/fast_lexer.h"
#include "ptxsim/grammar/ptx_token_stream.h"
#include "syntax_error_listener.h"

namespace ptxsim::grammar {

struct ParsedModule::State {
  std::unique_ptr<FastLexer> lexer;
  std::unique_ptr<PtxTokenStream> tokens;
  std::unique_ptr<antlr::PtxParser> parser;
  std::unique_ptr<antlr4::ANTLRErrorStrategy> strategy;
};

ParsedModule::ParsedModule() : state_(std::make_unique<State>()) {}
ParsedModule::ParsedModule(ParsedModule&&) noexcept = default;
ParsedModule& ParsedModule::operator=(ParsedModule&&) noexcept = default;
ParsedModule::~ParsedModule() = default;

namespace {

// Stops error recovery once enough errors are collected, so garbage input
// costs time proportional to its size and no more.
class BoundedErrorStrategy final : public antlr4::DefaultErrorStrategy {
 public:
  explicit BoundedErrorStrategy(const SyntaxErrorListener& listener) : listener_(listener) {}
  void recover(antlr4::Parser* recognizer, std::exception_ptr e) override {
    if (listener_.full()) throw antlr4::ParseCancellationException();
    DefaultErrorStrategy::recover(recognizer, e);
  }
  antlr4::Token* recoverInline(antlr4::Parser* recognizer) override {
    if (listener_.full()) throw antlr4::ParseCancellationException();
    return DefaultErrorStrategy::recoverInline(recognizer);
  }

 private:
  const SyntaxErrorListener& listener_;
};

}  // namespace

ParsedModule parse(std::string_view source, size_t maxErrors) {
  ParsedModule result;
  auto& s = *result.state_;
  s.lexer = std::make_unique<FastLexer>(source);
  s.tokens = std::make_unique<PtxTokenStream>(*s.lexer);
  s.tokens->mark();  // never released: the whole token stream stays for the tree and for the LL pass
  s.parser = std::make_unique<antlr::PtxParser>(s.tokens.get());
  s.parser->removeErrorListeners();

  // Full LL prediction with error recovery: this path exists to report
  // errors well (ModuleItemReader is the fast path), so it pays for LL.
  SyntaxErrorListener listener(result.errors_, maxErrors);
  s.parser->addErrorListener(&listener);
  s.parser->getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::LL);
  s.strategy = std::make_unique<BoundedErrorStrategy>(listener);
  s.parser->setErrorHandler(std::shared_ptr<antlr4::ANTLRErrorStrategy>(
      s.strategy.get(), [](antlr4::ANTLRErrorStrategy*) {}));
  try {
    result.tree_ = s.parser->module();
  } catch (const antlr4::ParseCancellationException&) {
    result.tree_ = nullptr;
  }
  s.parser->removeErrorListeners();
  if (result.tree_ == nullptr && result.errors_.empty() && !s.lexer->limitExceeded()) {
    result.errors_.push_back({1, 1, "the input could not be parsed"});
  }
  if (s.lexer->limitExceeded()) {
    // What the parser says after the lexer stopped early is only noise.
    result.errors_ = {{s.lexer->limitLine(), s.lexer->limitColumn(), s.lexer->limitMessage()}};
  }
  return result;
}

}  // namespace ptxsim::grammar
