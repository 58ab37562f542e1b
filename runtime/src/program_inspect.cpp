#include "ptxsim/runtime/program_inspect.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace ptxsim::runtime {

namespace {

template <typename T>
bool readAt(const std::vector<char>& bytes, uint64_t offset, T& out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + offset, sizeof(T));
  return true;
}

std::string stringAt(const std::vector<char>& bytes, uint64_t offset) {
  if (offset >= bytes.size()) return {};
  const char* begin = bytes.data() + offset;
  return std::string(begin, strnlen(begin, bytes.size() - offset));
}

}  // namespace

bool ProgramInfo::usesCuda() const {
  if (hasFatbin) return true;  // device code, with the runtime linked in or not
  // The runtime, the driver, and NVIDIA's libraries (each reaches the
  // driver through a runtime linked into it).
  static const char* const kCudaLibraries[] = {"libcudart.so", "libcuda.so",   "libcublas",   "libcufft",
                                               "libcurand",    "libcusparse",  "libcusolver", "libnccl",
                                               "libnvrtc",     "libnvJitLink", "libcudnn"};
  for (const std::string& n : needed) {
    for (const char* library : kCudaLibraries) {
      if (n.rfind(library, 0) == 0) return true;
    }
  }
  return false;
}

bool inspectProgram(const std::string& path, ProgramInfo& info, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the program";
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Elf64_Ehdr header{};
  if (!readAt(bytes, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return true;
  if (header.e_ident[EI_CLASS] != ELFCLASS64) {
    error = path + ": only 64-bit programs are supported";
    return false;
  }
  info.isElf = true;
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!readAt(bytes, header.e_shoff + i * header.e_shentsize, sections[i])) {
      error = path + ": truncated section headers";
      return false;
    }
  }
  if (header.e_shstrndx >= sections.size()) return true;
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  for (const Elf64_Shdr& s : sections) {
    std::string name = stringAt(bytes, names.sh_offset + s.sh_name);
    if (name == ".nv_fatbin") info.hasFatbin = true;
    if (s.sh_type != SHT_DYNAMIC || s.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[s.sh_link];
    for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= s.sh_size; off += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry{};
      if (!readAt(bytes, s.sh_offset + off, entry) || entry.d_tag == DT_NULL) break;
      if (entry.d_tag == DT_NEEDED) info.needed.push_back(stringAt(bytes, strings.sh_offset + entry.d_un.d_val));
    }
  }
  return true;
}

}  // namespace ptxsim::runtime
