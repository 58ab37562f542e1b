#pragma once

// What the executor reports for each warp instruction it runs: the facts a
// timing model or a tracer needs (which lanes ran, which unit class, the
// branch outcome, and for memory instructions the space, access size and
// every lane's address). The functional driver derives its statistics from
// the same facts; a StepObserver given in LaunchOptions sees every report.

#include <array>
#include <cstdint>
#include <vector>

#include "ptxsim/isa/module.h"

namespace ptxsim::sim {

// The state space a memory instruction names. Generic addresses are
// resolved per lane by the memory system. Texture: the texels a tex, tld4
// or tex1Dfetch read (device addresses, through the texture path).
enum class AddressSpace : uint8_t { Generic, Global, Shared, Local, Const, Param, KernelParam, Texture };

enum class AccessKind : uint8_t { None, Load, Store, Atomic };

struct StepReport {
  const isa::Instruction* instruction = nullptr;
  isa::UnitClass unit = isa::UnitClass::IntAlu;
  uint64_t cta = 0;       // linear CTA index
  uint32_t warp = 0;      // warp index within the CTA
  uint32_t active = 0;    // lanes of the warp at this PC
  uint32_t executed = 0;  // active lanes whose guard predicate held
  AccessKind access = AccessKind::None;
  AddressSpace space = AddressSpace::Generic;
  uint8_t accessBytes = 0;                      // per lane
  std::array<uint64_t, 32> addresses{};         // per executed lane, as the program gave them
  uint32_t taken = 0;     // branches: lanes that took the branch
  // Texture fetches (space Texture): every texel the executed lanes read,
  // accessBytes each, lane by lane (a filtered fetch reads up to 4 a lane
  // in 2D, 8 in 3D or across two mipmap levels; a lane outside the texture
  // may read none); addresses[lane] is the lane's first. Surface accesses
  // (suld, sust, sured): each lane's element that is in bounds. Both at the
  // addresses the caches see (block-linear for CUDA arrays of 2 or 3
  // dimensions, sim/src/texture/block_linear.h), not the functional ones.
  // Empty otherwise. texelLanes[i] is the lane of texels[i].
  std::vector<uint64_t> texels;
  std::vector<uint8_t> texelLanes;

  void addTexel(uint64_t cacheAddress, unsigned lane) {
    texels.push_back(cacheAddress);
    texelLanes.push_back(static_cast<uint8_t>(lane));
  }
  void clearTexels() {
    texels.clear();
    texelLanes.clear();
  }
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // Called after each warp instruction, on the host thread that runs the
  // CTA (concurrently from several threads when the launch uses several).
  virtual void onStep(const StepReport& report) = 0;
};

}  // namespace ptxsim::sim
