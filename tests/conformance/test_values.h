#pragma once

// The inputs of a form's kernel: for each source, values where hardware and
// textbooks part (signed zeros, denormals, infinities, NaNs with payloads and
// either sign, integer extremes, shift counts past the width, halfway cases
// of every rounding), combined across the sources, then pseudo-random ones.
// A register form of one scalar 16-bit source gets every one of the 65536
// inputs instead; one of two to four float sources also gets every
// placement of 1, two quiet NaNs and a signaling NaN over its sources
// (which NaN comes out depends on where each is).
// Deterministic: the same form always gets the same inputs.

#include <cstdint>
#include <string>
#include <vector>

#include "form.h"

namespace ptxsim::conformance {

// The special values of one type, as the low bits of a 64-bit slot.
std::vector<uint64_t> specialValues(isa::DataType type);

// One record per thread: sources() slots of 8 bytes (a carry-in, when the
// form has one, last), little-endian, in the order of the form's sources.
struct Inputs {
  uint32_t records = 0;
  std::vector<uint64_t> slots;  // records x sources()
};

Inputs inputsFor(const Form& form);

// A warp collective's inputs (FormKind::Warp): whole warps, lane patterns
// crossed with member masks; slot 0 of each lane is its warp's member mask.
Inputs warpInputs(const Form& form);

// SplitMix64 seeded by a form's name: the pseudo-random inputs of the form.
class FormRandom {
 public:
  explicit FormRandom(const std::string& formName);
  uint64_t next();

 private:
  uint64_t state_;
};

}  // namespace ptxsim::conformance
