#pragma once

// Nested name scopes of a function body, one per `{ }` block: parameters
// (in the outermost), registers, variables and labels. Parameterized
// declarations (`%r<100>`) are kept as a range per prefix, so declaring
// thousands of registers costs one entry.
//
// The rules are ptxas's (CUDA 13.0, checked with `ptxas -arch=sm_90`):
// - a name is declared once per block; a nested block may declare it again,
//   hiding the outer one; labels share this namespace with registers and
//   variables, but not with parameterized register names (`%r1:` beside
//   `.reg .b32 %r<4>` is accepted);
// - registers, variables and labels are visible from their declaration to
//   the end of their block, nested blocks included: a use finds the
//   innermost one declared so far;
// - a branch target, though, names a label of its own block or of an
//   enclosing one wherever in that block the label stands, before or after
//   the branch, and the innermost block that declares the name wins. So
//   label uses wait for their block to close (useLabel, pop). Sibling blocks
//   therefore each have their own labels, which is how inline asm such as
//   CUTLASS's `{ LAB_WAIT: ... bra LAB_WAIT; DONE: }` can be inlined twice.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptxsim::isa::lowering {

enum class NameKind : uint8_t { Register, Local, Parameter, ReturnValue, Prototype, Label, BranchTable };

// Label: index is the instruction position; BranchTable: the table's index.
struct NameEntry {
  NameKind kind;
  uint32_t index;
};

// A name used as a branch target, waiting for its block to close; `id` is
// the caller's handle on what the use is.
struct LabelUse {
  std::string name;
  uint32_t id;
};

class NameScopes {
 public:
  void push() { scopes_.emplace_back(); }

  // Closes the innermost block. Each label use waiting in it that the block
  // declares is passed to `resolved(use, entry)`, where the entry may be a
  // register or variable of the block, which hides outer labels; the others
  // wait in the enclosing block, or, when the outermost closes, are passed
  // with std::nullopt.
  template <typename Resolved>
  void pop(Resolved&& resolved) {
    Scope& closing = scopes_.back();
    Scope* enclosing = scopes_.size() > 1 ? &scopes_[scopes_.size() - 2] : nullptr;
    for (LabelUse& use : closing.waitingUses) {
      std::optional<NameEntry> entry = findLabelIn(closing, use.name);
      if (!entry) entry = findExactIn(closing, use.name);
      if (entry || enclosing == nullptr) {
        resolved(use, entry);
      } else {
        enclosing->waitingUses.push_back(std::move(use));
      }
    }
    scopes_.pop_back();
  }

  // False when the name already exists in the innermost scope.
  bool declare(std::string_view name, NameEntry entry) {
    if (findIn(scopes_.back(), name)) return false;
    scopes_.back().exact.emplace(std::string(name), entry);
    return true;
  }
  // A label or a target list's name; false when the innermost scope already
  // has the name (parameterized register names aside, as in ptxas).
  bool declareLabel(std::string_view name, NameEntry entry) {
    Scope& scope = scopes_.back();
    if (findExactIn(scope, name) || findLabelIn(scope, name)) return false;
    scope.labels.emplace(std::string(name), entry);
    return true;
  }
  // A branch target: resolved when the block that declares it closes.
  void useLabel(std::string_view name, uint32_t id) {
    scopes_.back().waitingUses.push_back({std::string(name), id});
  }
  bool declareRange(std::string_view prefix, uint32_t firstRegister, uint32_t count) {
    Scope& scope = scopes_.back();
    if (scope.ranges.count(prefix) != 0 || scope.exact.count(prefix) != 0) return false;
    scope.ranges.emplace(std::string(prefix), Range{firstRegister, count});
    return true;
  }

  std::optional<NameEntry> find(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto found = findIn(*it, name)) return found;
    }
    return std::nullopt;
  }

 private:
  struct Range {
    uint32_t first;
    uint32_t count;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Names = std::unordered_map<std::string, NameEntry, Hash, std::equal_to<>>;
  struct Scope {
    Names exact;  // registers, variables, parameters, prototypes
    std::unordered_map<std::string, Range, Hash, std::equal_to<>> ranges;
    Names labels;  // labels and target lists
    std::vector<LabelUse> waitingUses;
  };

  static std::optional<NameEntry> findExactIn(const Scope& scope, std::string_view name) {
    if (auto it = scope.exact.find(name); it != scope.exact.end()) return it->second;
    return std::nullopt;
  }
  static std::optional<NameEntry> findLabelIn(const Scope& scope, std::string_view name) {
    if (auto it = scope.labels.find(name); it != scope.labels.end()) return it->second;
    return std::nullopt;
  }
  // Exact names first, then ranges, then labels: a label only hides a
  // range's register when it is in an inner block.
  static std::optional<NameEntry> findIn(const Scope& scope, std::string_view name) {
    if (auto found = findExactIn(scope, name)) return found;
    if (auto found = findRangeIn(scope, name)) return found;
    return findLabelIn(scope, name);
  }
  static std::optional<NameEntry> findRangeIn(const Scope& scope, std::string_view name) {
    if (scope.ranges.empty()) return std::nullopt;
    // %r12 -> prefix %r, number 12 (no leading zeros, as PTX names them).
    size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
    if (digits == name.size() || digits == 0) return std::nullopt;
    if (name.size() - digits > 1 && name[digits] == '0') return std::nullopt;
    auto it = scope.ranges.find(name.substr(0, digits));
    if (it == scope.ranges.end()) return std::nullopt;
    uint64_t number = 0;
    for (size_t i = digits; i < name.size() && number <= UINT32_MAX; ++i) {
      number = number * 10 + static_cast<uint64_t>(name[i] - '0');
    }
    if (number >= it->second.count) return std::nullopt;
    return NameEntry{NameKind::Register, it->second.first + static_cast<uint32_t>(number)};
  }

  std::vector<Scope> scopes_;
};

}  // namespace ptxsim::isa::lowering
