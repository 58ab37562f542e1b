#pragma once

// Cheap access to parse-tree nodes on lowering's hot path. The generated
// accessors (ctx->operand(), ctx->IDENT()) build vectors with a
// dynamic_cast per child, and libstdc++'s dynamic_cast compares type names
// with strcmp; on a large module that cost more than parsing. Labelled
// alternatives are leaf classes, so an exact type test by type_info address
// is enough (every class here is compiled into this one binary).

#include "ptxsim/grammar/antlr_runtime.h"

#include <type_traits>
#include <typeinfo>

namespace ptxsim::isa::lowering {

template <typename T>
T* exactly(antlr4::tree::ParseTree* node) {
  static_assert(std::is_base_of_v<antlr4::ParserRuleContext, T>, "only rule contexts");
  return node != nullptr && &typeid(*node) == &typeid(T) ? static_cast<T*>(node) : nullptr;
}

// The token of a child known to be a terminal.
inline antlr4::Token* terminalToken(antlr4::tree::ParseTree* node) {
  return static_cast<antlr4::tree::TerminalNode*>(node)->getSymbol();
}

}  // namespace ptxsim::isa::lowering
