#pragma once

// The device code of a program built with -rdc=true: its registered fat
// binary holds only the nvlink-linked cubin, so the simulator links the
// translation units' own PTX (runtime/relocatable.h) into one module.

#include <cstdint>
#include <string>

namespace ptxsim::cudart {

// For the fat binary registered with `wrapper` (a __fatBinC_Wrapper_t):
// true with the linked PTX when it was linked from relocatable device code;
// false with `error` empty when there is none, or set when linking failed
// ("undefined reference to device symbol ...").
bool linkRelocatableCode(const void* wrapper, uint32_t sm, std::string& ptx, std::string& error);

}  // namespace ptxsim::cudart
