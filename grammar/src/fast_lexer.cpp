#include "ptxsim/grammar/fast_lexer.h"

#include <array>
#include <unordered_map>

#include "PtxLexer.h"

namespace ptxsim::grammar {
namespace {

using antlr::PtxLexer;

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool isNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Dotted keywords of PtxLexer.g4 and their token types. Anything else that
// starts with '.' is a DOT_NAME.
const std::unordered_map<std::string_view, size_t>& dotKeywords() {
  static const std::unordered_map<std::string_view, size_t> table = [] {
    std::unordered_map<std::string_view, size_t> t = {
        {".version", PtxLexer::VERSION},
        {".target", PtxLexer::TARGET},
        {".address_size", PtxLexer::ADDRESS_SIZE},
        {".entry", PtxLexer::ENTRY},
        {".func", PtxLexer::FUNC},
        {".visible", PtxLexer::VISIBLE},
        {".extern", PtxLexer::EXTERN},
        {".weak", PtxLexer::WEAK},
        {".common", PtxLexer::COMMON},
        {".noreturn", PtxLexer::NORETURN},
        {".alias", PtxLexer::ALIAS},
        {".file", PtxLexer::FILE},
        {".loc", PtxLexer::LOC},
        {".section", PtxLexer::SECTION},
        {".pragma", PtxLexer::PRAGMA},
        {".maxntid", PtxLexer::MAXNTID},
        {".reqntid", PtxLexer::REQNTID},
        {".minnctapersm", PtxLexer::MINNCTAPERSM},
        {".maxnctapersm", PtxLexer::MAXNCTAPERSM},
        {".maxnreg", PtxLexer::MAXNREG},
        {".explicitcluster", PtxLexer::EXPLICITCLUSTER},
        {".reqnctapercluster", PtxLexer::REQNCTAPERCLUSTER},
        {".maxclusterrank", PtxLexer::MAXCLUSTERRANK},
        {".blocksareclusters", PtxLexer::BLOCKSAREGCLUSTERS},
        {".callprototype", PtxLexer::CALLPROTOTYPE},
        {".calltargets", PtxLexer::CALLTARGETS},
        {".branchtargets", PtxLexer::BRANCHTARGETS},
        {".reg", PtxLexer::REG},
        {".sreg", PtxLexer::SREG},
        {".param", PtxLexer::PARAM},
        {".local", PtxLexer::LOCAL},
        {".shared", PtxLexer::SHARED},
        {".global", PtxLexer::GLOBAL},
        {".const", PtxLexer::CONST},
        {".tex", PtxLexer::TEX},
        {".align", PtxLexer::ALIGN},
        {".attribute", PtxLexer::ATTRIBUTE},
        {".ptr", PtxLexer::PTR},
        {".v2", PtxLexer::VECTOR},
        {".v4", PtxLexer::VECTOR},
        {".v8", PtxLexer::VECTOR},
    };
    for (std::string_view type :
         {".b8",     ".b16",     ".b32",        ".b64",        ".b128",   ".u8",     ".u16",
          ".u32",    ".u64",     ".s8",         ".s16",        ".s32",    ".s64",    ".f16",
          ".f16x2",  ".bf16",    ".bf16x2",     ".tf32",       ".f32",    ".f64",    ".e4m3",
          ".e5m2",   ".e4m3x2",  ".e5m2x2",     ".e2m1x2",     ".e2m3x2", ".e3m2x2", ".ue8m0x2",
          ".pred",   ".texref",  ".samplerref", ".surfref"}) {
      t.emplace(type, PtxLexer::TYPE);
    }
    return t;
  }();
  return table;
}

bool isOperatorToken(size_t type) {
  switch (type) {
    case PtxLexer::PLUS:
    case PtxLexer::MINUS:
    case PtxLexer::STAR:
    case PtxLexer::SLASH:
    case PtxLexer::PERCENT:
    case PtxLexer::AMP:
    case PtxLexer::PIPE:
    case PtxLexer::CARET:
    case PtxLexer::TILDE:
    case PtxLexer::BANG:
    case PtxLexer::LE:
    case PtxLexer::GE:
    case PtxLexer::EQEQ:
    case PtxLexer::NE:
    case PtxLexer::ANDAND:
    case PtxLexer::OROR:
    case PtxLexer::LT:
    case PtxLexer::GT:
    case PtxLexer::SHL:
    case PtxLexer::SHR:
    case PtxLexer::QUESTION:
      return true;
    default:
      return false;
  }
}

}  // namespace

FastLexer::FastLexer(std::string_view source, LexerLimits limits) : src_(source), limits_(limits) {}

antlr4::TokenFactory<antlr4::CommonToken>* FastLexer::getTokenFactory() {
  return antlr4::CommonTokenFactory::DEFAULT.get();
}

void FastLexer::skipWhitespaceAndComments() {
  while (pos_ < src_.size()) {
    char c = src_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      lineStart_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '*') {
      // An unterminated block comment is left for lexToken to report as
      // stray characters, as the ANTLR lexer does.
      size_t close = src_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) return;
      for (size_t i = pos_; i < close; ++i) {
        if (src_[i] == '\n') {
          ++line_;
          lineStart_ = i + 1;
        }
      }
      pos_ = close + 2;
    } else {
      return;
    }
  }
}

size_t FastLexer::scanNamePart(size_t at) const {
  while (at < src_.size() && isNameChar(src_[at])) ++at;
  return at;
}

// NAME_PART ('::' NAME_PART)*, starting at a name character.
size_t FastLexer::scanQualifiedPart(size_t at) const {
  at = scanNamePart(at);
  while (at + 2 < src_.size() && src_[at] == ':' && src_[at + 1] == ':' &&
         isNameChar(src_[at + 2])) {
    at = scanNamePart(at + 2);
  }
  return at;
}

FastLexer::Span FastLexer::lexDotWord(size_t begin) {
  size_t end = scanQualifiedPart(begin + 1);
  auto it = dotKeywords().find(src_.substr(begin, end - begin));
  size_t type = it == dotKeywords().end() ? size_t{PtxLexer::DOT_NAME} : it->second;
  return {type, begin, end};
}

FastLexer::Span FastLexer::lexIdentifier(size_t begin) {
  size_t end = scanNamePart(begin + 1);
  size_t type = PtxLexer::IDENT;
  while (end + 1 < src_.size() && src_[end] == '.' && isNameChar(src_[end + 1])) {
    end = scanQualifiedPart(end + 1);
    type = PtxLexer::DOTTED;
  }
  if (type == PtxLexer::IDENT) {
    std::string_view word = src_.substr(begin, end - begin);
    if (word == "generic") type = PtxLexer::GENERIC;
    if (word == "mask") type = PtxLexer::MASK;
  }
  return {type, begin, end};
}

FastLexer::Span FastLexer::lexNumber(size_t begin) {
  size_t n = src_.size();
  auto hexRunIs = [&](size_t from, size_t count) {
    if (from + count > n) return false;
    for (size_t i = from; i < from + count; ++i) {
      if (!isHexDigit(src_[i])) return false;
    }
    return true;
  };
  if (src_[begin] == '0' && begin + 1 < n) {
    char k = src_[begin + 1];
    if ((k == 'f' || k == 'F') && hexRunIs(begin + 2, 8)) return {PtxLexer::HEX_FLOAT, begin, begin + 10};
    if ((k == 'd' || k == 'D') && hexRunIs(begin + 2, 16)) return {PtxLexer::HEX_FLOAT, begin, begin + 18};
    if ((k == 'x' || k == 'X') && begin + 2 < n && isHexDigit(src_[begin + 2])) {
      size_t end = begin + 2;
      while (end < n && isHexDigit(src_[end])) ++end;
      if (end < n && (src_[end] == 'u' || src_[end] == 'U')) ++end;
      return {PtxLexer::INT, begin, end};
    }
    if ((k == 'b' || k == 'B') && begin + 2 < n && (src_[begin + 2] == '0' || src_[begin + 2] == '1')) {
      size_t end = begin + 2;
      while (end < n && (src_[end] == '0' || src_[end] == '1')) ++end;
      if (end < n && (src_[end] == 'u' || src_[end] == 'U')) ++end;
      return {PtxLexer::INT, begin, end};
    }
  }
  size_t end = begin;
  while (end < n && isDigit(src_[end])) ++end;
  auto exponentEnd = [&](size_t at) -> size_t {
    if (at >= n || (src_[at] != 'e' && src_[at] != 'E')) return 0;
    size_t p = at + 1;
    if (p < n && (src_[p] == '+' || src_[p] == '-')) ++p;
    if (p >= n || !isDigit(src_[p])) return 0;
    while (p < n && isDigit(src_[p])) ++p;
    return p;
  };
  if (end < n && src_[end] == '.') {
    size_t p = end + 1;
    while (p < n && isDigit(src_[p])) ++p;
    if (size_t e = exponentEnd(p)) p = e;
    return {PtxLexer::FLOAT, begin, p};
  }
  if (size_t e = exponentEnd(end)) return {PtxLexer::FLOAT, begin, e};
  if (end < n && (src_[end] == 'u' || src_[end] == 'U')) ++end;
  return {PtxLexer::INT, begin, end};
}

FastLexer::Span FastLexer::lexString(size_t begin) {
  size_t p = begin + 1;
  while (p < src_.size()) {
    char c = src_[p];
    if (c == '"') return {PtxLexer::STRING, begin, p + 1};
    if (c == '\n' || c == '\r') break;
    if (c == '\\') {
      if (p + 1 >= src_.size()) break;
      p += 2;
      continue;
    }
    ++p;
  }
  return {PtxLexer::ERROR_CHAR, begin, begin + 1};
}

FastLexer::Span FastLexer::lexPunctuation(size_t begin) {
  char c = src_[begin];
  char next = begin + 1 < src_.size() ? src_[begin + 1] : '\0';
  switch (c) {
    case ';': return {PtxLexer::SEMI, begin, begin + 1};
    case ',': return {PtxLexer::COMMA, begin, begin + 1};
    case ':': return {PtxLexer::COLON, begin, begin + 1};
    case '{': return {PtxLexer::LBRACE, begin, begin + 1};
    case '}': return {PtxLexer::RBRACE, begin, begin + 1};
    case '(': return {PtxLexer::LPAREN, begin, begin + 1};
    case ')': return {PtxLexer::RPAREN, begin, begin + 1};
    case '[': return {PtxLexer::LBRACK, begin, begin + 1};
    case ']': return {PtxLexer::RBRACK, begin, begin + 1};
    case '<':
      if (next == '<') return {PtxLexer::SHL, begin, begin + 2};
      if (next == '=') return {PtxLexer::LE, begin, begin + 2};
      return {PtxLexer::LT, begin, begin + 1};
    case '>':
      if (next == '>') return {PtxLexer::SHR, begin, begin + 2};
      if (next == '=') return {PtxLexer::GE, begin, begin + 2};
      return {PtxLexer::GT, begin, begin + 1};
    case '@': return {PtxLexer::AT, begin, begin + 1};
    case '!': return next == '=' ? Span{PtxLexer::NE, begin, begin + 2} : Span{PtxLexer::BANG, begin, begin + 1};
    case '+': return {PtxLexer::PLUS, begin, begin + 1};
    case '-': return {PtxLexer::MINUS, begin, begin + 1};
    case '*': return {PtxLexer::STAR, begin, begin + 1};
    case '/': return {PtxLexer::SLASH, begin, begin + 1};
    case '%': return {PtxLexer::PERCENT, begin, begin + 1};
    case '&': return next == '&' ? Span{PtxLexer::ANDAND, begin, begin + 2} : Span{PtxLexer::AMP, begin, begin + 1};
    case '|': return next == '|' ? Span{PtxLexer::OROR, begin, begin + 2} : Span{PtxLexer::PIPE, begin, begin + 1};
    case '^': return {PtxLexer::CARET, begin, begin + 1};
    case '~': return {PtxLexer::TILDE, begin, begin + 1};
    case '=': return next == '=' ? Span{PtxLexer::EQEQ, begin, begin + 2} : Span{PtxLexer::EQUALS, begin, begin + 1};
    case '?': return {PtxLexer::QUESTION, begin, begin + 1};
    default: return {PtxLexer::ERROR_CHAR, begin, begin + 1};
  }
}

FastLexer::Span FastLexer::lexToken() {
  size_t begin = pos_;
  char c = src_[begin];
  char next = begin + 1 < src_.size() ? src_[begin + 1] : '\0';
  if (c == '.' && isNameStart(next)) return lexDotWord(begin);
  if (c == '.' && isDigit(next)) return lexNumber(begin);  // .5
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return lexIdentifier(begin);
  if ((c == '$' || c == '%') && isNameChar(next)) return lexIdentifier(begin);
  if (isDigit(c)) return lexNumber(begin);
  if (c == '"') return lexString(begin);
  return lexPunctuation(begin);
}

// Bounds what would make the parser recurse: open brackets and runs of
// operators (each prefix operator is one level of expression recursion).
bool FastLexer::trackNesting(size_t type, size_t begin) {
  auto fail = [&](std::string message) {
    limitExceeded_ = true;
    limitLine_ = static_cast<uint32_t>(line_);
    limitColumn_ = static_cast<uint32_t>(begin - lineStart_ + 1);
    limitMessage_ = std::move(message);
    return false;
  };
  if (type == PtxLexer::LBRACE || type == PtxLexer::LPAREN || type == PtxLexer::LBRACK) {
    if (++depth_ > limits_.maxNestingDepth) {
      return fail("nesting deeper than " + std::to_string(limits_.maxNestingDepth) + " levels");
    }
  } else if (type == PtxLexer::RBRACE || type == PtxLexer::RPAREN || type == PtxLexer::RBRACK) {
    if (depth_ > 0) --depth_;
  }
  if (isOperatorToken(type) || type == PtxLexer::LPAREN) {
    if (++operatorRun_ > limits_.maxPrefixOperators) {
      return fail("more than " + std::to_string(limits_.maxPrefixOperators) +
                  " operators in a row");
    }
  } else {
    operatorRun_ = 0;
  }
  // Every binary or conditional operator deepens the expression tree by one
  // level, so their number per statement bounds the recursion of lowering.
  if ((isOperatorToken(type) || type == PtxLexer::QUESTION) &&
      ++statementOperators_ > limits_.maxOperatorsPerStatement) {
    return fail("more than " + std::to_string(limits_.maxOperatorsPerStatement) +
                " operators in one statement");
  }
  if (type == PtxLexer::SEMI || type == PtxLexer::LBRACE || type == PtxLexer::RBRACE ||
      type == PtxLexer::TYPE) {
    statementOperators_ = 0;
  }
  return true;
}

PtxToken FastLexer::lex() {
  if (!atEof_) skipWhitespaceAndComments();
  if (atEof_ || pos_ >= src_.size()) {
    atEof_ = true;
    return PtxToken(this, antlr4::Token::EOF, std::string_view(src_.data() + pos_, 0), line_, pos_ - lineStart_, pos_);
  }
  Span span = lexToken();
  if (!trackNesting(span.type, span.begin)) {
    // Stop here: the parser sees a premature end of input and the caller
    // reports the limit with its location.
    atEof_ = true;
    return lex();
  }
  PtxToken token(this, span.type, src_.substr(span.begin, span.end - span.begin), line_, span.begin - lineStart_,
                 span.begin);
  pos_ = span.end;
  return token;
}

std::unique_ptr<antlr4::Token> FastLexer::nextToken() {
  PtxToken t = lex();
  auto token = std::make_unique<antlr4::CommonToken>(t.getType(), t.getText());
  token->setLine(t.getLine());
  token->setCharPositionInLine(t.getCharPositionInLine());
  token->setStartIndex(t.getStartIndex());
  token->setStopIndex(t.getStopIndex());
  return token;
}

}  // namespace ptxsim::grammar
