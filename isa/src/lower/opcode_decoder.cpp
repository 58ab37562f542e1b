#include "opcode_decoder.h"

#include <unordered_map>
#include <vector>

#include "ptxas_rules.h"

namespace ptxsim::isa::lowering {

namespace {

// Spelling -> every (modifier, group) it can denote, built once.
class Vocabulary {
 public:
  Vocabulary() {
    for (const ModifierInfo& info : modifierVocabulary()) {
      if (!info.text.empty()) byText_[info.text].push_back(&info);
    }
  }
  const std::vector<const ModifierInfo*>* find(std::string_view text) const {
    auto it = byText_.find(text);
    return it == byText_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<std::string_view, std::vector<const ModifierInfo*>> byText_;
};

const Vocabulary& vocabulary() {
  static const Vocabulary instance;
  return instance;
}

struct Word {
  std::string_view text;
  const std::vector<const ModifierInfo*>* meanings = nullptr;
};

std::string dotted(std::string_view word) { return "'." + std::string(word) + "'"; }

// Tries one table row; on failure explains why, for the best error message.
enum class RowFit { Fits, WrongTypes, WrongModifiers };

RowFit tryRow(const InstructionSpec& row, const std::array<DataType, 4>& types, uint8_t typeCount,
              const std::vector<Word>& words, bool hasShape, DecodedOpcode& out, std::string& why) {
  if (typeCount != row.typeSlots) return RowFit::WrongTypes;
  for (unsigned i = 0; i < typeCount; ++i) {
    if (!row.legalTypes[i].contains(types[i])) return RowFit::WrongTypes;
  }
  ModifierSet set;
  if (hasShape) {
    if (!row.allowed.contains(ModGroup::Shape)) {
      why = "a matrix shape is not valid here";
      return RowFit::WrongModifiers;
    }
    set.set(Mod::ShapeMod);
  }
  for (const Word& w : words) {
    const ModifierInfo* chosen = nullptr;
    const ModifierInfo* clash = nullptr;
    for (const ModifierInfo* m : *w.meanings) {
      if (!row.allowed.contains(m->group)) continue;
      if (set.hasGroup(m->group)) {
        clash = clash != nullptr ? clash : m;
        continue;
      }
      chosen = m;
      break;
    }
    if (chosen == nullptr) {
      if (clash != nullptr) {
        why = "illegal modifier combination " + dotted(modifierText(set.get(clash->group))) + " and " +
              dotted(w.text);
      } else {
        why = "illegal modifier combination: " + dotted(w.text) + " is not allowed with " +
              (typeCount > 0 ? "'" + std::string(typeName(types[0])) + "'" : "these modifiers");
      }
      return RowFit::WrongModifiers;
    }
    if (!set.set(chosen->mod)) {
      why = "more than " + std::to_string(ModifierSet::kCapacity) + " modifiers";
      return RowFit::WrongModifiers;
    }
  }
  for (unsigned g = 0; g < kModGroupCount; ++g) {
    auto group = static_cast<ModGroup>(g);
    if (row.required.contains(group) && !set.hasGroup(group)) {
      why = "'" + std::string(row.mnemonic) + "' needs a modifier it does not have (" +
            std::string(row.operands.empty() ? "see the PTX ISA" : "group " + std::to_string(g)) + ")";
      return RowFit::WrongModifiers;
    }
  }
  out.spec = &row;
  out.modifiers = set;
  return RowFit::Fits;
}

}  // namespace

std::optional<DecodedOpcode> decodeOpcode(std::string_view token, std::string& error) {
  auto match = matchMnemonic(token);
  if (!match) {
    size_t dot = token.find('.');
    error = "unknown instruction '" + std::string(token.substr(0, dot)) + "'";
    return std::nullopt;
  }
  std::string_view mnemonic = mnemonicOf(match->opcode);
  DecodedOpcode decoded;
  std::vector<Word> words;
  bool hasShape = false;
  std::string_view rest = token.substr(match->length);
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the dot
    size_t next = rest.find('.');
    std::string_view word = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
    if (word.empty()) {
      error = "empty modifier in '" + std::string(token) + "'";
      return std::nullopt;
    }
    // Types and modifiers are both dotted words; a type name is looked up
    // with its dot, which the token still has just before `word`.
    std::string_view withDot(word.data() - 1, word.size() + 1);
    if (auto type = parseType(withDot)) {
      if (decoded.typeCount == decoded.types.size()) {
        error = "too many types in '" + std::string(token) + "'";
        return std::nullopt;
      }
      decoded.types[decoded.typeCount++] = *type;
      continue;
    }
    if (parseShape(word, decoded.shape)) {
      if (hasShape) {
        error = "illegal modifier combination: two matrix shapes in '" + std::string(token) + "'";
        return std::nullopt;
      }
      hasShape = true;
      continue;
    }
    const auto* meanings = vocabulary().find(word);
    if (meanings == nullptr) {
      error = dotted(word) + " is not a valid modifier for '" + std::string(mnemonic) + "'";
      return std::nullopt;
    }
    words.push_back({word, meanings});
  }

  std::string modifierWhy;
  bool typesFitSomewhere = false;
  for (const InstructionSpec& row : rowsFor(match->opcode)) {
    std::string why;
    RowFit fit = tryRow(row, decoded.types, decoded.typeCount, words, hasShape, decoded, why);
    if (fit == RowFit::Fits) return decoded;
    if (fit == RowFit::WrongModifiers) {
      typesFitSomewhere = true;
      if (modifierWhy.empty()) modifierWhy = why;
    }
  }
  if (typesFitSomewhere) {
    // A modifier no row of this mnemonic accepts at all is unknown to it,
    // rather than misplaced.
    for (const Word& w : words) {
      bool anywhere = false;
      for (const InstructionSpec& row : rowsFor(match->opcode)) {
        for (const ModifierInfo* m : *w.meanings) anywhere = anywhere || row.allowed.contains(m->group);
      }
      if (!anywhere) {
        error = dotted(w.text) + " is not a valid modifier for '" + std::string(mnemonic) + "'";
        return std::nullopt;
      }
    }
    error = modifierWhy;
    return std::nullopt;
  }
  if (std::string why = strict::typeRefusal(match->opcode, decoded.typeCount); !why.empty()) {
    error = why;  // ptxas's own message
  } else if (decoded.typeCount == 0) {
    error = "'" + std::string(mnemonic) + "' needs a type";
  } else {
    std::string types;
    for (unsigned i = 0; i < decoded.typeCount; ++i) types += typeName(decoded.types[i]);
    error = "invalid type " + std::string("'") + types + "' for '" + std::string(mnemonic) + "'";
  }
  return std::nullopt;
}

}  // namespace ptxsim::isa::lowering
