#include "declarations.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace ptxsim::isa::lowering {

using P = gen::PtxParser;

namespace {

StateSpace spaceOfToken(size_t tokenType) {
  switch (tokenType) {
    case P::REG: return StateSpace::Reg;
    case P::SREG: return StateSpace::Sreg;
    case P::PARAM: return StateSpace::Param;
    case P::LOCAL: return StateSpace::Local;
    case P::SHARED: return StateSpace::Shared;
    case P::GLOBAL: return StateSpace::Global;
    case P::CONST: return StateSpace::Const;
    case P::TEX: return StateSpace::Tex;
    default: return StateSpace::Generic;
  }
}

uint32_t smallInteger(antlr4::tree::TerminalNode* node, LoweringContext& context) {
  auto value = parseIntegerLiteral(node->getText());
  if (!value || *value > (uint64_t{1} << 31)) {
    context.error(locationOf(node), "value '" + node->getText() + "' is out of range");
    return 0;
  }
  return static_cast<uint32_t>(*value);
}

// Writes scalar initializer elements into a variable's bytes.
class InitializerWriter {
 public:
  // An unsized array (`x[] = {...}`) takes as many elements as it is given.
  InitializerWriter(Variable& var, bool unsized, LoweringContext& context, const NameResolver& resolve)
      : var_(var), context_(context), resolve_(resolve), elementBytes_(typeBytes(var.type)), unsized_(unsized) {}

  bool write(P::InitializerContext* init) {
    if (!init->EQUALS().empty()) {
      // { addr_mode_0 = clamp_to_edge, ... } of a .samplerref / .texref.
      for (size_t k = 1; k + 1 < init->children.size(); ++k) {
        if (init->children[k]->getText() != "=") continue;
        var_.opaqueFields.emplace_back(init->children[k - 1]->getText(), init->children[k + 1]->getText());
      }
      return true;
    }
    if (init->LBRACE()) {
      for (auto* element : init->initializer()) {
        if (!write(element)) return false;
      }
      return true;
    }
    if (init->GENERIC()) {
      auto addend = genericAddend(init);
      return addend && writeAddress(init, init->expr(0), /*generic=*/true, 0, 0, *addend);
    }
    if (init->getStart()->getType() == P::INT && init->LPAREN() != nullptr) {
      // 0xff00(sym): one byte of a symbol's address, selected by the mask.
      auto mask = parseIntegerLiteral(init->getStart()->getText()).value_or(0);
      if (mask == 0 || std::popcount(mask) != 8 || std::countr_zero(mask) % 8 != 0) {
        return fail(init, "address mask must select one byte");
      }
      auto* inner = init->initializer(0);
      bool generic = inner->GENERIC() != nullptr;
      auto addend = generic ? genericAddend(inner) : std::optional<int64_t>(0);
      return addend && writeAddress(init, inner->expr(0), generic, static_cast<uint8_t>(std::countr_zero(mask)), 1,
                                    *addend);
    }
    if (init->MASK()) return fail(init, "mask() initializers are not supported");
    auto value = evaluate(init->expr(0), context_, resolve_);
    if (!value) return false;
    if (value->symbol) return writeAddress(init, init->expr(0), false, 0, 0, 0);
    return writeConstant(init, *value);
  }

  uint64_t elementsWritten() const { return next_; }

 private:
  // The `+ 8` of `generic(var) + 8`.
  std::optional<int64_t> genericAddend(P::InitializerContext* init) {
    if (init->expr().size() < 2) return 0;
    auto offset = evaluate(init->expr(1), context_, resolve_);
    if (!offset || offset->isFloat || offset->symbol) {
      fail(init, "generic(...) offset must be an integer");
      return std::nullopt;
    }
    return init->MINUS() ? -offset->integer : offset->integer;
  }

  uint8_t* slot(antlr4::ParserRuleContext* where) {
    uint64_t capacity = var_.elementCount * var_.vectorWidth;
    if (!unsized_ && next_ >= capacity) {
      fail(where, "too many initializers for '" + var_.name + "'");
      return nullptr;
    }
    uint64_t offset = next_ * elementBytes_;
    if (var_.initializer.size() < offset + elementBytes_) {
      var_.initializer.resize(offset + elementBytes_, 0);
    }
    ++next_;
    return var_.initializer.data() + offset;
  }

  bool writeConstant(antlr4::ParserRuleContext* where, const ConstantValue& v) {
    uint8_t* out = slot(where);
    if (out == nullptr) return false;
    TypeKind kind = typeKind(var_.type);
    if (kind == TypeKind::Float) {
      if (var_.type == DataType::F32) {
        uint32_t bits = v.isFloat && v.floatType == DataType::F32
                            ? static_cast<uint32_t>(v.floatBits)
                            : std::bit_cast<uint32_t>(static_cast<float>(v.isFloat ? v.real : static_cast<double>(v.integer)));
        std::memcpy(out, &bits, 4);
      } else if (var_.type == DataType::F64) {
        uint64_t bits = v.isFloat && v.floatType == DataType::F64
                            ? v.floatBits
                            : std::bit_cast<uint64_t>(v.isFloat ? v.real : static_cast<double>(v.integer));
        std::memcpy(out, &bits, 8);
      } else if (v.isFloat && v.floatType == DataType::None) {
        return fail(where, "decimal initializers for " + std::string(typeName(var_.type)) +
                               " are not supported; use a hex bit pattern");
      } else {
        uint64_t bits = v.isFloat ? v.floatBits : static_cast<uint64_t>(v.integer);
        std::memcpy(out, &bits, elementBytes_);
      }
      return true;
    }
    if (v.isFloat) {
      if (v.floatType == DataType::None) return fail(where, "floating-point initializer for an integer variable");
      std::memcpy(out, &v.floatBits, std::min<size_t>(elementBytes_, 8));
      return true;
    }
    auto bits = static_cast<uint64_t>(v.integer);
    std::memcpy(out, &bits, std::min<size_t>(elementBytes_, 8));  // little-endian truncation
    return true;
  }

  bool writeAddress(antlr4::ParserRuleContext* where, P::ExprContext* expr, bool generic,
                    uint8_t shift, uint8_t size, int64_t extraAddend) {
    auto value = evaluate(expr, context_, resolve_);
    if (!value) return false;
    if (!value->symbol || value->symbol->scope != SymbolScope::Module) {
      return fail(where, "initializer must be the address of a module-scope variable or function");
    }
    uint8_t width = size != 0 ? size : static_cast<uint8_t>(elementBytes_);
    if (width != 4 && width != 8 && size == 0) {
      return fail(where, "an address initializer needs a 32- or 64-bit element type");
    }
    uint64_t offset = next_ * elementBytes_;
    if (slot(where) == nullptr) return false;
    var_.relocations.push_back({offset, value->symbol->index, value->integer + extraAddend, generic, width, shift});
    return true;
  }

  bool fail(antlr4::ParserRuleContext* where, std::string message) {
    context_.error(locationOf(where), std::move(message));
    return false;
  }

 private:
  Variable& var_;
  LoweringContext& context_;
  const NameResolver& resolve_;
  uint64_t elementBytes_;
  bool unsized_;
  uint64_t next_ = 0;
};

}  // namespace

DeclaredType lowerDeclaredType(P::StateSpaceContext* space, const std::vector<P::DeclModifierContext*>& modifiers,
                               LoweringContext& context) {
  DeclaredType t;
  t.space = spaceOfToken(space->getStart()->getType());
  bool afterPtr = false;
  for (auto* m : modifiers) {
    antlr4::Token* first = m->getStart();
    switch (first->getType()) {
      case P::ALIGN: {
        uint32_t align = smallInteger(m->INT(), context);
        if (align == 0 || !std::has_single_bit(align)) {
          context.error(locationOf(m), "alignment must be a power of two");
        }
        (afterPtr ? t.pointeeAlignment : t.alignment) = align;
        break;
      }
      case P::TYPE: {
        if (t.type != DataType::None) context.error(locationOf(m), "more than one type in a declaration");
        t.type = parseType(first->getText()).value_or(DataType::None);
        break;
      }
      case P::VECTOR: t.vectorWidth = static_cast<uint8_t>(first->getText()[2] - '0'); break;
      case P::PTR: afterPtr = true; break;
      case P::ATTRIBUTE:
        if (m->DOT_NAME()->getText() == ".managed") {
          t.managed = true;
        } else {
          context.error(locationOf(m->DOT_NAME()), "unknown attribute '" + m->DOT_NAME()->getText() + "'");
        }
        break;
      default:
        if (afterPtr) {
          t.pointeeSpace = spaceOfToken(first->getType());
        } else {
          context.error(locationOf(m), "unexpected state space '" + first->getText() + "'");
        }
        break;
    }
  }
  if (t.type == DataType::None) context.error(locationOf(space), "declaration without a type");
  return t;
}

uint32_t parameterizedCount(P::DeclaratorContext* declarator) {
  if (declarator->LT() == nullptr) return 0;
  return static_cast<uint32_t>(parseIntegerLiteral(declarator->INT()->getText()).value_or(0));
}

bool lowerVariable(const DeclaredType& type, P::DeclaratorContext* declarator, LoweringContext& context,
                   const NameResolver& resolve, Variable& out) {
  out.name = declarator->IDENT()->getText();
  out.where = locationOf(declarator);
  out.space = type.space;
  out.type = type.type;
  out.vectorWidth = type.vectorWidth;
  out.isManaged = type.managed;
  uint32_t natural = typeBytes(type.type) * type.vectorWidth;
  out.alignment = type.alignment != 0 ? type.alignment : std::max<uint32_t>(natural, 1);
  out.elementCount = 1;
  bool unsized = false;
  for (auto* dim : declarator->arrayDimension()) {
    if (dim->expr() == nullptr) {
      unsized = true;
      continue;
    }
    auto value = evaluate(dim->expr(), context, resolve);
    if (!value) return false;
    if (value->isFloat || value->symbol || value->integer <= 0 || value->integer > (int64_t{1} << 40)) {
      context.error(locationOf(dim), "array size must be a positive integer constant");
      return false;
    }
    out.elementCount *= static_cast<uint64_t>(value->integer);
    if (out.elementCount > (uint64_t{1} << 40)) {
      context.error(locationOf(dim), "array is too large");
      return false;
    }
  }
  if (auto* init = declarator->initializer()) {
    out.hasInitializer = true;
    InitializerWriter writer(out, unsized, context, resolve);
    if (!writer.write(init)) return false;
    if (unsized) {
      uint64_t scalars = std::max<uint64_t>(writer.elementsWritten(), 1);
      out.elementCount = (scalars + type.vectorWidth - 1) / type.vectorWidth;
    }
  } else if (unsized && type.space != StateSpace::Shared && type.space != StateSpace::Global &&
             type.space != StateSpace::Const && type.space != StateSpace::Param) {
    context.error(locationOf(declarator), "array '" + out.name + "' has no size");
    return false;
  } else if (unsized) {
    out.elementCount = 0;  // extern shared / dynamically sized
  }
  out.size = out.elementCount * natural;
  if (out.hasInitializer) out.initializer.resize(out.size, 0);
  return true;
}

Parameter lowerParameter(P::ParamDeclContext* param, LoweringContext& context) {
  DeclaredType type = lowerDeclaredType(param->stateSpace(), param->declModifier(), context);
  Parameter p;
  auto* declarator = param->declarator();
  p.name = declarator->IDENT()->getText();
  p.space = type.space;
  p.type = type.type;
  p.vectorWidth = type.vectorWidth;
  p.pointeeSpace = type.pointeeSpace;
  p.pointeeAlignment = type.pointeeAlignment;
  uint64_t count = 1;
  NameResolver noNames = [](std::string_view) { return std::nullopt; };
  for (auto* dim : declarator->arrayDimension()) {
    if (dim->expr() == nullptr) {
      context.error(locationOf(dim), "parameter array needs a size");
      continue;
    }
    auto value = evaluate(dim->expr(), context, noNames);
    if (value && !value->isFloat && !value->symbol && value->integer > 0 && value->integer < (1 << 24)) {
      count *= static_cast<uint64_t>(value->integer);
    } else if (value) {
      context.error(locationOf(dim), "parameter array size must be a positive integer constant");
    }
  }
  uint32_t natural = typeBytes(type.type) * type.vectorWidth;
  p.size = count * natural;
  p.alignment = type.alignment != 0 ? type.alignment : std::max<uint32_t>(natural, 1);
  if (type.space != StateSpace::Param && type.space != StateSpace::Reg) {
    context.error(locationOf(param), "parameters must be in .param or .reg space");
  }
  return p;
}

uint64_t layOutParameters(std::vector<Parameter>& params) {
  uint64_t offset = 0;
  for (auto& p : params) {
    offset = (offset + p.alignment - 1) / p.alignment * p.alignment;
    p.offset = offset;
    offset += p.size;
  }
  return offset;
}

}  // namespace ptxsim::isa::lowering
