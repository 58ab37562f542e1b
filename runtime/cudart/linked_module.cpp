#include "linked_module.h"

#include <link.h>

#include "ptxsim/runtime/relocatable.h"

namespace ptxsim::cudart {

namespace {

struct Wrapper {
  int magic;
  int version;
  const unsigned long long* data;
  void* filenameOrFatbins;
};

// The file of the loaded ELF object (the program or a shared library) whose
// segments hold `address`; empty if none does.
std::string objectContaining(const void* address) {
  struct Search {
    uintptr_t address;
    std::string path;
    bool found = false;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          uintptr_t begin = info->dlpi_addr + p.p_vaddr;
          if (p.p_type != PT_LOAD || s->address < begin || s->address >= begin + p.p_memsz) continue;
          // The program itself has no name here.
          s->path =
              info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name : "/proc/self/exe";
          s->found = true;
          return 1;
        }
        return 0;
      },
      &search);
  return search.path;
}

}  // namespace

bool linkRelocatableCode(const void* wrapper, uint32_t sm, std::string& ptx, std::string& error) {
  const auto* w = static_cast<const Wrapper*>(wrapper);
  if (w == nullptr) return false;
  std::vector<runtime::Fatbin> units;
  if (w->version == 2 && w->filenameOrFatbins != nullptr) {
    // nvcc's link stub (crt/link.stub) hands over the units it linked: a
    // null-terminated array of their fat binaries (__cudaPrelinkedFatbins).
    for (auto* const* unit = static_cast<void* const*>(w->filenameOrFatbins); *unit != nullptr; ++unit) {
      std::optional<runtime::Fatbin> f =
          runtime::readFatbin(static_cast<const uint8_t*>(*unit), UINT64_MAX, error);
      if (!f) {
        error = "relocatable device code of unit " + std::to_string(units.size() + 1) + ": " + error;
        return false;
      }
      units.push_back(std::move(*f));
    }
  } else {
    // Else every unit of the object that holds the wrapper.
    std::string path = objectContaining(wrapper);
    if (path.empty() || !runtime::readRelocatableFatbins(path, units, error)) return false;
  }
  if (units.empty()) return false;
  runtime::PtxLinkResult r = runtime::linkRelocatableFatbins(units, sm);
  if (!r.ok()) {
    for (const std::string& e : r.errors) error += (error.empty() ? "" : "\nptxsim: error: ") + e;
    return false;
  }
  ptx = std::move(r.ptx);
  return true;
}

}  // namespace ptxsim::cudart
