#include "register_compaction.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "ptxsim/isa/operand_access.h"

namespace ptxsim::sim::exec {

namespace {

// A set of registers, one bit each.
class RegisterSet {
 public:
  explicit RegisterSet(size_t size = 0) : words_((size + 63) / 64, 0) {}
  void set(uint32_t r) { words_[r / 64] |= uint64_t{1} << (r % 64); }
  void reset(uint32_t r) { words_[r / 64] &= ~(uint64_t{1} << (r % 64)); }
  bool test(uint32_t r) const { return (words_[r / 64] >> (r % 64)) & 1; }
  // Adds `other`; whether that changed this set.
  bool add(const RegisterSet& other) {
    bool changed = false;
    for (size_t w = 0; w < words_.size(); ++w) {
      uint64_t merged = words_[w] | other.words_[w];
      changed = changed || merged != words_[w];
      words_[w] = merged;
    }
    return changed;
  }
  template <typename F>
  void forEach(F&& f) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<uint32_t>(w * 64 + static_cast<unsigned>(std::countr_zero(bits))));
      }
    }
  }

 private:
  std::vector<uint64_t> words_;
};

// The registers one instruction reads and writes.
struct RegisterAccess {
  std::vector<uint32_t> reads;
  std::vector<uint32_t> writes;
  bool writesEndValues = true;  // unguarded, no partial write: the old values die here
};

// Whether `inst` writes only part of a destination: a video selector on it
// (`d.h1`) keeps the other parts.
bool writesPart(const isa::Function& fn, const isa::Instruction& inst) {
  for (unsigned i = 0; i < inst.operandCount; ++i) {
    if (fn.operands[inst.firstOperand + i].select.kind != 0 &&
        isa::operandAccess(inst, i) == isa::OperandAccess::Write) {
      return true;
    }
  }
  return false;
}

class Compactor {
 public:
  explicit Compactor(PreparedFunction& fn) : fn_(fn), ir_(*fn.function), count_(ir_.registers.size()) {}

  void run() {
    if (count_ == 0 || count_ > kMaxCompactedRegisters || ir_.blocks.empty()) return;
    if (fn_.registerRows.size() != count_ || fn_.registerCount != fn_.declaredRegisterRows) return;
    rows_ = fn_.registerRows;
    rows_.push_back(fn_.declaredRegisterRows);
    collectAccesses();
    if (!everyRowSeen()) return;
    computeLiveness();
    buildInterference();
    assignRows();
    renumber();
  }

 private:
  // Each instruction's reads and writes are its dependence rows, which the
  // preparer records for the issue order too (preparer.cpp,
  // recordDependences), named by register.
  void collectAccesses() {
    std::vector<uint32_t> registerAt(fn_.declaredRegisterRows);
    for (uint32_t r = 0; r < count_; ++r) {
      for (uint32_t row = rows_[r]; row < rows_[r + 1]; ++row) registerAt[row] = r;
    }
    accesses_.resize(fn_.code.size());
    used_ = RegisterSet(count_);
    for (size_t i = 0; i < fn_.code.size(); ++i) {
      const PreparedInstruction& pi = fn_.code[i];
      RegisterAccess& access = accesses_[i];
      for (uint32_t row : fn_.readsOf(pi)) access.reads.push_back(registerAt[row]);
      for (uint32_t row : fn_.writesOf(pi)) access.writes.push_back(registerAt[row]);
      access.writesEndValues = pi.guardRow == kNoRow && !writesPart(ir_, *pi.source);
      for (uint32_t r : access.reads) used_.set(r);
      for (uint32_t r : access.writes) used_.set(r);
    }
  }

  // Every register row a prepared instruction names belongs to a register
  // its dependence rows name (else the analysis would miss a use).
  bool everyRowSeen() {
    std::vector<bool> seen(fn_.registerCount, false);
    for (uint32_t r = 0; r < count_; ++r) {
      if (!used_.test(r)) continue;
      for (uint32_t row = rows_[r]; row < rows_[r + 1]; ++row) seen[row] = true;
    }
    bool ok = true;
    auto check = [&](const uint32_t& row) { ok = ok && (row >= fn_.registerCount || seen[row]); };
    forEachRow(check);
    return ok;
  }

  // Calls f(row) on every row the prepared code names (mutable).
  template <typename F>
  void forEachRow(F&& f) {
    for (PreparedInstruction& pi : fn_.code) {
      f(pi.guardRow);
      for (PreparedOperand& op : pi.ops) {
        f(op.row);
        f(op.secondRow);
      }
    }
    for (uint32_t& row : fn_.vectorRows) f(row);
    for (Materialization& m : fn_.materializations) f(m.row);
    for (CallBinding& call : fn_.calls) f(call.calleeRow);
  }

  // Per block: the registers live on entry and on exit (a register is live
  // where some path from there reads it before writing it).
  void computeLiveness() {
    const size_t blocks = ir_.blocks.size();
    std::vector<RegisterSet> readFirst(blocks, RegisterSet(count_)), written(blocks, RegisterSet(count_));
    for (size_t b = 0; b < blocks; ++b) {
      for (uint32_t i = ir_.blocks[b].end; i-- > ir_.blocks[b].first;) {
        const RegisterAccess& a = accesses_[i];
        if (a.writesEndValues) {
          for (uint32_t r : a.writes) {
            readFirst[b].reset(r);
            written[b].set(r);
          }
        }
        for (uint32_t r : a.reads) readFirst[b].set(r);
      }
    }
    liveIn_.assign(blocks, RegisterSet(count_));
    liveOut_.assign(blocks, RegisterSet(count_));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = blocks; b-- > 0;) {
        for (uint32_t s : ir_.blocks[b].successors) liveOut_[b].add(liveIn_[s]);
        RegisterSet in = readFirst[b];
        liveOut_[b].forEach([&](uint32_t r) {
          if (!written[b].test(r)) in.set(r);
        });
        changed = liveIn_[b].add(in) || changed;
      }
    }
  }

  void interfere(uint32_t a, uint32_t b) {
    if (a == b) return;
    interference_[a].set(b);
    interference_[b].set(a);
  }

  // Two registers interfere where one is written while the other is live,
  // or read by the same instruction.
  void buildInterference() {
    interference_.assign(count_, RegisterSet(count_));
    for (size_t b = 0; b < ir_.blocks.size(); ++b) {
      RegisterSet live = liveOut_[b];
      for (uint32_t i = ir_.blocks[b].end; i-- > ir_.blocks[b].first;) {
        const RegisterAccess& a = accesses_[i];
        for (uint32_t w : a.writes) {
          live.forEach([&](uint32_t r) { interfere(w, r); });
          for (uint32_t r : a.reads) interfere(w, r);
          for (uint32_t r : a.writes) interfere(w, r);
        }
        if (a.writesEndValues) {
          for (uint32_t w : a.writes) live.reset(w);
        }
        for (uint32_t r : a.reads) live.set(r);
      }
    }
  }

  // Greedy colouring in declaration order: each register takes the lowest
  // row (two in a row for .b128) none of its interfering registers holds.
  void assignRows() {
    newRow_.assign(count_, kNoRow);
    std::vector<uint32_t> takenBy;  // stamp: the register whose neighbours hold the row
    for (uint32_t r = 0; r < count_; ++r) {
      if (!used_.test(r)) continue;
      const uint32_t width = rows_[r + 1] - rows_[r];
      interference_[r].forEach([&](uint32_t other) {
        if (newRow_[other] == kNoRow) return;
        const uint32_t otherWidth = rows_[other + 1] - rows_[other];
        for (uint32_t k = 0; k < otherWidth; ++k) {
          const uint32_t row = newRow_[other] + k;
          if (row >= takenBy.size()) takenBy.resize(row + 1, kNoRow);
          takenBy[row] = r;
        }
      });
      uint32_t row = 0;
      auto freeAt = [&](uint32_t at) { return at >= takenBy.size() || takenBy[at] != r; };
      while (!(freeAt(row) && (width == 1 || freeAt(row + 1)))) ++row;
      newRow_[r] = row;
      rowCount_ = std::max(rowCount_, row + width);
    }
  }

  void renumber() {
    const uint32_t oldRegisters = fn_.registerCount;
    const uint32_t oldFrame = fn_.frameRows();
    std::vector<uint32_t> rowMap(oldRegisters, kNoRow);
    for (uint32_t r = 0; r < count_; ++r) {
      if (newRow_[r] == kNoRow) continue;
      for (uint32_t k = 0; k < rows_[r + 1] - rows_[r]; ++k) rowMap[rows_[r] + k] = newRow_[r] + k;
    }
    const uint32_t shift = oldRegisters - rowCount_;
    forEachRow([&](uint32_t& row) {
      if (row == kNoRow) return;
      if (row < oldRegisters) {
        row = rowMap[row];
      } else if (row < oldFrame + fn_.constants.size() / kWarpSize) {
        row -= shift;  // scratch and constant rows keep their order after the registers
      }
    });
    fn_.registerCount = rowCount_;
    fn_.registerRows = newRow_;
  }

  PreparedFunction& fn_;
  const isa::Function& ir_;
  const size_t count_;
  std::vector<uint32_t> rows_;  // declared first row by register, then the total
  std::vector<RegisterAccess> accesses_;
  RegisterSet used_;
  std::vector<RegisterSet> liveIn_, liveOut_;
  std::vector<RegisterSet> interference_;
  std::vector<uint32_t> newRow_;
  uint32_t rowCount_ = 0;
};

}  // namespace

void compactRegisterRows(PreparedFunction& fn) { Compactor(fn).run(); }

}  // namespace ptxsim::sim::exec
