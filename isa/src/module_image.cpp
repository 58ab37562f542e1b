#include "ptxsim/isa/module_image.h"

#include <elf.h>
#include <link.h>

#include <chrono>
#include <cstring>
#include <map>
#include <type_traits>

#include "ptxsim/isa/instruction_table.h"

namespace ptxsim::isa {

namespace {

// Bumped whenever a field of the Module or its parts changes.
constexpr uint32_t kFormat = 1;
constexpr char kMagic[8] = {'p', 't', 'x', 's', 'i', 'm', 'I', 'R'};

// The GNU build ID of the binary this code was linked into (the linker's
// hash of its contents): another build of ptxsim may lower the same PTX
// differently. Empty when the binary has none.
std::string linkedBuildId() {
  struct Search {
    uintptr_t code;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(&linkedBuildId), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        bool contains = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && s->code >= start && s->code - start < ph.p_memsz) contains = true;
        }
        if (!contains) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const auto* at = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
          const uint8_t* end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(at);
            const uint8_t* name = at + sizeof(ElfW(Nhdr));
            const uint8_t* desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && desc + note->n_descsz <= end) {
              s->id.assign(reinterpret_cast<const char*>(desc), note->n_descsz);
            }
            at = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

// What ties an image to this build: the binary's build ID, the format, the
// sizes of the structures copied as bytes, and the instruction table, row
// by row (an instruction keeps its row's index). Without a build ID, the
// process's own start time stands in for it: images are then good only
// within one run.
uint64_t buildFingerprint() {
  static const uint64_t fingerprint = [] {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](const void* data, size_t size) {
      const auto* p = static_cast<const uint8_t*>(data);
      for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
    };
    std::string id = linkedBuildId();
    if (id.empty()) id = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    mix(id.data(), id.size());
    const size_t sizes[] = {sizeof(Instruction), sizeof(Operand), sizeof(RegisterInfo), sizeof(Symbol),
                            sizeof(Relocation), sizeof(ModifierSet), kFormat};
    mix(sizes, sizeof sizes);
    for (const InstructionSpec& spec : instructionTable()) {
      mix(&spec.opcode, sizeof spec.opcode);
      mix(spec.mnemonic.data(), spec.mnemonic.size());
      mix(spec.operands.data(), spec.operands.size());
      mix(&spec.minPtx, sizeof spec.minPtx);
      mix(&spec.minSm, sizeof spec.minSm);
      uint64_t groups[2] = {spec.allowed.bits(), spec.required.bits()};
      mix(groups, sizeof groups);
    }
    return h;
  }();
  return fingerprint;
}

class Writer {
 public:
  template <typename T>
  void pod(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void text(const std::string& s) {
    pod<uint64_t>(s.size());
    out_.append(s);
  }
  template <typename T>
  void pods(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    pod<uint64_t>(v.size());
    out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  template <typename T, typename F>
  void each(const std::vector<T>& v, F&& write) {
    pod<uint64_t>(v.size());
    for (const T& item : v) write(item);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool atEnd() const { return at_ == in_.size(); }

  template <typename T>
  void pod(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!take(sizeof value)) return;
    std::memcpy(&value, in_.data() + at_ - sizeof value, sizeof value);
  }
  void text(std::string& s) {
    uint64_t size = 0;
    pod(size);
    if (!take(size)) return;
    s.assign(in_.data() + at_ - size, size);
  }
  template <typename T>
  void pods(std::vector<T>& v) {
    uint64_t count = 0;
    pod(count);
    if (!ok_ || count > (in_.size() - at_) / sizeof(T)) {
      ok_ = false;
      return;
    }
    v.resize(count);
    std::memcpy(v.data(), in_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
  }
  template <typename T, typename F>
  void each(std::vector<T>& v, F&& read) {
    uint64_t count = 0;
    pod(count);
    if (!ok_ || count > in_.size() - at_) {  // every item takes a byte at least
      ok_ = false;
      return;
    }
    v.resize(count);
    for (T& item : v) {
      if (!ok_) return;
      read(item);
    }
  }

 private:
  bool take(uint64_t size) {
    if (!ok_ || size > in_.size() - at_) {
      ok_ = false;
      return false;
    }
    at_ += size;
    return true;
  }
  std::string_view in_;
  size_t at_ = 0;
  bool ok_ = true;
};

// The fields of each structure, in one place for both directions: `io` is a
// Writer (const objects) or a Reader.
template <typename IO, typename V>
void variable(IO& io, V& v) {
  io.text(v.name);
  io.pod(v.space);
  io.pod(v.type);
  io.pod(v.vectorWidth);
  io.pod(v.alignment);
  io.pod(v.elementCount);
  io.pod(v.size);
  io.pod(v.hasInitializer);
  io.pod(v.isExtern);
  io.pod(v.isVisible);
  io.pod(v.isWeak);
  io.pod(v.isManaged);
  io.pods(v.initializer);
  io.pods(v.relocations);
  io.each(v.opaqueFields, [&io](auto& field) {
    io.text(field.first);
    io.text(field.second);
  });
  io.pod(v.where);
}

template <typename IO, typename P>
void parameter(IO& io, P& p) {
  io.text(p.name);
  io.pod(p.type);
  io.pod(p.vectorWidth);
  io.pod(p.alignment);
  io.pod(p.size);
  io.pod(p.offset);
  io.pod(p.space);
  io.pod(p.pointeeSpace);
  io.pod(p.pointeeAlignment);
}

template <typename IO, typename D>
void directives(IO& io, D& d) {
  io.pod(d.maxntid);
  io.pod(d.reqntid);
  io.pod(d.reqnctapercluster);
  io.pod(d.minnctapersm);
  io.pod(d.maxnctapersm);
  io.pod(d.maxnreg);
  io.pod(d.maxclusterrank);
  io.pod(d.explicitCluster);
  io.pod(d.noReturn);
  io.each(d.pragmas, [&io](auto& s) { io.text(s); });
}

template <typename IO, typename B>
void block(IO& io, B& b) {
  io.pod(b.first);
  io.pod(b.end);
  io.pods(b.successors);
  io.pods(b.predecessors);
  io.pod(b.immediatePostDominator);
}

// An instruction: its bytes, then its row of the table as an index.
constexpr uint32_t kNoSpec = UINT32_MAX;

void writeInstructions(Writer& w, const std::vector<Instruction>& instructions) {
  std::span<const InstructionSpec> table = instructionTable();
  w.pod<uint64_t>(instructions.size());
  for (const Instruction& inst : instructions) {
    Instruction copy = inst;
    copy.spec = nullptr;
    w.pod(copy);
    w.pod(inst.spec == nullptr ? kNoSpec : static_cast<uint32_t>(inst.spec - table.data()));
  }
}

void readInstructions(Reader& r, std::vector<Instruction>& instructions) {
  std::span<const InstructionSpec> table = instructionTable();
  r.each(instructions, [&](Instruction& inst) {
    uint32_t spec = kNoSpec;
    r.pod(inst);
    r.pod(spec);
    if (spec != kNoSpec && spec >= table.size()) spec = kNoSpec;
    inst.spec = spec == kNoSpec ? nullptr : &table[spec];
  });
}

template <typename IO, typename F>
void functionFields(IO& io, F& f) {
  io.text(f.name);
  io.pod(f.isKernel);
  io.pod(f.isDefined);
  io.pod(f.linkage);
  io.each(f.params, [&io](auto& p) { parameter(io, p); });
  io.each(f.returns, [&io](auto& p) { parameter(io, p); });
  io.pod(f.paramBytes);
  directives(io, f.directives);
  io.pods(f.registers);
  io.each(f.registerNames, [&io](auto& s) { io.text(s); });
  io.each(f.locals, [&io](auto& v) { variable(io, v); });
  io.pods(f.operands);
  io.each(f.blocks, [&io](auto& b) { block(io, b); });
  io.each(f.branchTables, [&io](auto& t) { io.pods(t); });
  io.pod(f.where);
}

}  // namespace

std::string writeModuleImage(const Module& module) {
  Writer w;
  w.pod(kMagic);
  w.pod(buildFingerprint());
  w.pod(module.ptxVersion);
  w.pod(module.target);
  w.pod(module.addressSize);
  w.each(module.globals, [&w](const Variable& v) { variable(w, v); });
  w.each(module.functions, [&w](const Function& f) {
    functionFields(w, f);
    writeInstructions(w, f.instructions);
  });
  w.pods(module.symbols);
  // The maps in key order, so that one module always makes the same bytes.
  std::map<std::string_view, uint32_t> symbols(module.symbolIndex.begin(), module.symbolIndex.end());
  w.pod<uint64_t>(symbols.size());
  for (const auto& [name, index] : symbols) {
    w.text(std::string(name));
    w.pod(index);
  }
  std::map<uint32_t, std::string_view> files(module.files.begin(), module.files.end());
  w.pod<uint64_t>(files.size());
  for (const auto& [index, path] : files) {
    w.pod(index);
    w.text(std::string(path));
  }
  return w.take();
}

std::shared_ptr<const Module> readModuleImage(std::string_view bytes) {
  Reader r(bytes);
  char magic[sizeof kMagic] = {};
  uint64_t fingerprint = 0;
  r.pod(magic);
  r.pod(fingerprint);
  if (!r.ok() || std::memcmp(magic, kMagic, sizeof kMagic) != 0 || fingerprint != buildFingerprint()) return nullptr;
  auto module = std::make_shared<Module>();
  r.pod(module->ptxVersion);
  r.pod(module->target);
  r.pod(module->addressSize);
  r.each(module->globals, [&r](Variable& v) { variable(r, v); });
  r.each(module->functions, [&r](Function& f) {
    functionFields(r, f);
    readInstructions(r, f.instructions);
  });
  r.pods(module->symbols);
  uint64_t count = 0;
  r.pod(count);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    std::string name;
    uint32_t index = 0;
    r.text(name);
    r.pod(index);
    module->symbolIndex.emplace(std::move(name), index);
  }
  r.pod(count);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    uint32_t index = 0;
    std::string path;
    r.pod(index);
    r.text(path);
    module->files.emplace(index, std::move(path));
  }
  if (!r.ok() || !r.atEnd()) return nullptr;
  return module;
}

}  // namespace ptxsim::isa
