#pragma once

// What the timing model knows of each instruction of a kernel's functions
// before it runs: where it sits in instruction memory (for the instruction
// caches), which registers it reads in which operand slot (for the
// register-file banks), and whether ptxas makes an atomic one reduction
// per warp (warp_uniform.h). Built once per launch; read by every SM.
//
// Addresses stand in for the SASS layout: each module has its own 2^40
// bytes (InstructionCaches::moduleNumber), each function its own 16 MiB
// there (Module::functions index x 16 MiB), and each PTX
// instruction that becomes a SASS instruction takes one instruction's
// bytes, and one more for each instruction ptxas adds to it
// (sassAround). The moves ptxas removes (pipeline_of.h:
// vanishesInSass) take none.

#include <array>
#include <cstdint>
#include <vector>

#include "../exec/grid_context.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim::timing {

inline constexpr uint32_t kNoRegister = UINT32_MAX;

// The register sources of an ALU instruction by operand slot (SASS's A, B,
// C): what the operand collector reads from the banks.
struct OperandSources {
  std::array<uint32_t, 3> reg{kNoRegister, kNoRegister, kNoRegister};  // Function::registers index
  std::array<uint8_t, 3> bank{};
};

struct InstructionFacts {
  uint64_t address = 0;
  OperandSources sources;
  bool aggregatedAtomic = false;
  // ptxas's SASS around a multi-function-unit instruction (pipeline_of.h:
  // sassAround): the instructions it adds, and the whole's latency (0:
  // the pipeline's).
  uint8_t addedSass = 0;
  uint32_t latencyCycles = 0;
};

class CodeLayout {
 public:
  CodeLayout(const exec::PreparedKernel& kernel, uint32_t moduleNumber, const TimingConfig& timing);

  const InstructionFacts& of(const exec::PreparedFunction& fn, const exec::PreparedInstruction& pi) const {
    return facts_[fn.index][static_cast<size_t>(&pi - fn.code.data())];
  }
  // The bytes of SASS the kernel's functions take, each as ptxas lays one
  // out: its instructions, a branch to itself after the last, and padding
  // to the next 128 bytes. A launch with empty caches reads them from DRAM.
  uint64_t sassBytes() const { return sassBytes_; }

 private:
  std::vector<std::vector<InstructionFacts>> facts_;  // by Module::functions index, then instruction
  uint64_t sassBytes_ = 0;
};

}  // namespace ptxsim::sim::timing
