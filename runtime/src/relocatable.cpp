#include "ptxsim/runtime/relocatable.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <optional>

#include "ptxsim/runtime/cubin_info.h"

namespace ptxsim::runtime {

bool readFatbinSequence(const uint8_t* data, uint64_t size, std::vector<Fatbin>& out, std::string& error) {
  uint64_t offset = 0;
  while (offset + 16 <= size) {
    uint32_t magic;
    std::memcpy(&magic, data + offset, 4);
    if (magic != kFatbinMagic) {
      offset += 8;  // alignment padding
      continue;
    }
    std::optional<Fatbin> f = readFatbin(data + offset, size - offset, error);
    if (!f) {
      error = "container at offset " + std::to_string(offset) + ": " + error;
      return false;
    }
    offset += (f->bytes + 7) / 8 * 8;
    out.push_back(std::move(*f));
  }
  return true;
}

bool readRelocatableFatbins(const std::string& path, std::vector<Fatbin>& out, std::string& error) {
  return readElfFatbins(path, "__nv_relfatbin", out, error);
}

namespace {

// The contents of the sections of the ELF file at `path` that `wanted`
// accepts by name; none when it is not a 64-bit ELF file.
template <typename Wanted>
bool readElfSections(const std::string& path, Wanted wanted, std::vector<std::vector<uint8_t>>& out,
                     std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the file";
    return false;
  }
  auto readAt = [&](uint64_t offset, void* into, uint64_t bytes) {
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(static_cast<char*>(into), static_cast<std::streamsize>(bytes));
    return static_cast<uint64_t>(in.gcount()) == bytes;
  };
  Elf64_Ehdr header{};
  if (!readAt(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64) {
    return true;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!readAt(header.e_shoff + i * header.e_shentsize, &sections[i], sizeof(Elf64_Shdr))) {
      error = path + ": truncated section headers";
      return false;
    }
  }
  if (header.e_shstrndx >= sections.size()) return true;
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  std::string nameTable(names.sh_size, '\0');
  if (!readAt(names.sh_offset, nameTable.data(), names.sh_size)) {
    error = path + ": truncated section names";
    return false;
  }
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_name >= nameTable.size() || !wanted(std::string(nameTable.c_str() + s.sh_name))) continue;
    std::vector<uint8_t> bytes(s.sh_size);
    if (s.sh_type == SHT_NOBITS || !readAt(s.sh_offset, bytes.data(), s.sh_size)) {
      error = path + ": cannot read the section " + std::string(nameTable.c_str() + s.sh_name);
      return false;
    }
    out.push_back(std::move(bytes));
  }
  return true;
}

}  // namespace

bool readElfFatbins(const std::string& path, const std::string& section, std::vector<Fatbin>& out,
                    std::string& error) {
  std::vector<std::vector<uint8_t>> contents;
  if (!readElfSections(
          path, [&](const std::string& name) { return name == section; }, contents, error))
    return false;
  for (const std::vector<uint8_t>& bytes : contents) {
    if (!readFatbinSequence(bytes.data(), bytes.size(), out, error)) {
      error = path + ": " + section + ": " + error;
      return false;
    }
  }
  return true;
}

bool readEmbeddedFatbins(const std::string& path, std::vector<Fatbin>& out, std::string& error) {
  auto isData = [](const std::string& name) {
    return name == ".rodata" || name == ".lrodata" || name == ".data" || name == ".ldata" ||
           name == ".data.rel.ro";
  };
  std::vector<std::vector<uint8_t>> contents;
  if (!readElfSections(path, isData, contents, error)) return false;
  for (const std::vector<uint8_t>& bytes : contents) {
    // Containers are 8-byte aligned in memory, but a section need not start
    // on such an address, so every 4 bytes are tried; data that merely
    // looks like a container's header is passed over.
    uint64_t offset = 0;
    while (offset + 16 <= bytes.size()) {
      uint32_t magic;
      uint16_t version, headerSize;
      std::memcpy(&magic, bytes.data() + offset, 4);
      std::memcpy(&version, bytes.data() + offset + 4, 2);
      std::memcpy(&headerSize, bytes.data() + offset + 6, 2);
      std::string ignored;
      std::optional<Fatbin> f;
      if (magic == kFatbinMagic && version == 1 && headerSize == 16) {
        f = readFatbin(bytes.data() + offset, bytes.size() - offset, ignored);
      }
      if (!f) {
        offset += 4;
        continue;
      }
      offset += (f->bytes + 3) / 4 * 4;
      out.push_back(std::move(*f));
    }
  }
  return true;
}

bool isDeviceRuntime(const Fatbin& unit) {
  for (const FatbinEntry& e : unit.entries) {
    if (e.kind == FatbinEntryKind::Cubin && cubinDefinesSymbol(e.image, "__cudaCDP2GetParameterBufferV2")) {
      return true;
    }
  }
  return false;
}

PtxLinkResult linkRelocatableFatbins(const std::vector<Fatbin>& units, uint32_t sm) {
  std::vector<PtxLinkInput> inputs;
  PtxLinkResult result;
  for (size_t i = 0; i < units.size(); ++i) {
    const FatbinEntry* entry = units[i].bestPtx(sm);
    if (entry == nullptr && isDeviceRuntime(units[i])) continue;
    if (entry == nullptr) {
      result.errors.push_back("TU " + std::to_string(i + 1) +
                              " of the relocatable device code holds no PTX the sm_" + std::to_string(sm) +
                              " can run (it has " + units[i].architectures() + ")");
      continue;
    }
    inputs.push_back({describeModule(i, entry->ptx), entry->ptx});
  }
  if (!result.errors.empty()) return result;
  return linkPtx(inputs);
}

}  // namespace ptxsim::runtime
