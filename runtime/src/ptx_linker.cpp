#include "ptxsim/runtime/ptx_linker.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace ptxsim::runtime {

namespace {

// ---------------------------------------------------------------------------
// A PTX-aware tokenizer: just enough to find module-scope statements and the
// identifiers in them, and to leave comments and strings alone.

enum class Tok : uint8_t { Space, Newline, Comment, String, Word, Punct };

struct Token {
  Tok kind;
  size_t begin;
  size_t end;
};

bool startsWord(char c) {
  auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) != 0 || c == '_' || c == '$' || c == '%' || c == '.';
}
bool continuesWord(char c) {
  auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) != 0 || c == '_' || c == '$';
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < s.size()) {
    size_t start = i;
    char c = s[i];
    Tok kind;
    if (c == '\n') {
      kind = Tok::Newline, ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      kind = Tok::Space;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v'))
        ++i;
    } else if (s.compare(i, 2, "//") == 0) {
      kind = Tok::Comment;
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      kind = Tok::Comment;
      size_t close = s.find("*/", i + 2);
      i = close == std::string_view::npos ? s.size() : close + 2;
    } else if (c == '"') {
      kind = Tok::String, ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, s.size());
    } else if (startsWord(c)) {
      kind = Tok::Word, ++i;
      while (i < s.size() && continuesWord(s[i])) ++i;
    } else {
      kind = Tok::Punct, ++i;
    }
    tokens.push_back({kind, start, i});
  }
  return tokens;
}

// ---------------------------------------------------------------------------
// Module-scope statements.

enum class ItemKind : uint8_t {
  Glue,
  Version,
  Target,
  AddressSize,
  File,
  Section,
  Function,
  Variable,
  Other
};
enum class Link : uint8_t { Internal, Visible, Extern, Weak, Common };

struct Item {
  ItemKind kind = ItemKind::Glue;
  size_t first = 0, last = 0;  // tokens [first, last)
  Link linkage = Link::Internal;
  std::string name;      // the declared symbol, if any
  bool defined = false;  // a function body, or a variable that is not .extern
  bool entry = false;
  bool sharedSpace = false;  // a .shared variable (dynamic shared memory when .extern)
  size_t linkageToken = SIZE_MAX;
  size_t declarationEnd = 0;  // tokens [first, declarationEnd) declare the symbol without defining it
};

struct Module {
  std::string name;
  std::string_view text;
  std::vector<Token> tokens;
  std::vector<Item> items;
  uint32_t maxFile = 0;  // highest .file index

  std::string_view text_of(const Token& t) const { return text.substr(t.begin, t.end - t.begin); }
  std::string_view word(size_t i) const {
    return i < tokens.size() ? text_of(tokens[i]) : std::string_view{};
  }
  bool isPunct(size_t i, char c) const {
    return i < tokens.size() && tokens[i].kind == Tok::Punct && text[tokens[i].begin] == c;
  }
  std::string textOf(size_t first, size_t last) const {
    if (first >= last) return {};
    return std::string(text.substr(tokens[first].begin, tokens[last - 1].end - tokens[first].begin));
  }
};

bool isDigits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}
bool isIdentifier(std::string_view w) {
  return !w.empty() && w[0] != '.' && w[0] != '%' && std::isdigit(static_cast<unsigned char>(w[0])) == 0;
}

// The general statement at `i`: a declaration ending in ';' or a function
// definition ending with its body's '}'.
void parseStatement(Module& m, size_t i, Item& item) {
  const auto& t = m.tokens;
  int braces = 0, parens = 0;
  bool function = false;
  size_t j = i;
  for (; j < t.size(); ++j) {
    if (t[j].kind == Tok::Word && braces == 0 && parens == 0) {
      std::string_view w = m.word(j);
      if (w == ".func" || w == ".entry") function = true, item.entry = w == ".entry";
    }
    if (t[j].kind != Tok::Punct) continue;
    char c = m.text[t[j].begin];
    if (c == '(') ++parens;
    if (c == ')') --parens;
    if (c == '{') {
      if (braces == 0 && function && parens == 0) item.defined = true, item.declarationEnd = j;
      ++braces;
    }
    if (c == '}' && --braces == 0 && function && item.defined) break;
    if (c == ';' && braces == 0 && parens == 0) break;
  }
  item.last = std::min(j + 1, t.size());
  item.kind = function ? ItemKind::Function : ItemKind::Other;
  // Linkage, kind and name.
  braces = parens = 0;
  bool afterFunc = false, variable = false;
  for (size_t k = i; k < item.last; ++k) {
    if (t[k].kind == Tok::Punct) {
      char c = m.text[t[k].begin];
      if (c == '(' || c == '[' || c == '{') ++parens;
      if (c == ')' || c == ']' || c == '}') --parens;
      if (parens == 0 && (c == '=' || c == ';')) {
        if (!function) item.declarationEnd = k;
        break;
      }
      if (c == '{') break;
      continue;
    }
    if (t[k].kind != Tok::Word || parens != 0) continue;
    std::string_view w = m.word(k);
    if (item.name.empty()) {
      if (w == ".extern") item.linkage = Link::Extern, item.linkageToken = k;
      if (w == ".visible") item.linkage = Link::Visible, item.linkageToken = k;
      if (w == ".weak") item.linkage = Link::Weak, item.linkageToken = k;
      if (w == ".common") item.linkage = Link::Common, item.linkageToken = k;
      if (w == ".global" || w == ".const" || w == ".shared" || w == ".tex" || w == ".local") {
        variable = !function;
        item.sharedSpace = w == ".shared";
      }
      if (w == ".func" || w == ".entry") afterFunc = true;
    }
    if (item.name.empty() && (afterFunc || variable) && isIdentifier(w)) item.name = std::string(w);
    if (!item.name.empty() && function) break;
  }
  if (variable) {
    item.kind = ItemKind::Variable;
    item.defined = item.linkage != Link::Extern;
  }
  if (item.name.empty() && item.kind != ItemKind::Other) item.kind = ItemKind::Other;
}

Module parseModule(std::string name, std::string_view text) {
  Module m;
  m.name = std::move(name);
  m.text = text;
  m.tokens = tokenize(text);
  const auto& t = m.tokens;
  size_t i = 0;
  while (i < t.size()) {
    Item item;
    item.first = i;
    if (t[i].kind != Tok::Word && !(t[i].kind == Tok::Punct)) {
      item.last = i + 1;
    } else {
      std::string_view w = m.word(i);
      auto toEndOfLine = [&] {
        size_t j = i;
        while (j < t.size() && t[j].kind != Tok::Newline) ++j;
        return j;
      };
      if (w == ".version" || w == ".target" || w == ".address_size" || w == ".file") {
        item.kind = w == ".version"        ? ItemKind::Version
                    : w == ".target"       ? ItemKind::Target
                    : w == ".address_size" ? ItemKind::AddressSize
                                           : ItemKind::File;
        item.last = toEndOfLine();
      } else if (w == ".section") {
        item.kind = ItemKind::Section;
        size_t j = i;
        int braces = 0;
        for (; j < t.size(); ++j) {
          if (m.isPunct(j, '{')) ++braces;
          if (m.isPunct(j, '}') && --braces == 0) break;
        }
        item.last = std::min(j + 1, t.size());
      } else {
        parseStatement(m, i, item);
      }
    }
    // .file indices, wherever they are declared.
    for (size_t k = item.first; k < item.last; ++k) {
      if (t[k].kind != Tok::Word || m.word(k) != ".file") continue;
      size_t n = k + 1;
      while (n < t.size() && t[n].kind == Tok::Space) ++n;
      if (isDigits(m.word(n)))
        m.maxFile = std::max(m.maxFile, static_cast<uint32_t>(std::stoul(std::string(m.word(n)))));
    }
    i = std::max(item.last, i + 1);
    m.items.push_back(std::move(item));
  }
  return m;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// The operand text of a header directive (".version 9.0" -> "9.0").
std::string directiveArgument(const Module& m, const Item& item) {
  std::string text = m.textOf(item.first, item.last);
  size_t space = text.find_first_of(" \t");
  return space == std::string::npos ? std::string{} : trim(std::string_view(text).substr(space));
}

// The merged header: the newest .version, the most demanding .target (the
// highest sm_, its a/f suffix, every option) and the one .address_size.
struct Header {
  uint32_t versionMajor = 0, versionMinor = 0;
  std::string version;
  uint32_t sm = 0;
  std::string smText;
  std::vector<std::string> options;
  std::string addressSize;
};

bool mergeHeader(const std::vector<Module>& modules, Header& h, std::vector<std::string>& errors) {
  for (const Module& m : modules) {
    std::string address = "32";  // PTX's default when the directive is missing
    for (const Item& item : m.items) {
      if (item.kind == ItemKind::Version) {
        std::string v = directiveArgument(m, item);
        uint32_t major = 0, minor = 0;
        size_t dot = v.find('.');
        if (dot != std::string::npos) {
          major = static_cast<uint32_t>(std::strtoul(v.substr(0, dot).c_str(), nullptr, 10));
          minor = static_cast<uint32_t>(std::strtoul(v.substr(dot + 1).c_str(), nullptr, 10));
        }
        if (h.version.empty() || major > h.versionMajor ||
            (major == h.versionMajor && minor > h.versionMinor)) {
          h.versionMajor = major, h.versionMinor = minor, h.version = v;
        }
      } else if (item.kind == ItemKind::Target) {
        std::string list = directiveArgument(m, item);
        size_t begin = 0;
        while (begin <= list.size()) {
          size_t comma = list.find(',', begin);
          std::string part =
              trim(std::string_view(list).substr(begin, comma == std::string::npos ? comma : comma - begin));
          begin = comma == std::string::npos ? list.size() + 1 : comma + 1;
          if (part.empty()) continue;
          if (part.rfind("sm_", 0) == 0) {
            uint32_t sm = static_cast<uint32_t>(std::strtoul(part.c_str() + 3, nullptr, 10));
            char suffix = std::isalpha(static_cast<unsigned char>(part.back())) != 0 ? part.back() : 0;
            char current = h.smText.empty() || std::isdigit(static_cast<unsigned char>(h.smText.back())) != 0
                               ? 0
                               : h.smText.back();
            // An arch-specific target (sm_90a) demands more than sm_90; 'a' more than 'f'.
            if (sm > h.sm || (sm == h.sm && suffix != 0 && (current == 0 || suffix == 'a')))
              h.sm = sm, h.smText = part;
          } else if (std::find(h.options.begin(), h.options.end(), part) == h.options.end()) {
            h.options.push_back(part);
          }
        }
      } else if (item.kind == ItemKind::AddressSize) {
        address = directiveArgument(m, item);
      }
    }
    if (h.addressSize.empty()) {
      h.addressSize = address;
    } else if (address != h.addressSize) {
      errors.push_back("cannot link modules of different .address_size (" + h.addressSize + " and " +
                       address + " in " + m.name + ")");
      return false;
    }
  }
  return true;
}

// One module-scope name that is shared between modules (.visible, .weak,
// .common or .extern in at least one of them).
struct SharedSymbol {
  struct Mention {
    size_t module;
    size_t item;
  };
  std::vector<Mention> definitions;
  std::vector<Mention> declarations;
  std::optional<Mention> chosen;
  bool keepDeclaration = false;  // undefined, and left for the simulator to resolve
};

}  // namespace

bool isSystemFunction(const std::string& name) {
  return name == "vprintf" || name == "malloc" || name == "free" || name == "__assertfail" ||
         name.rfind("cuda", 0) == 0 || name.rfind("__cuda", 0) == 0;
}

std::string describeModule(size_t index, const std::string& ptx) {
  std::string name = "TU " + std::to_string(index + 1);
  Module m = parseModule(name, ptx);
  for (const Item& item : m.items) {
    if (item.kind != ItemKind::File) continue;
    size_t quote = ptx.find('"', m.tokens[item.first].begin);
    size_t close = quote == std::string::npos ? quote : ptx.find('"', quote + 1);
    if (close == std::string::npos || close >= m.tokens[item.last - 1].end) continue;
    return name + " (" + ptx.substr(quote + 1, close - quote - 1) + ")";
  }
  return name;
}

PtxLinkResult linkPtx(const std::vector<PtxLinkInput>& inputs) {
  PtxLinkResult result;
  std::vector<Module> modules;
  modules.reserve(inputs.size());
  for (const PtxLinkInput& in : inputs) modules.push_back(parseModule(in.name, in.ptx));

  Header header;
  if (!mergeHeader(modules, header, result.errors)) return result;

  // Every module-scope name: shared ones across modules, internal ones per module.
  std::map<std::string, SharedSymbol> shared;
  std::map<std::string, std::vector<size_t>> internalOwners;  // name -> modules, in order
  std::set<std::string> allNames;
  for (size_t mi = 0; mi < modules.size(); ++mi) {
    const Module& m = modules[mi];
    std::set<std::string> internalHere;
    for (size_t ii = 0; ii < m.items.size(); ++ii) {
      const Item& item = m.items[ii];
      if (item.name.empty()) continue;
      allNames.insert(item.name);
      if (item.linkage == Link::Internal) {
        if (internalHere.insert(item.name).second) internalOwners[item.name].push_back(mi);
        continue;
      }
      SharedSymbol& s = shared[item.name];
      (item.defined ? s.definitions : s.declarations).push_back({mi, ii});
    }
  }

  // Resolution: one strong definition, else the first weak (or common) one.
  for (auto& [name, s] : shared) {
    std::vector<SharedSymbol::Mention> strong;
    for (const auto& d : s.definitions) {
      if (modules[d.module].items[d.item].linkage == Link::Visible) strong.push_back(d);
    }
    if (strong.size() > 1) {
      std::string where;
      for (size_t k = 0; k < strong.size(); ++k) {
        where += (k == 0 ? "" : k + 1 == strong.size() ? " and " : ", ") + modules[strong[k].module].name;
      }
      result.errors.push_back("multiple definition of device symbol '" + name + "' (in " + where + ")");
      continue;
    }
    if (!strong.empty()) {
      s.chosen = strong.front();
    } else if (!s.definitions.empty()) {
      s.chosen = s.definitions.front();
    } else {
      const Item& first = modules[s.declarations.front().module].items[s.declarations.front().item];
      // Dynamic shared memory (.extern .shared x[]) and CUDA's own
      // libraries are never defined by the program's modules.
      if ((first.kind == ItemKind::Function && isSystemFunction(name)) ||
          (first.kind == ItemKind::Variable && first.sharedSpace)) {
        s.keepDeclaration = true;
        continue;
      }
      std::string declaredIn;
      std::set<size_t> seen;
      for (const auto& d : s.declarations) {
        if (!seen.insert(d.module).second) continue;
        declaredIn += (declaredIn.empty() ? "" : ", ") + modules[d.module].name;
      }
      result.errors.push_back("undefined reference to device symbol '" + name + "' (declared in " +
                              declaredIn + ")");
    }
  }
  if (!result.errors.empty()) return result;

  // Internal names that another module also uses are renamed in their module
  // (all of them when a shared symbol has the name, else all but the first).
  std::vector<std::map<std::string, std::string>> renames(modules.size());
  for (const auto& [name, owners] : internalOwners) {
    bool sharedToo = shared.count(name) != 0;
    if (owners.size() < 2 && !sharedToo) continue;
    for (size_t k = sharedToo ? 0 : 1; k < owners.size(); ++k) {
      std::string fresh = name + "$tu" + std::to_string(owners[k] + 1);
      while (allNames.count(fresh) != 0) fresh += "$";
      allNames.insert(fresh);
      renames[owners[k]][name] = fresh;
    }
  }

  // The linked text.
  std::string& out = result.ptx;
  out +=
      "//\n// Linked by ptxsim from " + std::to_string(modules.size()) + " PTX modules (-rdc=true)\n//\n\n";
  out += ".version " + header.version + "\n.target " + header.smText;
  for (const std::string& o : header.options) out += ", " + o;
  out += "\n.address_size " + header.addressSize + "\n";

  std::set<std::string> declared;  // shared names already declared or defined above
  uint32_t fileOffset = 0;
  for (size_t mi = 0; mi < modules.size(); ++mi) {
    const Module& m = modules[mi];
    const auto& rename = renames[mi];
    out += "\n// ptxsim: module " + std::to_string(mi + 1) + " of " + std::to_string(modules.size()) + ": " +
           m.name + "\n";
    // Copies tokens [first, last), renaming and renumbering .file indices;
    // `linkageAs` replaces the linkage directive at `linkageToken`.
    auto emit = [&](size_t first, size_t last, size_t linkageToken, std::string_view linkageAs) {
      bool fileIndexNext = false;
      for (size_t k = first; k < last; ++k) {
        const Token& t = m.tokens[k];
        std::string_view w = m.text_of(t);
        if (t.kind == Tok::Space || t.kind == Tok::Newline || t.kind == Tok::Comment) {
          out += w;
          continue;
        }
        if (k == linkageToken) {
          out += linkageAs;
        } else if (t.kind == Tok::Word && fileIndexNext && isDigits(w)) {
          out += std::to_string(std::stoul(std::string(w)) + fileOffset);
        } else if (auto it = t.kind == Tok::Word ? rename.find(std::string(w)) : rename.end();
                   it != rename.end()) {
          out += it->second;
        } else {
          out += w;
        }
        fileIndexNext = t.kind == Tok::Word && (w == ".loc" || w == ".file" || w == "inlined_at");
      }
    };
    for (size_t ii = 0; ii < m.items.size(); ++ii) {
      const Item& item = m.items[ii];
      switch (item.kind) {
        case ItemKind::Version:
        case ItemKind::Target:
        case ItemKind::AddressSize: continue;  // the merged header stands for them
        case ItemKind::Section: continue;      // DWARF: not linked (the simulator reads .file/.loc only)
        default: break;
      }
      if (item.name.empty() || item.linkage == Link::Internal) {
        emit(item.first, item.last, SIZE_MAX, {});
        continue;
      }
      const SharedSymbol& s = shared.at(item.name);
      bool isChosen = s.chosen && s.chosen->module == mi && s.chosen->item == ii;
      bool first = declared.insert(item.name).second;
      if (isChosen) {
        emit(item.first, item.last, SIZE_MAX, {});
      } else if (!first) {
        continue;  // declared above, or a weak definition that lost
      } else if (!item.defined) {
        emit(item.first, item.last, SIZE_MAX, {});  // the first declaration: uses below need it
      } else {
        // A weak definition that lost, mentioned here first: declare the
        // symbol in its place so this module's uses still resolve.
        size_t end = item.declarationEnd > item.first ? item.declarationEnd : item.last;
        emit(item.first, end, item.linkageToken,
             item.kind == ItemKind::Variable ? ".extern" : m.word(item.linkageToken));
        out += ";";
      }
    }
    fileOffset += m.maxFile;
  }
  return result;
}

}  // namespace ptxsim::runtime
