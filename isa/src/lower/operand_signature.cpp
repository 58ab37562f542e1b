#include "operand_signature.h"


namespace ptxsim::isa::lowering {

bool parseSignature(std::string_view text, Signature& out, std::string& error) {
  out = {};
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view word = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (word == "...") {
      out.variadic = true;
      if (!text.empty()) {
        error = "'...' must come last";
        return false;
      }
      break;
    }
    SignatureToken token;
    if (!word.empty() && word.back() == '?') {
      token.optional = true;
      word.remove_suffix(1);
    } else if (!out.tokens.empty() && out.tokens.back().optional) {
      error = "a required operand follows an optional one";
      return false;
    }
    if (word.empty()) {
      error = "empty operand token";
      return false;
    }
    char c = word[0];
    if (c >= 'A' && c <= 'Z') {
      std::string dottedType = ".";
      for (char ch : word) dottedType += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      auto type = parseType(dottedType);
      if (!type) {
        error = "unknown fixed type '" + std::string(word) + "'";
        return false;
      }
      token.role = OperandRole::Source;
      token.fixedType = *type;
    } else {
      switch (c) {
        case 'd': token.role = OperandRole::Destination; break;
        case 's': token.role = OperandRole::Source; break;
        case 'r': token.role = OperandRole::RegisterSource; break;
        case 'p': token.role = OperandRole::PredicateDestination; break;
        case 'q': token.role = OperandRole::PredicateSource; break;
        case 'a': token.role = OperandRole::Address; break;
        case 'l': token.role = OperandRole::Label; break;
        case 'f': token.role = OperandRole::Function; break;
        case 't': token.role = OperandRole::Table; break;
        case 'x': token.role = OperandRole::Any; break;
        default:
          error = "unknown operand token '" + std::string(word) + "'";
          return false;
      }
      std::string_view rest = word.substr(1);
      bool typed = c == 'd' || c == 's' || c == 'r';
      if (typed && !rest.empty() && rest[0] == 'v') {
        token.vector = true;
        rest.remove_prefix(1);
      }
      if (typed && rest.size() == 1 && rest[0] >= '0' && rest[0] <= '3') {
        token.slot = static_cast<uint8_t>(rest[0] - '0');
        rest.remove_prefix(1);
      }
      if (!rest.empty()) {
        error = "malformed operand token '" + std::string(word) + "'";
        return false;
      }
    }
    if (!token.optional) ++out.minOperands;
    out.tokens.push_back(token);
  }
  return true;
}

const Signature& signatureOf(const InstructionSpec& spec) {
  static const std::vector<Signature> all = [] {
    std::vector<Signature> parsed;
    for (const InstructionSpec& row : instructionTable()) {
      Signature signature;
      std::string error;
      // A malformed row is a bug in the table, which its unit test catches;
      // here it degrades to "any operands".
      if (!parseSignature(row.operands, signature, error)) signature = {{}, true, 0};
      parsed.push_back(std::move(signature));
    }
    return parsed;
  }();
  return all[static_cast<size_t>(&spec - instructionTable().data())];
}

}  // namespace ptxsim::isa::lowering
