#include "ptxsim/runtime/check.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ptxsim/runtime/logging.h"
#include "ptxsim/runtime/ptx_linker.h"
#include "ptxsim/runtime/relocatable.h"
#include "ptxsim/sim/gpu.h"
#include "ptxsim/sim/gpu_presets.h"

namespace ptxsim::runtime {

namespace {

// The text of 1-based line `line`, or empty.
std::string_view lineOf(std::string_view source, uint32_t line) {
  size_t begin = 0;
  for (uint32_t l = 1; l < line; ++l) {
    size_t newline = source.find('\n', begin);
    if (newline == std::string_view::npos) return {};
    begin = newline + 1;
  }
  size_t end = source.find('\n', begin);
  return source.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

std::string versionText(uint32_t v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }

}  // namespace

void printDiagnostic(std::ostream& err, std::string_view path, std::string_view source,
                     const isa::Diagnostic& d) {
  err << path << ':' << d.where.line << ':' << d.where.column << ": error: " << d.message << '\n';
  std::string_view text = lineOf(source, d.where.line);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  // Very long lines are shown as a window around the column.
  constexpr size_t kWindow = 160;
  size_t column = d.where.column == 0 ? 0 : d.where.column - 1;
  size_t start = column > kWindow / 2 ? column - kWindow / 2 : 0;
  if (start > text.size()) start = text.size();
  std::string shown(text.substr(start, kWindow));
  for (char& c : shown) {
    auto u = static_cast<unsigned char>(c);
    if (c != '\t' && (u < 0x20 || u >= 0x7f)) c = '?';
  }
  err << "  " << (start > 0 ? "..." : "") << shown << (start + kWindow < text.size() ? "..." : "") << '\n';
  std::string caret(start > 0 ? 3 : 0, ' ');
  for (size_t i = start; i < column && i < text.size(); ++i) caret += text[i] == '\t' ? '\t' : ' ';
  err << "  " << caret << "^\n";
}

namespace {

// Checks one PTX text; `path` names it in messages.
int checkSource(const std::string& path, const std::string& source, std::ostream& out, std::ostream& err,
                const CheckOptions& options) {
  isa::CompileResult result = isa::compilePtx(source);
  if (!result.ok()) {
    for (const isa::Diagnostic& d : result.errors) printDiagnostic(err, path, source, d);
    return 1;
  }
  const isa::Module& m = *result.module;
  if (options.executable) {
    std::vector<std::string> unsupported = sim::unsupportedInstructions(m);
    for (const std::string& line : unsupported) err << path << ": error: " << line << '\n';
    if (!unsupported.empty()) return 1;
  }
  size_t kernels = m.kernelCount();
  size_t functions = 0;
  for (const isa::Function& f : m.functions) functions += !f.isKernel && f.isDefined ? 1 : 0;
  std::string target =
      "sm_" + std::to_string(m.target.sm) + (m.target.suffix ? std::string(1, m.target.suffix) : "");
  out << path << ": PTX " << versionText(m.ptxVersion) << ", target " << target << ", " << kernels
      << (kernels == 1 ? " kernel, " : " kernels, ") << functions
      << (functions == 1 ? " function, " : " functions, ") << m.instructionCount() << " instructions\n";
  return 0;
}

// Links PTX modules as nvlink links -rdc=true code and checks the result as
// one module named `name`.
int checkLinked(const std::string& name, const std::vector<PtxLinkInput>& modules, std::ostream& out,
                std::ostream& err, const CheckOptions& options) {
  PtxLinkResult linked = linkPtx(modules);
  for (const std::string& e : linked.errors) err << name << ": error: " << e << '\n';
  if (!linked.ok()) return 1;
  return checkSource(name, linked.ptx, out, err, options);
}

// A program nvcc built: the PTX of its relocatable device code (-rdc=true),
// linked, else every fat binary's PTX in .nv_fatbin.
int checkProgram(const std::string& path, std::ostream& out, std::ostream& err, const CheckOptions& options) {
  sim::GpuConfig gpu;
  std::string error;
  if (!sim::loadPreset(options.config, options.presetDirectory, gpu, error)) {
    err << "error: " << error << '\n';
    return 1;
  }
  uint32_t sm = gpu.smVersion;
  std::vector<Fatbin> units;
  if (!readRelocatableFatbins(path, units, error)) {
    err << path << ": error: " << error << '\n';
    return 1;
  }
  if (!units.empty()) {
    std::vector<PtxLinkInput> modules;
    for (size_t i = 0; i < units.size(); ++i) {
      const FatbinEntry* e = units[i].bestPtx(sm);
      if (e == nullptr && isDeviceRuntime(units[i])) continue;
      if (e == nullptr) {
        err << path << ": error: relocatable unit " << i + 1 << " holds no PTX for sm_" << sm << " (it has "
            << units[i].architectures() << ")\n";
        return 1;
      }
      modules.push_back({describeModule(i, e->ptx), e->ptx});
    }
    return checkLinked(path + " (device code linked from " + std::to_string(modules.size()) + " units)",
                       modules, out, err, options);
  }
  if (!readElfFatbins(path, ".nv_fatbin", units, error)) {
    err << path << ": error: " << error << '\n';
    return 1;
  }
  auto hasPtx = [&](const Fatbin& f) { return f.bestPtx(sm) != nullptr; };
  std::string where = "fat binary ";
  if (std::none_of(units.begin(), units.end(), hasPtx)) {
    // A library that loads its kernels itself keeps them in its data.
    units.clear();
    if (!readEmbeddedFatbins(path, units, error)) {
      err << path << ": error: " << error << '\n';
      return 1;
    }
    where = "fat binary in its data ";
  }
  int status = 0;
  size_t checked = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    const FatbinEntry* e = units[i].bestPtx(sm);
    if (e == nullptr) continue;
    ++checked;
    status |= checkSource(
        path + " (" + where + std::to_string(i + 1) + ", compute_" + std::to_string(e->arch) + ")", e->ptx,
        out, err, options);
  }
  if (checked == 0) {
    err << path << ": error: the program holds no PTX for sm_" << sm << '\n';
    return 1;
  }
  return status;
}

bool isElf(const std::string& source) { return source.rfind("\177ELF", 0) == 0; }

}  // namespace

int checkFiles(const std::vector<std::string>& paths, std::ostream& out, std::ostream& err,
               const CheckOptions& options) {
  int status = 0;
  auto log = logger("check");
  std::vector<PtxLinkInput> toLink;
  for (const std::string& path : paths) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      err << path << ": error: cannot read the file\n";
      status = 1;
      continue;
    }
    std::ostringstream buffer;
    buffer << file.rdbuf();
    std::string source = std::move(buffer).str();
    log->debug("{}: {} bytes", path, source.size());
    if (isElf(source)) {
      status |= checkProgram(path, out, err, options);
    } else if (options.link) {
      toLink.push_back({path, std::move(source)});
    } else {
      status |= checkSource(path, source, out, err, options);
    }
  }
  if (!toLink.empty()) {
    std::string name;
    for (const PtxLinkInput& in : toLink) name += (name.empty() ? "" : "+") + in.name;
    status |= checkLinked(name, toLink, out, err, options);
  }
  return status;
}

}  // namespace ptxsim::runtime
