#include "channel_format.h"

namespace ptxsim::driver {

namespace {

struct FormatInfo {
  CUarray_format format;
  int bits;
  cudaChannelFormatKind kind;
};

// The formats arrays of plain channels use.
constexpr FormatInfo kFormats[] = {
    {CU_AD_FORMAT_UNSIGNED_INT8, 8, cudaChannelFormatKindUnsigned},
    {CU_AD_FORMAT_UNSIGNED_INT16, 16, cudaChannelFormatKindUnsigned},
    {CU_AD_FORMAT_UNSIGNED_INT32, 32, cudaChannelFormatKindUnsigned},
    {CU_AD_FORMAT_SIGNED_INT8, 8, cudaChannelFormatKindSigned},
    {CU_AD_FORMAT_SIGNED_INT16, 16, cudaChannelFormatKindSigned},
    {CU_AD_FORMAT_SIGNED_INT32, 32, cudaChannelFormatKindSigned},
    {CU_AD_FORMAT_HALF, 16, cudaChannelFormatKindFloat},
    {CU_AD_FORMAT_FLOAT, 32, cudaChannelFormatKindFloat},
};

}  // namespace

bool channelFormat(CUarray_format format, unsigned channels, cudaChannelFormatDesc& desc) {
  if (channels != 1 && channels != 2 && channels != 4) return false;
  for (const FormatInfo& f : kFormats) {
    if (f.format != format) continue;
    desc = cudaChannelFormatDesc{};
    int* bits[] = {&desc.x, &desc.y, &desc.z, &desc.w};
    for (unsigned c = 0; c < channels; ++c) *bits[c] = f.bits;
    desc.f = f.kind;
    return true;
  }
  return false;
}

bool driverFormat(const cudaChannelFormatDesc& desc, CUarray_format& format, unsigned& channels) {
  channels = (desc.x != 0) + (desc.y != 0) + (desc.z != 0) + (desc.w != 0);
  for (const FormatInfo& f : kFormats) {
    if (f.bits == desc.x && f.kind == desc.f) {
      format = f.format;
      return true;
    }
  }
  return false;
}

}  // namespace ptxsim::driver
