// ld, st and ldu: vector widths, memory order and scope, .mmio, the cache
// operators and the eviction and prefetch hints (ptxas 13.0, sm_90). The
// PTX ISA's "ld"/"st" sections give the shape (ld has no release, st no
// acquire; a scope goes with .relaxed/.acquire/.release and not with
// .weak/.volatile; hints are for global memory); ptxas's recorded verdicts
// give the order and the messages (h100/memory_ptxas_rejected.txt).

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

uint32_t vectorLength(Mod vector) {
  switch (vector) {
    case Mod::V2: return 2;
    case Mod::V4: return 4;
    case Mod::V8: return 8;
    default: return 1;
  }
}

// A vector of ld/st moves at most 128 bits on sm_90 (256 from sm_100);
// ldu stays at 128 bits and four elements.
std::string vectorRefusal(const FormToCheck& form, bool ldu) {
  const Mod vector = form.get(ModGroup::Vector);
  if (vector == Mod::None) return {};
  if (ldu && vector == Mod::V8) return "Illegal vector size: 8";
  const uint32_t elementBits = typeBits(form.type(0));
  const uint32_t bits = elementBits * vectorLength(vector);
  if (elementBits == 128 || bits > 256 || (ldu && bits > 128)) return "Vector type too large, exceeds 128 bit limit";
  if (bits == 256 && form.targetSm < 100) return "Feature '256 bit wide load/store' requires .target sm_100 or higher";
  return {};
}

// .mmio is a relaxed, system-scoped access to global memory; the other
// orders need a scope exactly when they are not .weak/.volatile.
std::string orderRefusal(const FormToCheck& form, std::string_view name, bool load) {
  const Mod order = form.get(ModGroup::Semantics);
  const Mod scope = form.get(ModGroup::Scope);
  const Mod space = form.get(ModGroup::Space);
  if (order == Mod::Sc || order == Mod::AcqRel || order == (load ? Mod::Release : Mod::Acquire)) {
    return illegalModifier(order, name);
  }
  if (form.has(Mod::Mmio)) {
    if (space != Mod::None && space != Mod::Global) {
      return "Modifier '.mmio' cannot be applied to '" + dotted(space) + "' space";
    }
    if (order != Mod::Relaxed) return "Modifier '.mmio' requires modifier '.relaxed' for instruction '" + std::string(name) + "'";
    if (scope == Mod::None) return "Modifier '.mmio' requires scope with '" + std::string(name) + "' instruction";
    if (scope != Mod::Sys) return cannotCombine(Mod::Mmio, scope);
  }
  const bool unordered = order == Mod::Weak || order == Mod::Volatile;
  if (unordered && scope != Mod::None) return cannotCombine(order, scope);
  if (!unordered && order != Mod::None && scope == Mod::None) {
    return "Modifier '" + dotted(order) + "' requires scope with '" + std::string(name) + "' instruction";
  }
  return {};
}

// Cache operators: ld has no write policies (.wb .wt), st no read ones
// (.ca .cv .lu) and no .nc; the hints are for global memory.
std::string cacheRefusal(const FormToCheck& form, std::string_view name, bool load) {
  const Mod op = form.get(ModGroup::CacheOp);
  const Mod space = form.get(ModGroup::Space);
  const bool notGlobal = space != Mod::None && space != Mod::Global;
  if (load ? (op == Mod::Wb || op == Mod::Wt) : (op == Mod::Ca || op == Mod::Cv || op == Mod::Lu)) {
    return illegalModifier(op, name);
  }
  if (form.has(Mod::Nc)) {
    if (!load) return illegalModifier(Mod::Nc, name);
    if (space != Mod::Global) return "Modifier '.nc' requires .global space";
  }
  const Mod l1 = form.get(ModGroup::L1Eviction);
  if (l1 != Mod::None && notGlobal) {
    // ptxas names the L1 hint without its "L1::".
    const std::string word(modifierText(l1).substr(4));
    return "Modifier '." + word + "' cannot be applied to '" + dotted(space) + "' space for instruction '" +
           std::string(name) + "'";
  }
  const Mod l2 = form.get(ModGroup::L2Eviction);
  if (l2 != Mod::None) {
    const uint32_t bits = typeBits(form.type(0)), length = vectorLength(form.get(ModGroup::Vector));
    if (!((bits == 32 && length == 8) || (bits == 64 && length == 4))) {
      return "Instruction '" + std::string(name) + "' requires '.v8.b32/.v4.b64' type with '" + dotted(l2) +
             "' modifier.";
    }
  }
  const Mod prefetch = form.get(ModGroup::L2Prefetch);
  if (prefetch != Mod::None) {
    if (!load) return illegalModifier(prefetch, name);
    if (notGlobal) return "State space incorrect for feature 'cache prefetching'";
  }
  return {};
}

}  // namespace

std::string memoryRefusal(const FormToCheck& form) {
  const Opcode op = form.spec.opcode;
  if (op != Opcode::Ld && op != Opcode::St && op != Opcode::Ldu) return {};
  const std::string_view name = form.spec.mnemonic;
  const bool load = op != Opcode::St;
  if (std::string why = vectorRefusal(form, op == Opcode::Ldu); !why.empty()) return why;
  if (op == Opcode::Ldu) return {};
  if (std::string why = orderRefusal(form, name, load); !why.empty()) return why;
  return cacheRefusal(form, name, load);
}

std::string typeRefusal(Opcode opcode, unsigned typeCount) {
  // ld, st and ldu move .b/.u/.s 8 to 64 bits, .b128, .f32 and .f64; ptxas
  // says this of every other type (.pred, .b1, .f16, the pairs, tried each).
  const bool memory = opcode == Opcode::Ld || opcode == Opcode::St || opcode == Opcode::Ldu;
  if (!memory || typeCount != 1) return {};
  return unexpectedTypes(mnemonicOf(opcode));
}

}  // namespace ptxsim::isa::strict
