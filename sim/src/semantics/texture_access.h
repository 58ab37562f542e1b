#pragma once

// What texture and surface handlers share: resolving a handle read from a
// register to its object, and telling --check=warp-sync's texture coherence
// check which memory a texture read touched.

#include <cstdint>

#include "../checks/texture_coherence.h"
#include "../exec/exec_context.h"
#include "ptxsim/sim/texture_objects.h"

namespace ptxsim::sim::semantics {

inline const TextureObject* textureObject(const exec::ExecContext& ctx, uint64_t handle) {
  return ctx.grid.textures != nullptr ? ctx.grid.textures->texture(handle) : nullptr;
}

inline const SurfaceObject* surfaceObject(const exec::ExecContext& ctx, uint64_t handle) {
  return ctx.grid.textures != nullptr ? ctx.grid.textures->surface(handle) : nullptr;
}

// The thread of `lane` numbered over the whole grid.
inline uint64_t gridThread(const exec::ExecContext& ctx, unsigned lane) {
  return ctx.cta->linearId * ctx.grid.launch.block.count() + uint64_t{ctx.warp->index} * 32 + lane;
}

// Call for every texel (or [address, address + bytes) range) a tex/tld4
// lane reads; free unless the check is on.
inline void noteTextureRead(exec::ExecContext& ctx, uint64_t address, uint64_t bytes, unsigned lane) {
  if (ctx.grid.textureCoherence == nullptr) return;
  ctx.grid.textureCoherence->noteRead(address, bytes, *ctx.current->source, gridThread(ctx, lane));
}

// A write the step report cannot carry (more than one range per lane).
inline void noteTextureWrite(exec::ExecContext& ctx, uint64_t address, uint64_t bytes, unsigned lane) {
  if (ctx.grid.textureCoherence == nullptr) return;
  ctx.grid.textureCoherence->noteWrite(address, bytes, *ctx.current->source, gridThread(ctx, lane));
}

}  // namespace ptxsim::sim::semantics
