#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim {

// The H100's pipelines: latency from dependent chains, interval from the
// throughput of independent instructions of one warp per sub-partition
// (tests/timing/calibration/h100: alu_latency.out, alu_throughput.out).
TimingConfig::TimingConfig() {
  pipeline(Pipeline::Fp32) = {4, 1};        // FADD/FMUL/FFMA: 4 cycles; 4 warp instructions per cycle per SM
  pipeline(Pipeline::Int) = {4, 2};         // LOP3/SHF/IMAD: 4 cycles; 2 per cycle per SM
  pipeline(Pipeline::IntHigh) = {9, 6};     // IMAD.HI: 9 cycles; 2/3 per cycle per SM
  pipeline(Pipeline::Fp64) = {8, 2};        // DADD/DFMA: 8 cycles; 2 per cycle per SM
  pipeline(Pipeline::Fp16) = {8, 2};        // HFMA2: 8 cycles; 2 per cycle per SM
  pipeline(Pipeline::Mufu) = {17, 8};       // MUFU.EX2/RSQ: 17 cycles; 0.5 per cycle per SM
  pipeline(Pipeline::Conversion) = {4, 2};  // I2F: 4 cycles, 2 per cycle per SM (F2I takes the MUFU's 17/8)
  pipeline(Pipeline::Tensor) = {24, 4};     // HMMA m16n8k16: 24 cycles; 0.67 per cycle per SM
  pipeline(Pipeline::LoadStore) = {4, 4};   // address generation; one warp's shared access every 4 cycles
  pipeline(Pipeline::Branch) = {4, 2};      // estimate
  pipeline(Pipeline::Shuffle) = {26, 4};    // SHFL.IDX: 26 cycles; 1 per cycle per SM
  pipeline(Pipeline::Vote) = {13, 4};       // VOTE.ANY: 13 cycles; 1.14 per cycle per SM
}

const char* nameOf(Pipeline p) {
  switch (p) {
    case Pipeline::Fp32: return "fp32";
    case Pipeline::Int: return "int";
    case Pipeline::IntHigh: return "int_high";
    case Pipeline::Fp64: return "fp64";
    case Pipeline::Fp16: return "fp16";
    case Pipeline::Mufu: return "mufu";
    case Pipeline::Conversion: return "conversion";
    case Pipeline::Tensor: return "tensor";
    case Pipeline::LoadStore: return "ldst";
    case Pipeline::Branch: return "branch";
    case Pipeline::Shuffle: return "shuffle";
    case Pipeline::Vote: return "vote";
    case Pipeline::Count: break;
  }
  return "?";
}

}  // namespace ptxsim::sim
