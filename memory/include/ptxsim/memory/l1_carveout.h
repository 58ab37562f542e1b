#pragma once

// Since Volta the L1 and shared memory are one array per SM; the driver
// gives shared memory one of a few fixed carveouts and the rest is L1. It
// picks the smallest carveout that holds the shared memory of every CTA it
// will place on the SM, counting the 1 KiB per CTA it reserves for itself
// (Nsight Compute's "Driver Shared Memory Per Block"), so a kernel using
// none still needs 1 KiB per resident CTA. The caller adds that up.
//
// sm_90 (CUDA C++ Programming Guide, "Compute Capability 9.0", shared
// memory; the Hopper tuning guide says the same): the unified data cache
// is 256 KB and the shared-memory capacity can be 0, 8, 16, 32, 64, 100,
// 132, 164, 196 or 228 KB.

#include <array>
#include <cstdint>
#include <span>

namespace ptxsim::memory {

inline constexpr uint32_t kSm90UnifiedL1SharedBytes = 256 * 1024;
inline constexpr std::array<uint32_t, 10> kSm90SharedCarveoutsKiB{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

// The smallest carveout of `carveoutsKiB` holding `sharedBytesPerSm`, in
// bytes. Throws std::invalid_argument when none does.
uint32_t sharedCarveoutBytes(uint32_t sharedBytesPerSm,
                             std::span<const uint32_t> carveoutsKiB = kSm90SharedCarveoutsKiB);

// What is left for the L1 beside that carveout.
uint32_t l1CapacityBytes(uint32_t sharedBytesPerSm, uint32_t unifiedBytes = kSm90UnifiedL1SharedBytes,
                         std::span<const uint32_t> carveoutsKiB = kSm90SharedCarveoutsKiB);

}  // namespace ptxsim::memory
