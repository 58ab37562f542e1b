#pragma once

// What the video GPU-truth programs (video.cu, video_simd.cu) share: the
// input triples every form runs on, and FORM, which runs one inline-PTX
// form on each of them and stores the results in order.

#include <cstdint>

// (a, b, c): word and byte edge values; the video instructions compute on
// them exactly, then saturate, merge or accumulate.
__device__ unsigned int inputs[4][3] = {{0x80000000u, 0xffffffffu, 0x7fffffffu},
                                        {0x807f80ffu, 0x7f8001ffu, 0x12345678u},
                                        {0xffffffffu, 0x00000021u, 0x00000005u},
                                        {0x00000000u, 0x00000001u, 0x80000000u}};

// One form, on each of the four input triples.
#define FORM(text)                                                                        \
  for (int t = 0; t < 4; ++t) {                                                           \
    unsigned r;                                                                           \
    asm volatile(text : "=r"(r) : "r"(inputs[t][0]), "r"(inputs[t][1]), "r"(inputs[t][2])); \
    out[n++] = r;                                                                         \
  }
