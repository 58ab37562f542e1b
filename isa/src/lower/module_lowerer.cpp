// Module-level lowering: directives, globals and functions, then the checks
// that need the whole module.

#include <algorithm>
#include <array>

#include "declarations.h"
#include "function_lowerer.h"
#include "ptxsim/grammar/module_reader.h"
#include "ptxsim/grammar/parse.h"

namespace ptxsim::isa {

namespace lowering {
namespace {

using P = gen::PtxParser;

// PTX ISA versions this front end accepts: 1.0 to 9.0.
constexpr uint32_t kNewestPtx = 90;
constexpr uint32_t kNewestSm = 121;

bool knownTarget(uint32_t sm) {
  static constexpr std::array<uint32_t, 28> kKnown{10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60,
                                                   61, 62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103};
  return std::find(kKnown.begin(), kKnown.end(), sm) != kKnown.end() || sm == 110 || sm == 120 || sm == 121;
}

class ModuleLowerer {
 public:
  explicit ModuleLowerer(LoweringContext& context) : context_(context), module_(context.module()) {}

  // Checks that need the whole module, once every item is lowered.
  void finish() {
    if (isFirstItem_) context_.error({1, 1}, "no .version directive (the file has no PTX)");
    for (const FileUse& use : fileUses_) {
      if (module_.files.count(use.file) == 0) {
        context_.error(use.where, "undeclared file " + std::to_string(use.file) + " in .loc");
      }
    }
  }

  void lowerItem(P::ModuleItemContext* item) {
    antlr4::Token* first = item->getStart();
    if (isFirstItem_ && first->getType() != P::VERSION) {
      context_.error(locationOf(first), "no .version directive before '" + first->getText() + "'");
      module_.ptxVersion = kNewestPtx;  // check the rest as the newest PTX
    }
    isFirstItem_ = false;
    bool definesSomething = item->functionDecl() != nullptr || item->declaration() != nullptr;
    if (definesSomething && module_.target.sm == 0 && !reportedNoTarget_) {
      reportedNoTarget_ = true;
      context_.error(locationOf(first), "no .target directive before the first declaration");
      module_.target.sm = kNewestSm;
    }
    if (auto* v = item->versionDirective()) return lowerVersion(v);
    if (auto* t = item->targetDirective()) return lowerTarget(t);
    if (auto* a = item->addressSizeDirective()) return lowerAddressSize(a);
    if (auto* f = item->fileDirective()) return lowerFile(f);
    if (item->sectionDirective() || item->pragmaDirective()) return;  // DWARF and pragmas carry no semantics
    if (auto* alias = item->aliasDirective()) return lowerAlias(alias);
    std::vector<P::LinkageContext*> linkage = item->linkage();
    if (auto* fn = item->functionDecl()) return lowerFunction(fn, linkage);
    lowerGlobal(item->declaration(), linkage);
  }

 private:
  void lowerVersion(P::VersionDirectiveContext* v) {
    if (sawVersionDirective_) {
      context_.error(locationOf(v), "duplicate .version directive");
      return;
    }
    sawVersionDirective_ = true;
    module_.ptxVersion = kNewestPtx;  // what the rest is checked against if this one is bad
    std::string text = v->FLOAT()->getText();
    size_t dot = text.find('.');
    uint32_t major = static_cast<uint32_t>(std::strtoul(text.substr(0, dot).c_str(), nullptr, 10));
    std::string minorText = dot == std::string::npos ? "" : text.substr(dot + 1);
    uint32_t minor = static_cast<uint32_t>(std::strtoul(minorText.c_str(), nullptr, 10));
    if (major < 1 || minorText.size() != 1 || major * 10 + minor > kNewestPtx) {
      context_.error(locationOf(v), "unsupported PTX version " + text + " (this front end reads 1.0 to 9.0)");
      return;
    }
    module_.ptxVersion = major * 10 + minor;
  }

  void lowerTarget(P::TargetDirectiveContext* t) {
    for (auto* ident : t->IDENT()) {
      std::string name = ident->getText();
      if (name == "texmode_unified") continue;
      if (name == "texmode_independent") {
        module_.target.texmodeIndependent = true;
      } else if (name == "debug") {
        module_.target.debug = true;
      } else if (name == "map_f64_to_f32") {
        module_.target.mapF64ToF32 = true;
      } else if (name.rfind("sm_", 0) == 0) {
        std::string digits = name.substr(3);
        char suffix = 0;
        if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
          suffix = digits.back();
          digits.pop_back();
        }
        bool numeric = !digits.empty() && digits.size() <= 3 &&
                       std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
        uint32_t sm = numeric ? static_cast<uint32_t>(std::stoul(digits)) : 0;
        if (!numeric || !knownTarget(sm) || (suffix != 0 && sm < 90)) {
          context_.error(locationOf(ident), "unknown target '" + name + "'");
          module_.target.sm = kNewestSm;
          continue;
        }
        module_.target.sm = sm;
        module_.target.suffix = suffix;
      } else {
        context_.error(locationOf(ident), "unknown target '" + name + "'");
        module_.target.sm = kNewestSm;
      }
    }
  }

  void lowerAddressSize(P::AddressSizeDirectiveContext* a) {
    std::string text = a->INT()->getText();
    if (text != "32" && text != "64") {
      context_.error(locationOf(a->INT()), ".address_size must be 32 or 64");
      return;
    }
    module_.addressSize = text == "32" ? 32 : 64;
  }

  void lowerFile(P::FileDirectiveContext* f) {
    auto index = parseIntegerLiteral(f->INT(0)->getText()).value_or(0);
    std::string path = f->STRING()->getText();
    module_.files[static_cast<uint32_t>(index)] = path.substr(1, path.size() - 2);
  }

  void lowerAlias(P::AliasDirectiveContext* alias) {
    std::string name = alias->IDENT(0)->getText();
    auto target = module_.symbolIndex.find(alias->IDENT(1)->getText());
    if (target == module_.symbolIndex.end()) {
      context_.error(locationOf(alias->IDENT(1)), "undefined function '" + alias->IDENT(1)->getText() + "'");
      return;
    }
    if (!module_.symbolIndex.emplace(name, target->second).second) {
      context_.error(locationOf(alias->IDENT(0)), "'" + name + "' redeclared");
    }
  }

  static Linkage linkageOf(const std::vector<P::LinkageContext*>& linkage) {
    Linkage result = Linkage::Internal;
    for (auto* l : linkage) {
      switch (l->getStart()->getType()) {
        case P::VISIBLE: result = Linkage::Visible; break;
        case P::EXTERN: result = Linkage::Extern; break;
        case P::WEAK: result = Linkage::Weak; break;
        case P::COMMON: result = Linkage::Common; break;
        default: break;
      }
    }
    return result;
  }

  uint32_t declareSymbol(const std::string& name, SymbolKind kind, uint32_t index, SourceLocation where,
                         bool allowExisting) {
    auto [it, fresh] = module_.symbolIndex.emplace(name, static_cast<uint32_t>(module_.symbols.size()));
    if (fresh) {
      module_.symbols.push_back({kind, index, kNone});
    } else if (!allowExisting) {
      context_.error(where, "'" + name + "' redeclared");
    }
    return it->second;
  }

  void lowerGlobal(P::DeclarationContext* decl, const std::vector<P::LinkageContext*>& linkage) {
    lowering::DeclaredType type = lowerDeclaredType(decl->stateSpace(), decl->declModifier(), context_);
    if (type.space == StateSpace::Reg || type.space == StateSpace::Local || type.space == StateSpace::Param) {
      context_.error(locationOf(decl), "module-scope variables must be .global, .shared, .const or .tex");
      return;
    }
    Linkage link = linkageOf(linkage);
    NameResolver resolve = [this](std::string_view name) -> std::optional<SymbolRef> {
      auto it = module_.symbolIndex.find(name);
      if (it == module_.symbolIndex.end()) return std::nullopt;
      return SymbolRef{SymbolScope::Module, it->second};
    };
    for (auto* declarator : decl->declarator()) {
      Variable var;
      if (!lowerVariable(type, declarator, context_, resolve, var)) continue;
      var.isExtern = link == Linkage::Extern;
      var.isVisible = link == Linkage::Visible;
      var.isWeak = link == Linkage::Weak || link == Linkage::Common;
      auto existing = module_.symbolIndex.find(var.name);
      if (existing != module_.symbolIndex.end()) {
        Symbol& sym = module_.symbols[existing->second];
        // An .extern declaration may be followed by the definition.
        if (sym.kind == SymbolKind::Variable && module_.globals[sym.index].isExtern && !var.isExtern) {
          module_.globals[sym.index] = std::move(var);
        } else if (!(sym.kind == SymbolKind::Variable && var.isExtern)) {
          context_.error(locationOf(declarator), "'" + var.name + "' redeclared");
        }
        continue;
      }
      auto index = static_cast<uint32_t>(module_.globals.size());
      declareSymbol(var.name, SymbolKind::Variable, index, var.where, false);
      module_.globals.push_back(std::move(var));
    }
  }

  void lowerFunction(P::FunctionDeclContext* decl, const std::vector<P::LinkageContext*>& linkage) {
    Function fn;
    fn.name = decl->IDENT()->getText();
    fn.where = locationOf(decl->IDENT());
    fn.isKernel = decl->ENTRY() != nullptr;
    fn.linkage = linkageOf(linkage);
    if (auto* returns = decl->returnParams()) {
      for (auto* p : returns->paramDecl()) fn.returns.push_back(lowerParameter(p, context_));
    }
    if (auto* params = decl->paramList()) {
      for (auto* p : params->paramDecl()) fn.params.push_back(lowerParameter(p, context_));
    }
    fn.paramBytes = layOutParameters(fn.params);
    layOutParameters(fn.returns);
    lowerDirectives(decl->functionAttribute(), fn.directives);
    fn.isDefined = decl->functionBody() != nullptr;

    uint32_t index;
    auto existing = module_.symbolIndex.find(fn.name);
    if (existing != module_.symbolIndex.end()) {
      Symbol& sym = module_.symbols[existing->second];
      if (sym.kind != SymbolKind::Function || (module_.functions[sym.index].isDefined && fn.isDefined)) {
        context_.error(fn.where, "'" + fn.name + "' redeclared");
        return;
      }
      index = sym.index;
      if (fn.isDefined) module_.functions[index] = std::move(fn);
    } else {
      index = static_cast<uint32_t>(module_.functions.size());
      declareSymbol(fn.name, SymbolKind::Function, index, fn.where, false);
      module_.functions.push_back(std::move(fn));
    }
    if (auto* body = decl->functionBody()) {
      FunctionLowerer(context_, decoder_, index, fileUses_).lowerBody(body);
    }
  }

  void lowerDirectives(const std::vector<P::FunctionAttributeContext*>& attributes, PerformanceDirectives& d) {
    for (auto* a : attributes) {
      auto ints = a->INT();
      auto value = [&](size_t i) {
        return static_cast<uint32_t>(parseIntegerLiteral(ints[i]->getText()).value_or(0));
      };
      auto dims = [&](std::array<uint32_t, 3>& out) {
        out = {1, 1, 1};
        for (size_t i = 0; i < ints.size() && i < 3; ++i) out[i] = value(i);
        if (ints.size() > 3) context_.error(locationOf(a), "at most three dimensions");
      };
      switch (a->getStart()->getType()) {
        case P::MAXNTID: dims(d.maxntid); break;
        case P::REQNTID: dims(d.reqntid); break;
        case P::REQNCTAPERCLUSTER: dims(d.reqnctapercluster); break;
        case P::MINNCTAPERSM: d.minnctapersm = value(0); break;
        case P::MAXNCTAPERSM: d.maxnctapersm = value(0); break;
        case P::MAXNREG: d.maxnreg = value(0); break;
        case P::MAXCLUSTERRANK: d.maxclusterrank = value(0); break;
        case P::EXPLICITCLUSTER: d.explicitCluster = true; break;
        case P::NORETURN: d.noReturn = true; break;
        case P::PRAGMA:
          for (auto* s : a->STRING()) d.pragmas.push_back(s->getText());
          break;
        default: break;
      }
    }
  }

  LoweringContext& context_;
  Module& module_;
  std::vector<FileUse> fileUses_;
  OpcodeDecoder decoder_;
  bool isFirstItem_ = true;
  bool sawVersionDirective_ = false;
  bool reportedNoTarget_ = false;
};

}  // namespace
}  // namespace lowering

namespace {

CompileResult lowerStreaming(std::string_view text, const CompileOptions& options, bool& syntaxFailure) {
  CompileResult result;
  auto module = std::make_shared<Module>();
  lowering::LoweringContext context(*module, result.errors, options.maxErrors);
  lowering::ModuleLowerer lowerer(context);
  // Each item is lowered as soon as it is parsed, then its tree is freed.
  grammar::ModuleItemReader reader(text);
  while (auto* item = reader.next()) {
    if (context.full()) break;
    lowerer.lowerItem(item);
  }
  syntaxFailure = reader.failed();
  lowerer.finish();
  if (result.errors.empty()) result.module = std::move(module);
  return result;
}

// The slow path, for input the fast SLL parse rejected: a full LL parse with
// error recovery. Its syntax errors are the report; if it finds none (SLL
// is weaker than LL), its tree is lowered instead.
CompileResult lowerFullParse(std::string_view text, const CompileOptions& options) {
  CompileResult result;
  grammar::ParsedModule parsed = grammar::parse(text, options.maxErrors);
  for (const grammar::SyntaxError& e : parsed.errors()) result.errors.push_back({{e.line, e.column}, e.message});
  if (!parsed.ok()) return result;
  auto module = std::make_shared<Module>();
  lowering::LoweringContext context(*module, result.errors, options.maxErrors);
  lowering::ModuleLowerer lowerer(context);
  for (auto* item : parsed.tree()->moduleItem()) {
    if (context.full()) break;
    lowerer.lowerItem(item);
  }
  lowerer.finish();
  if (result.errors.empty()) result.module = std::move(module);
  return result;
}

}  // namespace

CompileResult compilePtx(std::string_view text, const CompileOptions& options) {
  bool syntaxFailure = false;
  CompileResult result = lowerStreaming(text, options, syntaxFailure);
  if (syntaxFailure) result = lowerFullParse(text, options);
  std::stable_sort(result.errors.begin(), result.errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.where.line != b.where.line ? a.where.line < b.where.line : a.where.column < b.where.column;
  });
  return result;
}

}  // namespace ptxsim::isa
