#pragma once

// How the texture programs print what they fetch: each float as %.6f and as
// its bits in hex, so the recorded output pins every bit.

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

inline unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A title line, then one line per point with its first `channels` channels.
inline void printTexels(const char* title, const std::vector<float4>& texels, int points, int channels) {
  std::printf("%s\n", title);
  for (int i = 0; i < points; ++i) {
    const float c[4] = {texels[i].x, texels[i].y, texels[i].z, texels[i].w};
    std::printf("  %2d:", i);
    for (int k = 0; k < channels; ++k) std::printf(" %.6f(%08x)", c[k], bits(c[k]));
    std::printf("\n");
  }
}
