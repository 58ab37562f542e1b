#include "ptxsim/isa/contraction.h"

#include <algorithm>
#include <optional>

#include "ptxsim/isa/operand_access.h"

namespace ptxsim::isa {

namespace {

bool isContractibleType(DataType t) {
  switch (t) {
    case DataType::F32:
    case DataType::F64:
    case DataType::F16:
    case DataType::F16x2:
    case DataType::BF16:
    case DataType::BF16x2: return true;
    default: return false;
  }
}

// add/sub/mul of a float type with no rounding modifier: the forms the ISA
// lets the code generator contract.
bool isUnrounded(const Instruction& inst, Opcode opcode) {
  return inst.opcode == opcode && inst.typeCount == 1 && isContractibleType(inst.types[0]) &&
         !inst.modifiers.hasGroup(ModGroup::Rounding);
}

bool isUnroundedSum(const Instruction& inst) {
  return isUnrounded(inst, Opcode::Add) || isUnrounded(inst, Opcode::Sub);
}

// Calls f(register) for each register an operand names: vector and list
// elements, and an address's base register, included.
template <typename F>
void forEachRegister(const Function& fn, const Operand& op, F&& f) {
  switch (op.kind) {
    case OperandKind::Register:
      f(op.index);
      if (op.secondIndex != kNone) f(op.secondIndex);
      break;
    case OperandKind::Address:
      if (op.scope == SymbolScope::Register) f(op.index);
      break;
    case OperandKind::Vector:
    case OperandKind::AddressTuple:
    case OperandKind::List:
      for (uint32_t e = 0; e < op.count; ++e) forEachRegister(fn, fn.operands[op.index + e], f);
      break;
    default: break;
  }
}

// A whole register as a plain source or destination (not a vector
// element), the only kind the fused form can name.
std::optional<uint32_t> plainRegister(const Operand& op) {
  if (op.kind != OperandKind::Register || op.element >= 0 || op.secondIndex != kNone) return std::nullopt;
  return op.index;
}

// The product a sum reads, followed back through copies: the mul, and
// whether a neg on the way flips its sign.
struct Product {
  uint32_t mul = kNone;
  bool negated = false;
};

// The measured rule (ptxas 13.0, sm_90; tests/gpu_truth/fma_contraction):
// - an unrounded add or sub fuses with an unrounded mul of the same type and
//   flush mode (the mul without .sat; the add may have it) that feeds one
//   of its sources, in the same basic block: a product computed in another
//   block is never fused;
// - only if every reader of the product is such a sum, in that block, that
//   reads it once (the product then goes into each of them; a product also
//   stored, compared, added to itself or read in another block stays a mul
//   and no sum fuses it);
// - `mov` and `neg` between the mul and the sum are looked through (a neg
//   negates the product), but for bf16x2, where ptxas keeps the neg;
// - when both sources are such products, the first is fused.
class Contractor {
 public:
  explicit Contractor(Function& fn) : fn_(fn), writers_(fn.registers.size()), readers_(fn.registers.size()) {
    for (uint32_t i = 0; i < fn.instructions.size(); ++i) {
      const Instruction& inst = fn.instructions[i];
      if (inst.guard.reg != kNone && inst.guard.reg < readers_.size()) readers_[inst.guard.reg].push_back(i);
      for (unsigned k = 0; k < inst.operandCount; ++k) {
        OperandAccess access = operandAccess(inst, k);
        if (access == OperandAccess::None) continue;
        auto& lists = access == OperandAccess::Write ? writers_ : readers_;
        forEachRegister(fn, fn.operands[inst.firstOperand + k], [&](uint32_t reg) {
          if (reg < lists.size() && (lists[reg].empty() || lists[reg].back() != i)) lists[reg].push_back(i);
        });
      }
    }
  }

  // Decides every sum on the function as written, then rewrites them: a
  // product that feeds two sums is fused into both.
  uint32_t run() {
    struct Decision {
      uint32_t sum;
      unsigned source;
      Product product;
    };
    std::vector<Decision> decisions;
    for (uint32_t i = 0; i < fn_.instructions.size(); ++i) {
      if (!isUnroundedSum(fn_.instructions[i])) continue;
      for (unsigned source = 1; source <= 2; ++source) {
        if (std::optional<Product> product = fusibleProduct(i, source)) {
          decisions.push_back({i, source, *product});
          break;
        }
      }
    }
    for (const Decision& d : decisions) fuse(d.sum, d.source, d.product);
    return static_cast<uint32_t>(decisions.size());
  }

 private:
  const Instruction& at(uint32_t i) const { return fn_.instructions[i]; }
  const Operand& operandOf(uint32_t i, unsigned k) const { return fn_.operands[at(i).firstOperand + k]; }

  // The last instruction before `i` in i's block that writes `reg`.
  std::optional<uint32_t> writerInBlockBefore(uint32_t reg, uint32_t i) const {
    const auto& list = writers_[reg];
    auto it = std::lower_bound(list.begin(), list.end(), i);
    if (it == list.begin()) return std::nullopt;
    uint32_t w = *(it - 1);
    if (at(w).block != at(i).block) return std::nullopt;
    return w;
  }

  bool writtenBetween(uint32_t reg, uint32_t after, uint32_t before) const {
    const auto& list = writers_[reg];
    auto it = std::upper_bound(list.begin(), list.end(), after);
    return it != list.end() && *it < before;
  }

  // Whether the value instruction `def` writes to `reg` is read only where
  // `accept(reader)` holds: every reader up to the register's next write in
  // the block (that write's own reads included), and none elsewhere when
  // the value outlives the block.
  template <typename Accept>
  bool readersAll(uint32_t reg, uint32_t def, Accept&& accept) const {
    const BasicBlock& block = fn_.blocks[at(def).block];
    const auto& writes = writers_[reg];
    auto next = std::upper_bound(writes.begin(), writes.end(), def);
    bool redefinedInBlock = next != writes.end() && *next < block.end;
    uint32_t last = redefinedInBlock ? *next : block.end - 1;
    bool anyReader = false;
    for (uint32_t reader : readers_[reg]) {
      bool inRange = reader > def && reader <= last;
      if (!inRange) {
        if (!redefinedInBlock) return false;  // read on another path: the product leaves the block
        continue;
      }
      if (!accept(reader)) return false;
      anyReader = true;
    }
    return anyReader;
  }

  // Whether the product in `reg` (written by `def`, of `type` and flush
  // mode `ftz`) reaches only sums that can fuse it, through copies.
  bool onlyFeedsSums(uint32_t reg, uint32_t def, DataType type, bool ftz) const {
    return readersAll(reg, def, [&](uint32_t reader) {
      const Instruction& inst = at(reader);
      if (inst.guard.reg == reg) return false;
      if (isUnroundedSum(inst)) {
        if (inst.types[0] != type || inst.modifiers.has(Mod::Ftz) != ftz) return false;
        auto left = plainRegister(operandOf(reader, 1));
        auto right = plainRegister(operandOf(reader, 2));
        return (left == reg) != (right == reg) && plainRegister(operandOf(reader, 0)).has_value();
      }
      if (auto copy = copyDestination(reader, type); copy && plainRegister(operandOf(reader, 1)) == reg) {
        return onlyFeedsSums(*copy, reader, type, ftz);
      }
      return false;
    });
  }

  // A mov, or a neg that ptxas folds into the fused form, of a value of
  // `type`: the register it writes.
  std::optional<uint32_t> copyDestination(uint32_t i, DataType type) const {
    const Instruction& inst = at(i);
    bool isCopy = inst.opcode == Opcode::Mov ||
                  (inst.opcode == Opcode::Neg && inst.types[0] == type && type != DataType::BF16x2 &&
                   !inst.modifiers.has(Mod::Ftz));
    if (!isCopy || inst.guard.reg != kNone || inst.operandCount != 2) return std::nullopt;
    if (!plainRegister(operandOf(i, 1))) return std::nullopt;
    return plainRegister(operandOf(i, 0));
  }

  // The product that sum `i` can fuse as its source `k`, if any.
  std::optional<Product> fusibleProduct(uint32_t i, unsigned k) const {
    const Instruction& sum = at(i);
    auto reg = plainRegister(operandOf(i, k));
    Product product;
    for (uint32_t at = i; reg;) {
      auto w = writerInBlockBefore(*reg, at);
      if (!w) return std::nullopt;
      const Instruction& def = this->at(*w);
      if (isUnrounded(def, Opcode::Mul)) {
        product.mul = *w;
        break;
      }
      if (!copyDestination(*w, sum.types[0])) return std::nullopt;
      if (def.opcode == Opcode::Neg) product.negated = !product.negated;
      reg = plainRegister(operandOf(*w, 1));
      at = *w;
    }
    if (product.mul == kNone) return std::nullopt;
    const Instruction& mul = at(product.mul);
    bool ftz = sum.modifiers.has(Mod::Ftz);
    if (mul.types[0] != sum.types[0] || mul.modifiers.has(Mod::Ftz) != ftz || mul.modifiers.has(Mod::Sat) ||
        mul.guard.reg != kNone) {
      return std::nullopt;
    }
    // The fused form reads the mul's factors where the sum is: they must
    // not change in between, the mul's own write included (`mul %x, %x, 4`).
    auto productReg = plainRegister(operandOf(product.mul, 0));
    for (unsigned f = 1; f <= 2; ++f) {
      const Operand& factor = operandOf(product.mul, f);
      if (factor.kind == OperandKind::Immediate || factor.kind == OperandKind::FloatImmediate) continue;
      auto factorReg = plainRegister(factor);
      if (!factorReg || factorReg == productReg || writtenBetween(*factorReg, product.mul, i)) return std::nullopt;
    }
    if (!productReg || !onlyFeedsSums(*productReg, product.mul, sum.types[0], ftz)) return std::nullopt;
    return product;
  }

  const InstructionSpec* fmaSpecFor(DataType type) const {
    for (const InstructionSpec& spec : rowsFor(Opcode::Fma)) {
      if (spec.typeSlots == 1 && spec.legalTypes[0].contains(type)) return &spec;
    }
    return nullptr;
  }

  // Rewrites sum `i` as fma.rn of the product's factors and its other
  // source: a*b - c = fma(a, b, -c), c - a*b = fma(-a, b, c).
  void fuse(uint32_t i, unsigned source, const Product& product) {
    Instruction& sum = fn_.instructions[i];
    const InstructionSpec* spec = fmaSpecFor(sum.types[0]);
    if (!spec) return;
    bool isSub = sum.opcode == Opcode::Sub;
    Operand destination = operandOf(i, 0);
    Operand factorA = operandOf(product.mul, 1);
    Operand factorB = operandOf(product.mul, 2);
    Operand addend = operandOf(i, source == 1 ? 2 : 1);
    factorA.minus = product.negated != (isSub && source == 2);
    factorB.minus = false;
    addend.minus = isSub && source == 1;
    auto first = static_cast<uint32_t>(fn_.operands.size());
    fn_.operands.push_back(destination);
    fn_.operands.push_back(factorA);
    fn_.operands.push_back(factorB);
    fn_.operands.push_back(addend);
    sum.opcode = Opcode::Fma;
    sum.spec = spec;
    sum.unit = spec->unit;
    sum.firstOperand = first;
    sum.operandCount = 4;
    sum.modifiers.set(Mod::Rn);
  }

  Function& fn_;
  std::vector<std::vector<uint32_t>> writers_;  // per register, ascending instruction indices
  std::vector<std::vector<uint32_t>> readers_;
};

}  // namespace

uint32_t contractMultiplyAdds(Function& fn) {
  if (fn.blocks.empty()) return 0;
  return Contractor(fn).run();
}

}  // namespace ptxsim::isa
