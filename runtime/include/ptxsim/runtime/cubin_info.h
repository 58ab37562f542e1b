#pragma once

// Facts ptxas recorded in a cubin (an sm_XX ELF image from a fat binary)
// that PTX does not carry: the machine registers each kernel uses and the
// bytes of machine code each function takes.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ptxsim::runtime {

// Function name -> registers per thread, from the EIATTR_REGCOUNT records
// of the `.nv.info` section, which name functions by symbol index. Empty
// for an image that is not a well-formed 64-bit ELF.
std::map<std::string, uint32_t> cubinRegisterCounts(std::string_view elf);

// Function name -> bytes of SASS, from the sizes of its `.text.NAME`
// section (ptxas's padding after the last instruction included). Empty for
// an image that is not a well-formed 64-bit ELF.
std::map<std::string, uint64_t> cubinCodeBytes(std::string_view elf);

// Whether the image's symbol table defines `symbol` (rather than only
// referring to it); false for an image that is not a well-formed 64-bit ELF.
bool cubinDefinesSymbol(std::string_view elf, std::string_view symbol);

}  // namespace ptxsim::runtime
