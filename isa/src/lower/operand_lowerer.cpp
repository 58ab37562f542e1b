// Operands of one instruction: lowering each parse-tree operand to an
// Operand, then checking it against the table row's operand signature.

#include "constant_expression.h"
#include "function_lowerer.h"
#include "special_registers.h"
#include "tree_access.h"

namespace ptxsim::isa::lowering {

namespace {

bool allowsWiderRegisters(Opcode op) {
  switch (op) {
    case Opcode::Ld:
    case Opcode::Ldu:
    case Opcode::St:
    case Opcode::Cvt:
    case Opcode::CvtPack:
    case Opcode::Suld:
    case Opcode::Sust:
      return true;
    default:
      return false;
  }
}

DataType widened(DataType t) {
  switch (t) {
    case DataType::U16: return DataType::U32;
    case DataType::S16: return DataType::S32;
    case DataType::U32: return DataType::U64;
    case DataType::S32: return DataType::S64;
    case DataType::B16: return DataType::B32;
    case DataType::B32: return DataType::B64;
    default: return t;
  }
}

std::string operandsWanted(const Signature& sig) {
  size_t max = sig.tokens.size();
  if (sig.variadic) return "at least " + std::to_string(sig.minOperands) + " operands";
  if (max == sig.minOperands) return std::to_string(max) + (max == 1 ? " operand" : " operands");
  return std::to_string(sig.minOperands) + " to " + std::to_string(max) + " operands";
}

}  // namespace

std::optional<SymbolRef> FunctionLowerer::resolveSymbol(std::string_view name) const {
  if (auto entry = scopes_.find(name)) {
    switch (entry->kind) {
      case NameKind::Local: return SymbolRef{SymbolScope::Local, entry->index};
      case NameKind::Parameter: return SymbolRef{SymbolScope::Parameter, entry->index};
      case NameKind::ReturnValue: return SymbolRef{SymbolScope::ReturnValue, entry->index};
      case NameKind::Register:
      case NameKind::Prototype:
      case NameKind::Label:
      case NameKind::BranchTable: return std::nullopt;
    }
  }
  const Module& m = context_.module();
  auto it = m.symbolIndex.find(name);
  if (it == m.symbolIndex.end()) return std::nullopt;
  return SymbolRef{SymbolScope::Module, it->second};
}

bool FunctionLowerer::lowerOperands(P::InstructionStatementContext* statement, Instruction& inst) {
  // Children are [guard] opcode [operand (',' operand)*] ';'; operands sit
  // at the odd offsets after the opcode.
  std::vector<P::OperandContext*>& operands = operandScratch_;
  operands.clear();
  size_t first = statement->getStart()->getType() == P::AT ? 2 : 1;
  for (size_t k = first; k + 1 < statement->children.size(); k += 2) {
    operands.push_back(static_cast<P::OperandContext*>(statement->children[k]));
  }
  if (inst.opcode == Opcode::Call) return lowerCallOperands(operands, inst);
  const Signature& sig = signatureOf(*inst.spec);
  if (operands.size() < sig.minOperands || (!sig.variadic && operands.size() > sig.tokens.size())) {
    return fail(inst.where, "'" + std::string(inst.spec->mnemonic) + "' expects " + operandsWanted(sig) +
                                ", got " + std::to_string(operands.size()));
  }
  Function& fn = function();
  inst.firstOperand = static_cast<uint32_t>(fn.operands.size());
  inst.operandCount = static_cast<uint8_t>(operands.size());
  fn.operands.resize(fn.operands.size() + operands.size());
  static const SignatureToken kAny{};
  bool ok = true;
  for (size_t i = 0; i < operands.size(); ++i) {
    const SignatureToken& token = i < sig.tokens.size() ? sig.tokens[i] : kAny;
    Operand op;
    auto slot = static_cast<uint32_t>(inst.firstOperand + i);
    if (!lowerOperand(operands[i], token.role, slot, op)) {
      ok = false;
      continue;
    }
    if (!checkOperand(op, token, i, inst, operands[i])) ok = false;
    if (op.select.kind != 0 && !(inst.opcode >= Opcode::Vadd && inst.opcode <= Opcode::Vset4)) {
      ok = fail(locationOf(operands[i]), "only video instructions take a part selector (.b0, .h1, ...)");
    }
    if (op.minus && inst.opcode != Opcode::Vmad) {
      ok = fail(locationOf(operands[i]), "only vmad negates a register operand");
    }
    function().operands[slot] = op;
  }
  return ok;
}

bool FunctionLowerer::lowerCallOperands(const std::vector<P::OperandContext*>& operands, Instruction& inst) {
  // Stored as four operands: (returns), callee, (arguments), prototype.
  Function& fn = function();
  inst.firstOperand = static_cast<uint32_t>(fn.operands.size());
  inst.operandCount = 4;
  fn.operands.resize(fn.operands.size() + 4);
  size_t i = 0;
  auto isList = [&](size_t k) { return k < operands.size() && exactly<P::ListOperandContext>(operands[k]); };
  Operand returns{OperandKind::List};
  if (isList(0) && operands.size() > 1 && !isList(1)) {
    if (!lowerOperand(operands[0], OperandRole::Any, inst.firstOperand, returns)) return false;
    i = 1;
  }
  if (i >= operands.size()) return fail(inst.where, "'call' needs a function to call");
  Operand callee;
  auto* calleeCtx = exactly<P::NameOperandContext>(operands[i]);
  if (calleeCtx == nullptr) return fail(locationOf(operands[i]), "'call' needs a function name or register");
  antlr4::Token* name = calleeCtx->value;
  if (auto entry = scopes_.find(grammar::tokenText(name)); entry && entry->kind == NameKind::Register) {
    callee = {OperandKind::Register};
    callee.index = entry->index;
  } else {
    const Function* target = context_.module().findFunction(grammar::tokenText(name));
    if (target == nullptr) return fail(locationOf(name), "undefined function '" + name->getText() + "'");
    callee = {OperandKind::Function};
    callee.index = static_cast<uint32_t>(target - context_.module().functions.data());
  }
  ++i;
  Operand arguments{OperandKind::List};
  if (isList(i)) {
    if (!lowerOperand(operands[i], OperandRole::Any, inst.firstOperand + 2, arguments)) return false;
    ++i;
  }
  Operand prototype;
  if (i < operands.size()) {
    auto* protoCtx = exactly<P::NameOperandContext>(operands[i]);
    if (protoCtx == nullptr || i + 1 != operands.size()) {
      return fail(locationOf(operands[i]), "unexpected operand after the call's arguments");
    }
    std::string protoName = protoCtx->value->getText();
    auto entry = scopes_.find(protoName);
    if (entry && entry->kind == NameKind::Prototype) {
      prototype = {};  // the callee's own signature governs the call
    } else if (entry && entry->kind == NameKind::BranchTable) {
      prototype = {OperandKind::Label};
      prototype.index = entry->index;
    } else if (auto sym = resolveSymbol(protoName)) {
      prototype = {OperandKind::Symbol};
      prototype.scope = sym->scope;
      prototype.index = sym->index;
    } else {
      return fail(locationOf(protoCtx), "undefined prototype '" + protoName + "'");
    }
  } else if (callee.kind == OperandKind::Register) {
    return fail(locationOf(calleeCtx), "an indirect call needs a prototype or a .calltargets list");
  }
  Function& f = function();
  f.operands[inst.firstOperand] = returns;
  f.operands[inst.firstOperand + 1] = callee;
  f.operands[inst.firstOperand + 2] = arguments;
  f.operands[inst.firstOperand + 3] = prototype;
  return true;
}

bool FunctionLowerer::lowerName(antlr4::Token* token, OperandRole role, uint32_t slot, Operand& out) {
  std::string_view name = grammar::tokenText(token);
  SourceLocation where = locationOf(token);
  if (role == OperandRole::Label) {
    out = {OperandKind::Label};
    useLabel(name, {slot, kNone, kNone, where});
    return true;
  }
  if (role == OperandRole::Table) {
    // A target list must come before its brx.idx: ptxas refuses forward
    // references to one ("Label expected for forward reference").
    auto entry = scopes_.find(name);
    if (!entry || entry->kind != NameKind::BranchTable) {
      return fail(where, "undefined branch target list '" + std::string(name) + "'");
    }
    out = {OperandKind::Label};
    out.index = entry->index;
    return true;
  }
  if (name == "_") {
    out = {OperandKind::Sink};
    return true;
  }
  if (auto entry = scopes_.find(name); entry && entry->kind == NameKind::Register) {
    out = {OperandKind::Register};
    out.index = entry->index;
    return true;
  }
  // %v.x: one element of a vector register.
  if (size_t dot = name.find('.'); dot != std::string_view::npos && dot + 2 == name.size()) {
    auto entry = scopes_.find(name.substr(0, dot));
    static constexpr std::string_view kXyzw = "xyzw", kRgba = "rgba";
    size_t element = kXyzw.find(name[dot + 1]);
    if (element == std::string_view::npos) element = kRgba.find(name[dot + 1]);
    if (entry && entry->kind == NameKind::Register && element != std::string_view::npos &&
        element < function().registers[entry->index].vectorWidth) {
      out = {OperandKind::Register};
      out.index = entry->index;
      out.element = static_cast<int8_t>(element);
      return true;
    }
  }
  // %r.b0, %r.h10, %r.b3210: a video instruction's part selector (which
  // instructions take one, and of what shape, is checked with the opcode).
  if (size_t dot = name.rfind('.'); dot != std::string_view::npos && dot + 2 < name.size() &&
                                     name.size() - dot - 2 <= 4 && (name[dot + 1] == 'b' || name[dot + 1] == 'h')) {
    auto entry = scopes_.find(name.substr(0, dot));
    std::string_view digits = name.substr(dot + 2);
    bool allDigits = digits.find_first_not_of("01234567") == std::string_view::npos;
    if (entry && entry->kind == NameKind::Register && allDigits &&
        function().registers[entry->index].vectorWidth == 1) {
      out = {OperandKind::Register};
      out.index = entry->index;
      out.select.kind = name[dot + 1];
      out.select.count = static_cast<uint8_t>(digits.size());
      for (size_t i = 0; i < digits.size(); ++i) {
        out.select.digits[i] = static_cast<uint8_t>(digits[digits.size() - 1 - i] - '0');
      }
      return true;
    }
  }
  if (name[0] == '%' || name == "WARP_SZ") {
    if (auto special = parseSpecialRegister(name)) {
      out = {OperandKind::Special};
      out.index = static_cast<uint32_t>(special->reg);
      out.component = special->component;
      return true;
    }
    return fail(where, "undeclared register '" + std::string(name) + "'");
  }
  if (auto sym = resolveSymbol(name)) {
    const Module& m = context_.module();
    if (sym->scope == SymbolScope::Module && m.symbols[sym->index].kind == SymbolKind::Function) {
      out = {OperandKind::Function};
      out.index = m.symbols[sym->index].index;
      return true;
    }
    out = {OperandKind::Symbol};
    out.scope = sym->scope;
    out.index = sym->index;
    return true;
  }
  if (role == OperandRole::Function) return fail(where, "undefined function '" + std::string(name) + "'");
  return fail(where, "undefined symbol '" + std::string(name) + "'");
}

bool FunctionLowerer::lowerElements(const std::vector<P::OperandContext*>& elements, OperandKind kind,
                                    Operand& out) {
  std::vector<Operand> lowered(elements.size());
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!lowerOperand(elements[i], OperandRole::Any, kNone, lowered[i])) return false;
  }
  Function& fn = function();
  out = {kind};
  out.index = static_cast<uint32_t>(fn.operands.size());
  out.count = static_cast<uint16_t>(elements.size());
  fn.operands.insert(fn.operands.end(), lowered.begin(), lowered.end());
  return true;
}

bool FunctionLowerer::lowerExpression(P::ExprContext* expr, OperandRole role, uint32_t slot, Operand& out) {
  if (auto* primary = exactly<P::PrimaryExprContext>(expr)) {
    auto* p = primary->primary();
    if (p->name() != nullptr && p->expr() == nullptr) return lowerName(p->name()->getStart(), role, slot, out);
  }
  NameResolver resolve = [this](std::string_view n) { return resolveSymbol(n); };
  auto value = evaluate(expr, context_, resolve);
  if (!value) return false;
  if (value->symbol) {
    out = {OperandKind::Symbol};
    out.scope = value->symbol->scope;
    out.index = value->symbol->index;
    out.value = value->integer;
  } else if (value->isFloat) {
    out = {OperandKind::FloatImmediate};
    out.immediateType = value->floatType == DataType::F32 ? DataType::F32 : DataType::F64;
    out.value = static_cast<int64_t>(value->floatType == DataType::None ? std::bit_cast<uint64_t>(value->real)
                                                                          : value->floatBits);
  } else {
    out = {OperandKind::Immediate};
    out.value = value->integer;
  }
  return true;
}

bool FunctionLowerer::lowerOperand(P::OperandContext* ctx, OperandRole role, uint32_t slot, Operand& out) {
  if (auto* n = exactly<P::NameOperandContext>(ctx)) {
    if (!lowerName(n->value, role, slot, out)) return false;
    if (n->children.size() == 3) {  // name '|' predicate
      antlr4::Token* second = n->getStop();
      auto entry = scopes_.find(grammar::tokenText(second));
      if (!entry || entry->kind != NameKind::Register) {
        return fail(locationOf(second), "undeclared register '" + second->getText() + "'");
      }
      out.secondIndex = entry->index;
    }
    return true;
  }
  if (auto* lit = exactly<P::LiteralOperandContext>(ctx)) {
    bool negative = lit->getStart()->getType() == P::MINUS;
    antlr4::Token* literal = lit->getStop();
    std::string_view text = grammar::tokenText(literal);
    if (literal->getType() == P::INT) {
      auto value = parseIntegerLiteral(text);
      if (!value) return fail(locationOf(lit), "integer literal '" + std::string(text) + "' is out of range");
      out = {OperandKind::Immediate};
      out.value = static_cast<int64_t>(negative ? 0 - *value : *value);
      return true;
    }
    out = {OperandKind::FloatImmediate};
    if (literal->getType() == P::HEX_FLOAT) {
      ConstantValue v = parseHexFloat(text);
      out.immediateType = v.floatType;
      uint64_t sign = v.floatType == DataType::F32 ? 0x80000000ull : 0x8000000000000000ull;
      out.value = static_cast<int64_t>(negative ? v.floatBits ^ sign : v.floatBits);
    } else {
      double real = std::strtod(std::string(text).c_str(), nullptr);
      out.immediateType = DataType::F64;
      out.value = static_cast<int64_t>(std::bit_cast<uint64_t>(negative ? -real : real));
    }
    return true;
  }
  if (auto* a = exactly<P::SimpleAddressOperandContext>(ctx)) {
    // '[' name ((+|-) -? INT)? ']': every child is a terminal.
    const auto& kids = a->children;
    antlr4::Token* base = terminalToken(kids[1]);
    Operand b;
    if (!lowerName(base, OperandRole::Any, slot, b)) return false;
    out = {OperandKind::Address};
    if (b.kind == OperandKind::Register) {
      out.scope = SymbolScope::Register;
    } else if (b.kind == OperandKind::Symbol) {
      out.scope = b.scope;
    } else if (b.kind == OperandKind::Function) {
      return fail(locationOf(base), "a function is not an address");
    } else {
      return fail(locationOf(base), "'" + base->getText() + "' cannot be an address");
    }
    out.index = b.index;
    if (kids.size() > 3) {
      antlr4::Token* number = terminalToken(kids[kids.size() - 2]);
      auto value = parseIntegerLiteral(grammar::tokenText(number));
      if (!value) return fail(locationOf(number), "offset out of range");
      size_t minuses = 0;  // [r+4] [r-4] [r+-4] [r--4]
      for (size_t k = 2; k + 2 < kids.size(); ++k) minuses += terminalToken(kids[k])->getType() == P::MINUS;
      out.value = static_cast<int64_t>(minuses % 2 == 1 ? 0 - *value : *value);
    }
    return true;
  }
  if (auto* v = exactly<P::VectorOperandContext>(ctx)) return lowerElements(v->operand(), OperandKind::Vector, out);
  if (auto* l = exactly<P::ListOperandContext>(ctx)) return lowerElements(l->operand(), OperandKind::List, out);
  if (auto* a = exactly<P::AddressOperandContext>(ctx)) {
    auto inner = a->operand();
    if (inner.size() > 1) return lowerElements(inner, OperandKind::AddressTuple, out);
    auto* e = exactly<P::ExprOperandContext>(inner[0]);
    if (e == nullptr || e->PIPE() != nullptr) return fail(locationOf(inner[0]), "malformed address");
    // [%rd1+(4*2)]: a register plus a constant expression.
    if (auto* sum = exactly<P::AddExprContext>(e->expr())) {
      auto* base = exactly<P::PrimaryExprContext>(sum->expr(0));
      auto entry = base && base->primary()->name() && !base->primary()->expr()
                       ? scopes_.find(grammar::tokenText(base->primary()->name()->getStart()))
                       : std::nullopt;
      if (entry && entry->kind == NameKind::Register) {
        NameResolver resolve = [this](std::string_view n) { return resolveSymbol(n); };
        auto offset = evaluate(sum->expr(1), context_, resolve);
        if (!offset) return false;
        if (offset->isFloat || offset->symbol) return fail(locationOf(sum->expr(1)), "address offset must be an integer");
        out = {OperandKind::Address};
        out.scope = SymbolScope::Register;
        out.index = entry->index;
        out.value = sum->MINUS() ? -offset->integer : offset->integer;
        return true;
      }
    }
    Operand value;
    if (!lowerExpression(e->expr(), OperandRole::Any, slot, value)) return false;
    out = {OperandKind::Address};
    out.value = value.value;
    out.index = value.index;
    if (value.kind == OperandKind::Symbol) {
      out.scope = value.scope;
    } else if (value.kind == OperandKind::Immediate) {
      out.scope = SymbolScope::Absolute;
      out.index = kNone;
    } else if (value.kind == OperandKind::Register) {
      out.scope = SymbolScope::Register;
      out.value = 0;
    } else {
      return fail(locationOf(inner[0]), "malformed address");
    }
    return true;
  }
  if (auto* n = exactly<P::NotOperandContext>(ctx)) {
    antlr4::Token* name = n->name()->getStart();
    auto entry = scopes_.find(grammar::tokenText(name));
    if (!entry || entry->kind != NameKind::Register) {
      return fail(locationOf(name), "undeclared register '" + name->getText() + "'");
    }
    out = {OperandKind::Register};
    out.index = entry->index;
    out.negated = true;
    return true;
  }
  auto* e = static_cast<P::ExprOperandContext*>(ctx);
  // -%r (vmad's negated sources): a register, not a constant expression.
  if (auto* unary = exactly<P::UnaryExprContext>(e->expr()); unary != nullptr && unary->MINUS() != nullptr) {
    auto* primary = exactly<P::PrimaryExprContext>(unary->expr());
    auto* p = primary != nullptr ? primary->primary() : nullptr;
    if (p != nullptr && p->name() != nullptr && p->expr() == nullptr && e->PIPE() == nullptr) {
      antlr4::Token* token = p->name()->getStart();
      std::string_view text = grammar::tokenText(token);
      auto entry = scopes_.find(text.substr(0, text.find('.')));
      if (entry && entry->kind == NameKind::Register) {
        if (!lowerName(token, role, slot, out)) return false;
        out.minus = true;
        return true;
      }
    }
  }
  if (!lowerExpression(e->expr(), role, slot, out)) return false;
  if (e->PIPE() != nullptr) {
    antlr4::Token* second = e->name()->getStart();
    auto entry = scopes_.find(grammar::tokenText(second));
    if (!entry || entry->kind != NameKind::Register) {
      return fail(locationOf(second), "undeclared register '" + second->getText() + "'");
    }
    out.secondIndex = entry->index;
  }
  return true;
}

bool FunctionLowerer::checkRegisterType(uint32_t reg, DataType expected, bool allowWider, SourceLocation where) {
  if (expected == DataType::None) return true;
  const RegisterInfo& info = function().registers[reg];
  if (registerTypeCompatible(info.type, expected, allowWider)) return true;
  return fail(where, "type mismatch: '" + function().registerName(reg) + "' is " + std::string(typeName(info.type)) + " but '" +
                         std::string(opcodeText_) + "' expects " + std::string(typeName(expected)) + " here");
}

bool FunctionLowerer::checkOperand(const Operand& op, const SignatureToken& token, size_t position,
                                   const Instruction& inst, antlr4::ParserRuleContext* where) {
  SourceLocation at = locationOf(where);
  std::string mnemonic(inst.spec->mnemonic);
  const Function& fn = function();
  auto isPredicate = [&](const Operand& o) {
    return o.kind == OperandKind::Register && fn.registers[o.index].type == DataType::Pred;
  };
  if (op.secondIndex != kNone && fn.registers[op.secondIndex].type != DataType::Pred) {
    return fail(at, "type mismatch: the second output of '" + mnemonic + "' must be a .pred register");
  }
  switch (token.role) {
    case OperandRole::Any: return true;
    case OperandRole::Label:
    case OperandRole::Table:
      if (op.kind != OperandKind::Label) return fail(at, "'" + mnemonic + "' expects a label here");
      return true;
    case OperandRole::Function:
      if (op.kind != OperandKind::Function && op.kind != OperandKind::Register) {
        return fail(at, "'" + mnemonic + "' expects a function here");
      }
      return true;
    case OperandRole::Address:
      if (op.kind != OperandKind::Address) return fail(at, "'" + mnemonic + "' expects an address [...] here");
      return true;
    case OperandRole::PredicateDestination:
      if (op.kind == OperandKind::Sink || isPredicate(op)) return true;
      if (op.kind == OperandKind::Register) {
        return fail(at, "type mismatch: '" + fn.registerName(op.index) + "' is not a .pred register");
      }
      return fail(at, "'" + mnemonic + "' expects a predicate register here");
    case OperandRole::PredicateSource:
      if (isPredicate(op) || op.kind == OperandKind::Immediate) return true;
      if (op.kind == OperandKind::Register) {
        return fail(at, "type mismatch: '" + fn.registerName(op.index) + "' is not a .pred register");
      }
      return fail(at, "'" + mnemonic + "' expects a predicate here");
    default: break;
  }
  // Typed register operands: d, s, r and fixed types.
  DataType expected = token.fixedType;
  if (expected == DataType::None && token.slot < inst.typeCount) expected = inst.types[token.slot];
  bool destination = token.role == OperandRole::Destination;
  // mul.wide and mad.wide write (and mad.wide adds) twice the type's width.
  bool wideOperand = destination || (position == 3 && (inst.opcode == Opcode::Mad || inst.opcode == Opcode::Madc));
  if (inst.modifiers.get(ModGroup::MulMode) == Mod::Wide && token.fixedType == DataType::None && wideOperand) {
    expected = widened(expected);
  }
  bool wider = allowsWiderRegisters(inst.opcode);
  Mod vector = inst.modifiers.get(ModGroup::Vector);
  if (op.kind == OperandKind::Vector) {
    unsigned width = vector == Mod::V2 ? 2 : vector == Mod::V4 ? 4 : vector == Mod::V8 ? 8 : 0;
    if (token.vector && width != 0 && op.count != width) {
      return fail(at, "'" + std::string(opcodeText_) + "' expects a vector of " + std::to_string(width) + " elements");
    }
    // Without .vN, a vector packs or unpacks (mov.b64 {%r1,%r2}, %rd1):
    // the elements share the type's bits, so only their registers are checked.
    bool packing = !(token.vector && width != 0);
    for (uint16_t e = 0; e < op.count; ++e) {
      const Operand& element = fn.operands[op.index + e];
      if (element.kind == OperandKind::Register && !packing &&
          !checkRegisterType(element.index, expected, wider, at)) {
        return false;
      }
      if (destination && element.kind != OperandKind::Register && element.kind != OperandKind::Sink) {
        return fail(at, "'" + mnemonic + "' cannot write to a constant");
      }
    }
    return true;
  }
  if (token.vector && vector != Mod::None) {
    unsigned width = vector == Mod::V2 ? 2 : vector == Mod::V4 ? 4 : 8;
    bool vectorRegister = op.kind == OperandKind::Register && fn.registers[op.index].vectorWidth == width;
    if (!vectorRegister) return fail(at, "'" + std::string(opcodeText_) + "' expects a {vector} operand here");
    return checkRegisterType(op.index, expected, wider, at);
  }
  switch (op.kind) {
    case OperandKind::Register: return checkRegisterType(op.index, expected, wider, at);
    case OperandKind::Sink:
      if (!destination) return fail(at, "the sink '_' can only be written");
      return true;
    case OperandKind::Immediate:
    case OperandKind::FloatImmediate:
    case OperandKind::Special:
    case OperandKind::Symbol:
    case OperandKind::Function:
      if (destination) return fail(at, "'" + mnemonic + "' needs a register as destination");
      if (token.role == OperandRole::RegisterSource && op.kind != OperandKind::Special) {
        return fail(at, "'" + mnemonic + "' needs a register here");
      }
      return true;
    case OperandKind::Address:
      return fail(at, "'" + mnemonic + "' does not take an address here");
    default:
      return fail(at, "unexpected operand for '" + mnemonic + "'");
  }
}

}  // namespace ptxsim::isa::lowering
