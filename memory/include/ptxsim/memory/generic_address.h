#pragma once

// The simulated GPU's generic (flat) address space: where the per-CTA
// shared window, the per-thread local window and the kernel-parameter
// window sit, so that cvta,
// isspacep and generic loads and stores can tell the spaces apart. Global
// memory is everything outside the windows.

#include <cstdint>
#include <optional>

namespace ptxsim::memory {

enum class Window : uint8_t { Global, Shared, Local, Param };

struct GenericLayout {
  // Both windows lie below the lowest global allocation address, as on
  // NVIDIA GPUs, and each is large enough for any legal size.
  uint64_t sharedBase = 0x0000'7000'0000'0000ull;
  uint64_t sharedSize = uint64_t{1} << 32;
  uint64_t localBase = 0x0000'7100'0000'0000ull;
  uint64_t localSize = uint64_t{1} << 32;
  // Kernel parameters, for cvta.param (PTX 7.7+): read-only.
  uint64_t paramBase = 0x0000'7180'0000'0000ull;
  uint64_t paramSize = uint64_t{1} << 32;
};

// Which window a generic address falls in.
Window classify(const GenericLayout& layout, uint64_t generic);

// cvta.shared / cvta.local: a window offset to its generic address.
uint64_t toGeneric(const GenericLayout& layout, Window window, uint64_t offset);

// cvta.to.shared / cvta.to.local: the window offset of a generic address,
// or nullopt when it is not inside that window.
std::optional<uint64_t> fromGeneric(const GenericLayout& layout, Window window, uint64_t generic);

}  // namespace ptxsim::memory
