#pragma once

// Register-file bank conflicts of one instruction (TimingConfig::sm
// registerBanks): each bank gives one operand a cycle, so sources in the
// same bank are read one after another and the dispatch waits a cycle for
// each extra read. A source the warp's previous instruction read in the
// same operand slot comes from the operand reuse cache (ptxas sets its
// reuse flag) and reads no bank; one register read in two slots is read
// once.

#include <cstdint>

#include "code_layout.h"

namespace ptxsim::sim::timing {

// The cycles `current` waits beyond the first to read its operands, after
// the warp's `previous` instruction.
uint32_t bankConflictCycles(const OperandSources& current, const OperandSources& previous);

}  // namespace ptxsim::sim::timing
