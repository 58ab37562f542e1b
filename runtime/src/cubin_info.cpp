#include "ptxsim/runtime/cubin_info.h"

#include <cstring>
#include <vector>

namespace ptxsim::runtime {

namespace {

template <typename T>
bool readAt(std::string_view image, uint64_t offset, T& value) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return true;
}

struct Section {
  uint32_t name = 0, type = 0, link = 0;
  uint64_t offset = 0, size = 0;
};

constexpr uint32_t kSymbolTableType = 2;  // SHT_SYMTAB
constexpr uint32_t kNoBitsType = 8;       // SHT_NOBITS
constexpr uint64_t kSymbolSize = 24;      // sizeof(Elf64_Sym)
// .nv.info attributes: a format byte, an attribute byte, then for the
// "sized value" format a u16 length and the value. EIATTR_REGCOUNT's value
// is a symbol index and the register count, both u32.
constexpr uint8_t kFormatSizedValue = 0x04, kFormatHalfValue = 0x03, kFormatNoValue = 0x01, kFormatByteValue = 0x02;
constexpr uint8_t kAttributeRegisterCount = 0x2f;

std::vector<Section> sections(std::string_view elf) {
  std::vector<Section> out;
  uint64_t table = 0;
  uint16_t entrySize = 0, count = 0;
  if (!readAt(elf, 0x28, table) || !readAt(elf, 0x3A, entrySize) || !readAt(elf, 0x3C, count) || entrySize < 64) {
    return out;
  }
  for (uint16_t i = 0; i < count; ++i) {
    uint64_t h = table + uint64_t{i} * entrySize;
    Section s;
    if (!readAt(elf, h, s.name) || !readAt(elf, h + 4, s.type) || !readAt(elf, h + 24, s.offset) ||
        !readAt(elf, h + 32, s.size) || !readAt(elf, h + 40, s.link)) {
      return {};
    }
    // Sections without file content (.nv.shared.*) may extend past the image.
    if (s.type == kNoBitsType) s.size = 0;
    if (s.offset > elf.size() || elf.size() - s.offset < s.size) return {};
    out.push_back(s);
  }
  return out;
}

std::string_view stringAt(std::string_view elf, const Section& table, uint32_t offset) {
  if (offset >= table.size) return {};
  std::string_view s = elf.substr(table.offset + offset, table.size - offset);
  return s.substr(0, s.find('\0'));
}

bool isElf64(std::string_view elf) {
  return elf.size() >= 64 && std::memcmp(elf.data(), "\177ELF", 4) == 0 && elf[4] == 2;
}

// The image's sections with the one that holds their names; no sections
// for an image that is not a well-formed 64-bit ELF.
struct NamedSections {
  std::vector<Section> all;
  uint16_t namesIndex = 0;
  std::string_view nameOf(std::string_view elf, const Section& s) const {
    return stringAt(elf, all[namesIndex], s.name);
  }
};

NamedSections namedSections(std::string_view elf) {
  NamedSections out;
  if (!isElf64(elf) || !readAt(elf, 0x3E, out.namesIndex)) return out;
  out.all = sections(elf);
  if (out.namesIndex >= out.all.size()) out.all.clear();
  return out;
}

}  // namespace

bool cubinDefinesSymbol(std::string_view elf, std::string_view symbol) {
  if (!isElf64(elf)) return false;
  std::vector<Section> all = sections(elf);
  for (const Section& table : all) {
    if (table.type != kSymbolTableType || table.link >= all.size()) continue;
    for (uint64_t p = table.offset; p + kSymbolSize <= table.offset + table.size; p += kSymbolSize) {
      uint32_t nameOffset = 0;
      uint16_t sectionIndex = 0;  // st_shndx: 0 (SHN_UNDEF) for a symbol only referred to
      if (readAt(elf, p, nameOffset) && readAt(elf, p + 6, sectionIndex) && sectionIndex != 0 &&
          stringAt(elf, all[table.link], nameOffset) == symbol) {
        return true;
      }
    }
  }
  return false;
}

std::map<std::string, uint32_t> cubinRegisterCounts(std::string_view elf) {
  std::map<std::string, uint32_t> counts;
  const NamedSections named = namedSections(elf);
  const std::vector<Section>& all = named.all;
  const Section* symbols = nullptr;
  const Section* info = nullptr;
  for (const Section& s : all) {
    if (s.type == kSymbolTableType && s.link < all.size()) symbols = &s;
    if (named.nameOf(elf, s) == ".nv.info") info = &s;
  }
  if (symbols == nullptr || info == nullptr) return counts;
  const Section& symbolNames = all[symbols->link];
  for (uint64_t p = info->offset; p + 2 <= info->offset + info->size;) {
    auto format = static_cast<uint8_t>(elf[p]);
    auto attribute = static_cast<uint8_t>(elf[p + 1]);
    if (format == kFormatNoValue) {
      p += 2;
    } else if (format == kFormatByteValue || format == kFormatHalfValue) {
      p += 4;
    } else if (format == kFormatSizedValue) {
      uint16_t length = 0;
      if (!readAt(elf, p + 2, length)) break;
      uint32_t symbol = 0, value = 0;
      if (attribute == kAttributeRegisterCount && length >= 8 && readAt(elf, p + 4, symbol) &&
          readAt(elf, p + 8, value) && (uint64_t{symbol} + 1) * kSymbolSize <= symbols->size) {
        uint32_t nameOffset = 0;
        if (readAt(elf, symbols->offset + uint64_t{symbol} * kSymbolSize, nameOffset)) {
          std::string_view name = stringAt(elf, symbolNames, nameOffset);
          if (!name.empty()) counts[std::string(name)] = value;
        }
      }
      p += 4 + uint64_t{length};
    } else {
      break;  // an attribute format this reader does not know: stop rather than misread
    }
  }
  return counts;
}

std::map<std::string, uint64_t> cubinCodeBytes(std::string_view elf) {
  std::map<std::string, uint64_t> bytes;
  const NamedSections named = namedSections(elf);
  constexpr std::string_view kCodePrefix = ".text.";
  for (const Section& s : named.all) {
    std::string_view name = named.nameOf(elf, s);
    if (name.size() > kCodePrefix.size() && name.substr(0, kCodePrefix.size()) == kCodePrefix) {
      bytes[std::string(name.substr(kCodePrefix.size()))] = s.size;
    }
  }
  return bytes;
}

}  // namespace ptxsim::runtime
