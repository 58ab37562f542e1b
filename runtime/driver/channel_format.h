#pragma once

// The driver describes a texel by a format and a channel count
// (CU_AD_FORMAT_FLOAT, 4); the runtime by bits per channel and a kind
// (32, 32, 32, 32, float). Conversions both ways for the plain formats.

#include "driver_api.h"

namespace ptxsim::driver {

// False for a format or channel count the runtime cannot describe.
bool channelFormat(CUarray_format format, unsigned channels, cudaChannelFormatDesc& desc);
bool driverFormat(const cudaChannelFormatDesc& desc, CUarray_format& format, unsigned& channels);

}  // namespace ptxsim::driver
