// Register counts read from a cubin's .nv.info section, on ELF images laid
// out here as ptxas writes them (section headers, a symbol table naming the
// functions, EIATTR_REGCOUNT records among other attributes, and a NOBITS
// shared-memory section larger than the file).

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ptxsim/runtime/cubin_info.h"

namespace ptxsim::runtime {
namespace {

template <typename T>
void put(std::string& b, size_t at, T v) {
  if (b.size() < at + sizeof(T)) b.resize(at + sizeof(T), '\0');
  std::memcpy(b.data() + at, &v, sizeof(T));
}

struct SectionSpec {
  std::string name;
  uint32_t type;
  std::string content;
  uint32_t link = 0;
  uint64_t nobitsSize = 0;
};

// A minimal ELF64: header, the sections' contents, then the section table
// (index 0 null, index 1 .shstrtab, then `specs`).
std::string elf(const std::vector<SectionSpec>& specs) {
  std::string names(1, '\0');
  std::vector<uint32_t> nameOffsets;
  for (const auto& s : {std::string(".shstrtab")}) nameOffsets.push_back(static_cast<uint32_t>(names.size())), names += s + '\0';
  for (const SectionSpec& s : specs) nameOffsets.push_back(static_cast<uint32_t>(names.size())), names += s.name + '\0';
  std::string image(64, '\0');
  image[0] = 0x7f, image[1] = 'E', image[2] = 'L', image[3] = 'F', image[4] = 2, image[5] = 1;
  std::vector<uint64_t> offsets;
  offsets.push_back(image.size());
  image += names;
  for (const SectionSpec& s : specs) offsets.push_back(image.size()), image += s.content;
  uint64_t table = (image.size() + 7) / 8 * 8;
  image.resize(table, '\0');
  auto count = static_cast<uint16_t>(specs.size() + 2);
  put<uint64_t>(image, 0x28, table);
  put<uint16_t>(image, 0x3A, 64);
  put<uint16_t>(image, 0x3C, count);
  put<uint16_t>(image, 0x3E, 1);
  image.resize(table + 64 * count, '\0');
  auto header = [&](size_t index, uint32_t name, uint32_t type, uint64_t offset, uint64_t size, uint32_t link) {
    size_t h = table + 64 * index;
    put<uint32_t>(image, h, name);
    put<uint32_t>(image, h + 4, type);
    put<uint64_t>(image, h + 24, offset);
    put<uint64_t>(image, h + 32, size);
    put<uint32_t>(image, h + 40, link);
  };
  header(1, nameOffsets[0], 3, offsets[0], names.size(), 0);
  for (size_t i = 0; i < specs.size(); ++i) {
    const SectionSpec& s = specs[i];
    header(i + 2, nameOffsets[i + 1], s.type, offsets[i + 1], s.type == 8 ? s.nobitsSize : s.content.size(), s.link);
  }
  return image;
}

// Symbols named at `nameOffsets`, each defined in section `sections[i]`
// (0, undefined, where not given).
std::string symbols(const std::vector<uint32_t>& nameOffsets, const std::vector<uint16_t>& sections = {}) {
  std::string table(24, '\0');  // symbol 0 is null
  for (size_t i = 0; i < nameOffsets.size(); ++i) {
    std::string sym(24, '\0');
    put<uint32_t>(sym, 0, nameOffsets[i]);
    sym[4] = 0x12;  // global function
    put<uint16_t>(sym, 6, i < sections.size() ? sections[i] : uint16_t{0});
    table += sym;
  }
  return table;
}

std::string sizedAttribute(uint8_t attribute, uint32_t symbol, uint32_t value) {
  std::string a(4, '\0');
  a[0] = 0x04, a[1] = static_cast<char>(attribute);
  put<uint16_t>(a, 2, 8);
  put<uint32_t>(a, 4, symbol);
  put<uint32_t>(a, 8, value);
  return a;
}

TEST(CubinInfo, RegisterCountsByFunctionName) {
  std::string strtab = std::string("\0kernelA\0helper\0kernelB\0", 24);
  std::string info = sizedAttribute(0x2f, 1, 40) + sizedAttribute(0x11, 1, 0) + std::string("\x03\x1b\x10\x00", 4) +
                     sizedAttribute(0x2f, 3, 255) + std::string("\x01\x0a", 2) + sizedAttribute(0x2f, 2, 16);
  // Section indices: 2 .strtab, 3 .symtab (linked to 2), 4 .nv.info, 5 NOBITS.
  std::string image = elf({{".strtab", 3, strtab},
                           {".symtab", 2, symbols({1, 9, 16}), 2},
                           {".nv.info", 0x70000000, info},
                           {".nv.shared.kernelA", 8, "", 0, uint64_t{1} << 40}});
  auto counts = cubinRegisterCounts(image);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts["kernelA"], 40u);
  EXPECT_EQ(counts["helper"], 16u);
  EXPECT_EQ(counts["kernelB"], 255u);
}

TEST(CubinInfo, UnknownAttributeFormatStopsReading) {
  std::string strtab = std::string("\0k\0", 3);
  std::string info = sizedAttribute(0x2f, 1, 32) + std::string("\x07\x2f", 2) + sizedAttribute(0x2f, 1, 99);
  std::string image = elf({{".strtab", 3, strtab}, {".symtab", 2, symbols({1}), 2}, {".nv.info", 0x70000000, info}});
  auto counts = cubinRegisterCounts(image);
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts["k"], 32u);
}

// CUDA's device runtime defines the __cudaCDP2 functions; a program's own
// cubin only refers to them.
TEST(CubinInfo, DefinedSymbolsAreToldFromReferences) {
  std::string strtab = std::string("\0defined\0referenced\0", 20);
  std::string image = elf({{".strtab", 3, strtab},
                           {".symtab", 2, symbols({1, 9}, {4, 0}), 2},
                           {".text.defined", 1, std::string(16, '\0')}});
  EXPECT_TRUE(cubinDefinesSymbol(image, "defined"));
  EXPECT_FALSE(cubinDefinesSymbol(image, "referenced"));
  EXPECT_FALSE(cubinDefinesSymbol(image, "absent"));
  EXPECT_FALSE(cubinDefinesSymbol("not an elf image", "defined"));
}

// The timing model reads a launch's code from DRAM by these sizes
// (LoadedModule::setMachineCodeBytes).
TEST(CubinInfo, CodeBytesByFunctionFromTheTextSections) {
  std::string strtab = std::string("\0kernelA\0", 9);
  std::string image = elf({{".strtab", 3, strtab},
                           {".symtab", 2, symbols({1}, {4}), 2},
                           {".text.kernelA", 1, std::string(384, '\0')},
                           {".text.helper", 1, std::string(128, '\0')},
                           {".text", 1, std::string(16, '\0')},
                           {".nv.info.kernelA", 0x70000000, sizedAttribute(0x2f, 1, 40)}});
  auto bytes = cubinCodeBytes(image);
  ASSERT_EQ(bytes.size(), 2u);
  EXPECT_EQ(bytes["kernelA"], 384u);
  EXPECT_EQ(bytes["helper"], 128u);
  EXPECT_TRUE(cubinCodeBytes("not an elf image at all, but long enough to have a header of 64 bytes....").empty());
}

TEST(CubinInfo, MalformedImagesGiveNothing) {
  EXPECT_TRUE(cubinRegisterCounts("").empty());
  EXPECT_TRUE(cubinRegisterCounts("not an elf image at all, but long enough to have a header of 64 bytes....").empty());
  std::string strtab = std::string("\0k\0", 3);
  std::string image = elf({{".strtab", 3, strtab},
                           {".symtab", 2, symbols({1}), 2},
                           {".nv.info", 0x70000000, sizedAttribute(0x2f, 7, 32)}});  // symbol 7 does not exist
  EXPECT_TRUE(cubinRegisterCounts(image).empty());
  image.resize(image.size() - 10);  // the section table cut short
  EXPECT_TRUE(cubinRegisterCounts(image).empty());
}

}  // namespace
}  // namespace ptxsim::runtime
