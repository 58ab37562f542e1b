#pragma once

// Nested name scopes of a function body: registers, and variables declared
// in the body. Parameterized declarations (`%r<100>`) are kept as a range
// per prefix, so declaring thousands of registers costs one entry.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptxsim::isa::lowering {

enum class NameKind : uint8_t { Register, Local, Parameter, ReturnValue, Prototype };

struct NameEntry {
  NameKind kind;
  uint32_t index;
};

class NameScopes {
 public:
  void push() { scopes_.emplace_back(); }
  void pop() { scopes_.pop_back(); }

  // False when the name already exists in the innermost scope.
  bool declare(std::string_view name, NameEntry entry) {
    if (findIn(scopes_.back(), name)) return false;
    scopes_.back().exact.emplace(std::string(name), entry);
    return true;
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
  struct Scope {
    std::unordered_map<std::string, NameEntry, Hash, std::equal_to<>> exact;
    std::unordered_map<std::string, Range, Hash, std::equal_to<>> ranges;
  };

  static std::optional<NameEntry> findIn(const Scope& scope, std::string_view name) {
    if (auto it = scope.exact.find(name); it != scope.exact.end()) return it->second;
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
