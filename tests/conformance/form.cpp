#include "form.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <set>
#include <string_view>

namespace ptxsim::conformance {
namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

constexpr uint16_t kTargetSm = 90;
constexpr uint16_t kTargetPtx = 90;

// Modifier groups in the order PTX writes them (setp.eq.and.ftz, mad.hi.sat,
// div.approx.ftz, min.ftz.NaN.xorsign.abs, cvt.rn.relu.satfinite).
constexpr std::array kGroupOrder{
    ModGroup::Compare,    ModGroup::BoolOp,       ModGroup::MulMode,     ModGroup::Precision,
    ModGroup::Rounding,   ModGroup::IntRounding,  ModGroup::Carry,       ModGroup::ShiftMode,
    ModGroup::ShiftClamp, ModGroup::TestProperty, ModGroup::ShiftAmount, ModGroup::Ftz,
    ModGroup::NaNMode,    ModGroup::XorSign,      ModGroup::AbsMode,     ModGroup::Boundary,
    ModGroup::Relu,       ModGroup::Saturate,     ModGroup::ReduceOp,    ModGroup::PermuteMode,
    ModGroup::Form,
};

// Opcodes that take a register operand form but whose result depends on
// more than their operands: the other lanes, the memory map, the cluster.
std::string_view notRegisterToRegister(Opcode op) {
  switch (op) {
    case Opcode::Movmatrix:
      return "warp collective: its result depends on the other lanes (tests/cuda/semantics/warp_*.cu, "
             "tests/sim/semantics)";
    case Opcode::Cvta:
    case Opcode::Isspacep:
    case Opcode::Mapa:
    case Opcode::Getctarank:
      return "address-space conversion: its result depends on the memory map (tests/sim/semantics, "
             "tests/cuda/programs)";
    case Opcode::Stacksave:
    case Opcode::Stackrestore:
    case Opcode::Alloca:
      return "stack allocation: its result is an address (tests/sim/semantics)";
    default: return {};
  }
}

// The rows the memory set covers (memory_forms.cpp, warp_forms.cpp).
std::string_view memorySetRow(Opcode op) {
  switch (op) {
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Ldu:
      return "memory operand: the memory set (h100/memory_forms.txt)";
    case Opcode::Shfl:
    case Opcode::Vote:
    case Opcode::Redux:
    case Opcode::Match:
    case Opcode::Activemask:
    case Opcode::Elect:
      return "warp collective: the memory set (h100/memory_forms.txt)";
    default: return {};
  }
}

bool isVideo(Opcode op) {
  switch (op) {
    case Opcode::Vadd: case Opcode::Vsub: case Opcode::Vabsdiff: case Opcode::Vmin: case Opcode::Vmax:
    case Opcode::Vshl: case Opcode::Vshr: case Opcode::Vmad: case Opcode::Vset:
    case Opcode::Vadd2: case Opcode::Vsub2: case Opcode::Vavrg2: case Opcode::Vabsdiff2: case Opcode::Vmin2:
    case Opcode::Vmax2: case Opcode::Vset2: case Opcode::Vadd4: case Opcode::Vsub4: case Opcode::Vavrg4:
    case Opcode::Vabsdiff4: case Opcode::Vmin4: case Opcode::Vmax4: case Opcode::Vset4:
      return true;
    default: return false;
  }
}

DataType widened(DataType type) {
  switch (type) {
    case DataType::U16: return DataType::U32;
    case DataType::S16: return DataType::S32;
    case DataType::U32: return DataType::U64;
    case DataType::S32: return DataType::S64;
    default: return type;
  }
}

struct Token {
  std::string name;
  bool optional = false;
};

std::vector<Token> tokensOf(std::string_view operands) {
  std::vector<Token> out;
  while (!operands.empty()) {
    size_t comma = operands.find(',');
    std::string_view word = operands.substr(0, comma);
    Token t{std::string(word), false};
    if (!t.name.empty() && t.name.back() == '?') {
      t.optional = true;
      t.name.pop_back();
    }
    out.push_back(t);
    if (comma == std::string_view::npos) break;
    operands.remove_prefix(comma + 1);
  }
  return out;
}

// Why a row's operand signature is out of reach, or "" when every token is a register or immediate.
std::string unsupportedSignature(const isa::InstructionSpec& row, const std::vector<Token>& tokens) {
  if (tokens.empty()) return "no operands: control or synchronisation (tests/sim/exec, tests/cuda/programs)";
  const bool writesRegister = std::any_of(tokens.begin(), tokens.end(), [](const Token& t) {
    return t.name == "d" || t.name == "d1" || t.name == "p" || t.name == "x";
  });
  if (!writesRegister) return "writes no register: control or synchronisation (tests/sim/exec, tests/cuda/programs)";
  static const std::set<std::string> kRegisterTokens{"d", "d1", "s", "s1", "s2", "r", "p", "q", "U32", "S32", "B32"};
  for (const Token& t : tokens) {
    if (t.name == "x" && (row.opcode == Opcode::Popc || row.opcode == Opcode::Clz || row.opcode == Opcode::Bfind))
      continue;
    if (t.name == "a" || t.name == "dv" || t.name == "sv")
      return "memory operand: needs an address (tests/cuda/semantics/atomic_*.cu, tests/sim/semantics, "
             "tests/cuda/programs)";
    if (t.name == "l" || t.name == "f" || t.name == "t") return "control flow: label or function operand (tests/sim/exec)";
    if (kRegisterTokens.count(t.name) == 0)
      return "operand '" + t.name + "' is not a plain register (matrix, texture or unchecked operand: " +
             "tests/cuda/semantics, tests/sim/semantics)";
  }
  return {};
}

class RowExpander {
 public:
  RowExpander(const isa::InstructionSpec& row, Enumeration& out) : row_(row), out_(out) {}

  void expand() {
    std::vector<ModGroup> groups;
    for (ModGroup g : kGroupOrder) {
      if (row_.allowed.contains(g) || row_.required.contains(g)) groups.push_back(g);
    }
    for (unsigned g = 0; g < isa::kModGroupCount; ++g) {
      auto group = static_cast<ModGroup>(g);
      if ((row_.allowed.contains(group) || row_.required.contains(group)) &&
          std::find(groups.begin(), groups.end(), group) == groups.end()) {
        out_.rows.push_back({rowText(row_), "modifier group " + std::to_string(g) + " is not generated yet"});
        return;
      }
    }
    tokens_ = tokensOf(row_.operands);
    std::vector<DataType> types(row_.typeSlots);
    expandTypes(0, types, groups);
  }

 private:
  void expandTypes(unsigned slot, std::vector<DataType>& types, const std::vector<ModGroup>& groups) {
    if (slot == row_.typeSlots) {
      std::vector<Mod> mods;
      expandMods(0, groups, types, mods);
      return;
    }
    for (DataType t : typesIn(row_.legalTypes[slot])) {
      if (t == DataType::B128) continue;  // 128-bit registers: mov.b128 is tested in tests/sim/semantics
      types[slot] = t;
      expandTypes(slot + 1, types, groups);
    }
  }

  void expandMods(size_t index, const std::vector<ModGroup>& groups, const std::vector<DataType>& types,
                  std::vector<Mod>& mods) {
    if (index == groups.size()) {
      emit(types, mods);
      return;
    }
    ModGroup group = groups[index];
    if (!row_.required.contains(group)) expandMods(index + 1, groups, types, mods);
    for (Mod m : modsOf(group)) {
      // Stochastic rounding takes a random-bits operand; .noftz is a PTX 9.0 spelling of the default.
      if (m == Mod::Rs || m == Mod::NoFtz) continue;
      mods.push_back(m);
      expandMods(index + 1, groups, types, mods);
      mods.pop_back();
    }
  }

  bool has(const std::vector<Mod>& mods, ModGroup group) const {
    return std::any_of(mods.begin(), mods.end(), [&](Mod m) { return isa::groupOf(m) == group; });
  }

  DataType typeFor(const std::string& token, const std::vector<DataType>& types) const {
    if (token == "U32") return DataType::U32;
    if (token == "S32") return DataType::S32;
    if (token == "B32") return DataType::B32;
    if (token == "s1" || token == "d1") return types.size() > 1 ? types[1] : types[0];
    if (token == "s2") return types.size() > 2 ? types[2] : types[0];
    return types.empty() ? DataType::B32 : types[0];
  }

  void emit(const std::vector<DataType>& types, const std::vector<Mod>& mods) {
    const Opcode op = row_.opcode;
    const bool wide = std::find(mods.begin(), mods.end(), Mod::Wide) != mods.end();
    std::string modText, typeText;
    for (Mod m : mods) modText += "." + std::string(isa::modifierText(m));
    for (DataType t : types) typeText += std::string(isa::typeName(t));
    Form form;
    form.mnemonic = std::string(row_.mnemonic) + (isVideo(op) || op == Opcode::Prmt ? typeText + modText : modText + typeText);
    form.carryOut = has(mods, ModGroup::Carry);
    form.carryIn = op == Opcode::Addc || op == Opcode::Subc || op == Opcode::Madc;

    // The optional operands: a predicate combine needs q, a video secondary operation its third
    // source; min/max take a third source as a variant of their own (PTX 8.8).
    std::vector<bool> includeOptional(tokens_.size(), false);
    bool threeSourceVariant = false;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (!tokens_[i].optional) continue;
      if (tokens_[i].name == "q") {
        if (op == Opcode::Lop3 && has(mods, ModGroup::BoolOp)) return;  // the d|p predicate form: not generated
        includeOptional[i] = has(mods, ModGroup::BoolOp);
      } else if (isVideo(op)) {
        includeOptional[i] = has(mods, ModGroup::ReduceOp);
      } else {
        threeSourceVariant = true;
      }
    }
    // cvt to a packed pair from .f32 takes two sources (cvt.rn.f16x2.f32 d, a, b).
    const bool pairFromF32 = op == Opcode::Cvt && types.size() == 2 && types[1] == DataType::F32 &&
                             (types[0] == DataType::F16x2 || types[0] == DataType::BF16x2 ||
                              types[0] == DataType::E4M3x2 || types[0] == DataType::E5M2x2 ||
                              types[0] == DataType::E2M3x2 || types[0] == DataType::E3M2x2 ||
                              types[0] == DataType::E2M1x2 || types[0] == DataType::UE8M0x2);

    for (int variant = 0; variant < (threeSourceVariant ? 2 : 1); ++variant) {
      Form f = form;
      f.name = f.mnemonic + (variant == 1 ? " (3 sources)" : "");
      bool ok = true;
      for (size_t i = 0; i < tokens_.size() && ok; ++i) {
        const Token& t = tokens_[i];
        if (t.optional && !includeOptional[i] && !(variant == 1 && t.name != "q")) continue;
        Operand o;
        if (t.name == "p") {
          o.role = OperandRole::PredDest;
          o.bits = 1;
          o.values = DataType::Pred;
        } else if (t.name == "q") {
          o.role = OperandRole::PredSource;
          o.bits = 1;
          o.values = DataType::Pred;
        } else if (t.name == "d" || t.name == "d1" || t.name == "x") {
          DataType type = t.name == "x" ? DataType::U32 : typeFor(t.name, types);
          if (wide) type = widened(type);
          o.role = OperandRole::Dest;
          o.values = type;
          o.bits = registerBits(type);
        } else {
          DataType type = typeFor(t.name, types);
          // mad.wide adds a double-width third source.
          if (wide && op == Opcode::Mad && i == 3) type = widened(type);
          o.role = OperandRole::Source;
          o.values = type;
          o.bits = registerBits(type);
        }
        f.operands.push_back(o);
        if (pairFromF32 && t.name == "s1") f.operands.push_back(o);
      }
      if (op == Opcode::Lop3) {
        // The look-up table is an immediate: one variant per table, covering the common functions.
        for (uint32_t lut : {0x00u, 0xffu, 0x80u, 0xfeu, 0x96u, 0xe8u, 0xcau, 0x1eu, 0x6au, 0x5au}) {
          Form l = f;
          l.operands[4].role = OperandRole::Immediate;
          l.operands[4].immediate = lut;
          char suffix[16];
          std::snprintf(suffix, sizeof suffix, " lut=0x%02x", lut);
          l.name += suffix;
          out_.forms.push_back(l);
        }
        continue;
      }
      out_.forms.push_back(f);
    }
  }

  const isa::InstructionSpec& row_;
  Enumeration& out_;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<DataType> typesIn(isa::TypeSet set) {
  std::vector<DataType> out;
  for (unsigned t = 1; t <= static_cast<unsigned>(DataType::Pred); ++t) {
    if (set.contains(static_cast<DataType>(t))) out.push_back(static_cast<DataType>(t));
  }
  return out;
}

std::vector<Mod> modsOf(ModGroup group) {
  std::vector<Mod> out;
  for (const isa::ModifierInfo& info : isa::modifierVocabulary()) {
    if (info.group == group && std::find(out.begin(), out.end(), info.mod) == out.end()) out.push_back(info.mod);
  }
  return out;
}

uint32_t registerBits(DataType type) {
  if (type == DataType::Pred) return 1;
  return std::max<uint32_t>(16, isa::typeBits(type));  // PTX has no 8-bit registers
}

std::string rowText(const isa::InstructionSpec& row) {
  std::string text(row.mnemonic);
  for (unsigned slot = 0; slot < row.typeSlots; ++slot) {
    text += " {";
    bool first = true;
    for (DataType t : typesIn(row.legalTypes[slot])) {
      text += (first ? "" : " ") + std::string(isa::typeName(t));
      first = false;
    }
    text += "}";
  }
  return text;
}

uint32_t Operand::slots() const {
  switch (role) {
    case OperandRole::Immediate:
    case OperandRole::Address:
    case OperandRole::MemberMask: return 0;
    case OperandRole::PredDest:
    case OperandRole::PredSource: return 1;
    default: return (bits * elements + 63) / 64;
  }
}

uint32_t Form::sources() const {
  uint32_t n = (carryIn ? 1 : 0) + memory.slots() + (kind == FormKind::Warp ? 1 : 0);
  for (const Operand& o : operands) {
    if (o.role == OperandRole::Source || o.role == OperandRole::PredSource) n += o.slots();
  }
  return n;
}

uint32_t Form::outputs() const {
  uint32_t n = (carryOut ? 1 : 0) + memory.slots();
  for (const Operand& o : operands) {
    if (o.role == OperandRole::Dest || o.role == OperandRole::PredDest) n += o.slots();
  }
  return n;
}

Enumeration enumerateForms(FormSet set) {
  Enumeration out;
  for (const isa::InstructionSpec& row : isa::instructionTable()) {
    if (row.minSm > kTargetSm || row.minPtx > kTargetPtx) {
      out.rows.push_back({rowText(row), "needs sm_" + std::to_string(row.minSm) + " / PTX " +
                                            std::to_string(row.minPtx / 10) + "." + std::to_string(row.minPtx % 10) +
                                            ", beyond the H100 (sm_90)"});
      continue;
    }
    if (set == FormSet::Memory) {
      if (expandMemoryRow(row, out) || expandWarpRow(row, out)) continue;
    } else if (std::string_view why = memorySetRow(row.opcode); !why.empty()) {
      out.rows.push_back({rowText(row), std::string(why)});
      continue;
    }
    std::string why(notRegisterToRegister(row.opcode));
    if (why.empty()) why = unsupportedSignature(row, tokensOf(row.operands));
    if (!why.empty()) {
      out.rows.push_back({rowText(row), why});
    } else if (set == FormSet::Register) {
      RowExpander(row, out).expand();
    } else {
      out.rows.push_back({rowText(row), "register-to-register: the register set (h100/forms.txt)"});
    }
  }
  // Rows of one mnemonic may overlap (min.f32 twice, with and without .NaN): keep each name once.
  std::set<std::string> seen;
  std::vector<Form> unique;
  for (Form& f : out.forms) {
    if (seen.insert(f.name).second) unique.push_back(std::move(f));
  }
  out.forms = std::move(unique);
  std::set<std::string> notes;
  std::vector<std::string> collapsed;
  for (std::string& note : out.collapsed) {
    if (notes.insert(note).second) collapsed.push_back(std::move(note));
  }
  out.collapsed = std::move(collapsed);
  return out;
}

FormSet setOfFormsFile(const std::string& path) {
  return std::filesystem::path(path).filename().string().rfind("memory", 0) == 0 ? FormSet::Memory
                                                                                 : FormSet::Register;
}

std::string companionPath(const std::string& formsPath, const std::string& name) {
  const std::filesystem::path forms(formsPath);
  const std::string prefix = setOfFormsFile(formsPath) == FormSet::Memory ? "memory_" : "";
  return (forms.parent_path() / (prefix + name)).string();
}

}  // namespace ptxsim::conformance
