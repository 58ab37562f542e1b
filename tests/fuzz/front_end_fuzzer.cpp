// libFuzzer target for the whole front end: any byte string goes through
// lexing, parsing and lowering; it must end in a module or in errors, never
// in a crash, a sanitizer report or a hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ptxsim/isa/lower.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ptxsim::isa::CompileResult result = ptxsim::isa::compilePtx(text);
  if (result.ok() != (result.module != nullptr)) __builtin_trap();
  return 0;
}
