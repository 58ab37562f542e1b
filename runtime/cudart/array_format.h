#pragma once

// Between CUDA's descriptors and the simulator's texture/surface model
// (sim/texture_objects.h): channel formats and array handles.

#include <cuda_runtime_api.h>

#include <memory>

#include "ptxsim/sim/texture_objects.h"
#include "shim_state.h"

namespace ptxsim::cudart {

// The element format of a channel descriptor; false when CUDA has no array
// format for it (3 channels, mixed widths, gaps, normalized/compressed kinds).
bool formatOf(const cudaChannelFormatDesc& desc, sim::ElementFormat& out);
cudaChannelFormatDesc descOf(const sim::ElementFormat& format);

inline uint64_t handleOf(const void* p) { return reinterpret_cast<uint64_t>(p); }
inline std::shared_ptr<const sim::CudaArray> arrayOf(cudaArray_const_t a) {
  return shimState().device().gpu().textures().array(handleOf(a));
}

}  // namespace ptxsim::cudart
