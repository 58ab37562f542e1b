#include "constant_expression.h"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <string>

#include "tree_access.h"

namespace ptxsim::isa::lowering {

using P = gen::PtxParser;

std::optional<uint64_t> parseIntegerLiteral(std::string_view text) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

ConstantValue parseHexFloat(std::string_view text) {
  ConstantValue v;
  v.isFloat = true;
  bool isDouble = text[1] == 'd' || text[1] == 'D';
  v.floatType = isDouble ? DataType::F64 : DataType::F32;
  uint64_t bits = 0;
  std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
  v.floatBits = bits;
  v.real = isDouble ? std::bit_cast<double>(bits)
                    : static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  return v;
}

namespace {

class Evaluator {
 public:
  Evaluator(LoweringContext& context, const NameResolver& resolve)
      : context_(context), resolve_(resolve) {}

  std::optional<ConstantValue> eval(P::ExprContext* expr) {
    if (auto* e = exactly<P::PrimaryExprContext>(expr)) return primary(e->primary());
    if (auto* e = exactly<P::UnaryExprContext>(expr)) return unary(e);
    if (auto* e = exactly<P::ConditionalExprContext>(expr)) {
      auto c = integer(expr, e->expr(0));
      if (!c) return std::nullopt;
      return eval(*c != 0 ? e->expr(1) : e->expr(2));
    }
    return binary(expr);
  }

 private:
  std::optional<ConstantValue> primary(P::PrimaryContext* p) {
    if (p->INT()) {
      auto value = parseIntegerLiteral(p->INT()->getText());
      if (!value) return fail(p, "integer literal '" + p->INT()->getText() + "' is out of range");
      ConstantValue v;
      v.integer = static_cast<int64_t>(*value);
      return v;
    }
    if (p->HEX_FLOAT()) return parseHexFloat(p->HEX_FLOAT()->getText());
    if (p->FLOAT()) {
      ConstantValue v;
      v.isFloat = true;
      v.real = std::strtod(p->FLOAT()->getText().c_str(), nullptr);
      return v;
    }
    if (p->expr() && !p->name()) return eval(p->expr());
    // A name, possibly indexed: arr[3] is not a constant PTX allows here.
    std::string name = p->name()->getText();
    if (p->expr()) return fail(p, "array indexing of '" + name + "' is not a constant expression");
    auto symbol = resolve_(name);
    if (!symbol) return fail(p, "undefined symbol '" + name + "'");
    ConstantValue v;
    v.symbol = symbol;
    return v;
  }

  std::optional<ConstantValue> unary(P::UnaryExprContext* e) {
    auto operand = eval(e->expr());
    if (!operand) return std::nullopt;
    if (operand->symbol) return fail(e, "operator applied to an address");
    ConstantValue v = *operand;
    size_t op = e->getStart()->getType();
    if (v.isFloat) {
      if (op == gen::PtxParser::MINUS) {
        v.real = -v.real;
        v.floatBits ^= v.floatType == DataType::F32 ? 0x80000000ull : 0x8000000000000000ull;
        return v;
      }
      if (op == gen::PtxParser::PLUS) return v;
      return fail(e, "operator applied to a floating-point constant");
    }
    switch (op) {
      case gen::PtxParser::MINUS: v.integer = static_cast<int64_t>(0 - static_cast<uint64_t>(v.integer)); break;
      case gen::PtxParser::BANG: v.integer = v.integer == 0 ? 1 : 0; break;
      case gen::PtxParser::TILDE: v.integer = ~v.integer; break;
      default: break;
    }
    return v;
  }

  std::optional<int64_t> integer(antlr4::ParserRuleContext* where, P::ExprContext* expr) {
    auto v = eval(expr);
    if (!v) return std::nullopt;
    if (v->isFloat || v->symbol) {
      fail(where, "expected an integer constant");
      return std::nullopt;
    }
    return v->integer;
  }

  std::optional<ConstantValue> binary(P::ExprContext* expr) {
    auto* lhsCtx = expr->getRuleContext<P::ExprContext>(0);
    auto* rhsCtx = expr->getRuleContext<P::ExprContext>(1);
    if (lhsCtx == nullptr || rhsCtx == nullptr) return fail(expr, "malformed expression");
    size_t op = static_cast<antlr4::tree::TerminalNode*>(expr->children[1])->getSymbol()->getType();
    auto lhs = eval(lhsCtx);
    if (!lhs) return std::nullopt;
    auto rhs = eval(rhsCtx);
    if (!rhs) return std::nullopt;
    if (lhs->isFloat || rhs->isFloat) return fail(expr, "arithmetic on floating-point constants");
    // symbol + int, int + symbol and symbol - int are addresses.
    if (lhs->symbol || rhs->symbol) {
      if (op == gen::PtxParser::PLUS && !(lhs->symbol && rhs->symbol)) {
        ConstantValue v = lhs->symbol ? *lhs : *rhs;
        v.integer = lhs->integer + rhs->integer;
        return v;
      }
      if (op == gen::PtxParser::MINUS && lhs->symbol && !rhs->symbol) {
        ConstantValue v = *lhs;
        v.integer = lhs->integer - rhs->integer;
        return v;
      }
      return fail(expr, "unsupported arithmetic on an address");
    }
    auto a = static_cast<uint64_t>(lhs->integer);
    auto b = static_cast<uint64_t>(rhs->integer);
    ConstantValue v;
    switch (op) {
      case gen::PtxParser::PLUS: v.integer = static_cast<int64_t>(a + b); break;
      case gen::PtxParser::MINUS: v.integer = static_cast<int64_t>(a - b); break;
      case gen::PtxParser::STAR: v.integer = static_cast<int64_t>(a * b); break;
      case gen::PtxParser::SLASH:
      case gen::PtxParser::PERCENT:
        if (b == 0) return fail(expr, "division by zero in a constant expression");
        if (lhs->integer == INT64_MIN && rhs->integer == -1) {
          v.integer = op == gen::PtxParser::SLASH ? INT64_MIN : 0;
        } else {
          v.integer = op == gen::PtxParser::SLASH ? lhs->integer / rhs->integer
                                                  : lhs->integer % rhs->integer;
        }
        break;
      case gen::PtxParser::SHL: v.integer = b >= 64 ? 0 : static_cast<int64_t>(a << b); break;
      case gen::PtxParser::SHR: v.integer = b >= 64 ? (lhs->integer < 0 ? -1 : 0) : lhs->integer >> b; break;
      case gen::PtxParser::AMP: v.integer = static_cast<int64_t>(a & b); break;
      case gen::PtxParser::CARET: v.integer = static_cast<int64_t>(a ^ b); break;
      case gen::PtxParser::PIPE: v.integer = static_cast<int64_t>(a | b); break;
      case gen::PtxParser::LT: v.integer = lhs->integer < rhs->integer; break;
      case gen::PtxParser::GT: v.integer = lhs->integer > rhs->integer; break;
      case gen::PtxParser::LE: v.integer = lhs->integer <= rhs->integer; break;
      case gen::PtxParser::GE: v.integer = lhs->integer >= rhs->integer; break;
      case gen::PtxParser::EQEQ: v.integer = a == b; break;
      case gen::PtxParser::NE: v.integer = a != b; break;
      case gen::PtxParser::ANDAND: v.integer = a != 0 && b != 0; break;
      case gen::PtxParser::OROR: v.integer = a != 0 || b != 0; break;
      default: return fail(expr, "unsupported operator in a constant expression");
    }
    return v;
  }

  std::optional<ConstantValue> fail(antlr4::ParserRuleContext* where, std::string message) {
    context_.error(locationOf(where), std::move(message));
    return std::nullopt;
  }

  LoweringContext& context_;
  const NameResolver& resolve_;
};

}  // namespace

std::optional<ConstantValue> evaluate(P::ExprContext* expr, LoweringContext& context,
                                      const NameResolver& resolve) {
  return Evaluator(context, resolve).eval(expr);
}

}  // namespace ptxsim::isa::lowering
