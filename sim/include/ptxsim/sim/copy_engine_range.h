#pragma once

// What a copy engine moved through the device's memory between launches
// (cudaMemset, cudaMemcpy and their forms): the timing model puts its lines
// in the L2 for the next launch to find, as the GPU's L2 keeps them
// (timing::CopyEngineLog).

#include <cstdint>

namespace ptxsim::sim {

struct CopyEngineRange {
  enum class Kind : uint8_t {
    Fill,        // `address` written by a fill: dirty lines
    DeviceCopy,  // `source` read (clean lines) and `address` written (dirty), in step
    FromHost,    // `address` written from host memory: clean lines
    ToHost,      // `address` read into host memory: clean lines
  };
  Kind kind = Kind::Fill;
  uint64_t address = 0;
  uint64_t bytes = 0;
  uint64_t source = 0;  // DeviceCopy's
};

}  // namespace ptxsim::sim
