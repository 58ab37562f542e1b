#include "syntax_error_listener.h"

#include "PtxLexer.h"

namespace ptxsim::grammar {
namespace {

std::string describe(antlr4::Token* token) {
  if (token == nullptr) return "input";
  if (token->getType() == antlr4::Token::EOF) return "end of file";
  std::string text = token->getText();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  if (token->getType() == antlr::PtxLexer::ERROR_CHAR) {
    unsigned char c = static_cast<unsigned char>(text.empty() ? 0 : text[0]);
    if (c < 0x20 || c >= 0x7f) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
      return std::string("unexpected ") + buf;
    }
    return "stray character '" + text + "'";
  }
  return "'" + text + "'";
}

}  // namespace

void SyntaxErrorListener::syntaxError(antlr4::Recognizer* /*recognizer*/,
                                      antlr4::Token* offendingSymbol, size_t line,
                                      size_t charPositionInLine, const std::string& msg,
                                      std::exception_ptr /*e*/) {
  if (full()) return;
  std::string message;
  if (offendingSymbol != nullptr && offendingSymbol->getType() == antlr::PtxLexer::ERROR_CHAR) {
    message = describe(offendingSymbol);
  } else if (offendingSymbol != nullptr && offendingSymbol->getType() == antlr4::Token::EOF) {
    message = "unexpected end of file";
  } else {
    // ANTLR's wording ("mismatched input X expecting {...}") names token
    // types; keep its expectation list but lead with the offending text.
    message = "syntax error at " + describe(offendingSymbol);
    auto expecting = msg.find("expecting");
    if (expecting != std::string::npos) {
      std::string expected = msg.substr(expecting);
      if (expected.size() > 160) expected = expected.substr(0, 157) + "...";
      message += ", " + expected;
    }
  }
  errors_.push_back({static_cast<uint32_t>(line), static_cast<uint32_t>(charPositionInLine + 1),
                     std::move(message)});
}

}  // namespace ptxsim::grammar
