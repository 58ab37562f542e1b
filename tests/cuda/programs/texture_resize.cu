// A texture-based image resize: a 13x9 uchar4 image in a CUDA array, read
// through a normalized-coordinate, bilinear, normalized-float texture, and
// resized to 32x20 and down to 6x4; each output pixel is rounded back to
// uchar4. Prints a checksum of each result and a few pixels with the raw
// float bits of their channels.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "texel_print.h"

__global__ void resize(cudaTextureObject_t tex, int width, int height, uchar4* out, float4* raw) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float u = (x + 0.5f) / width;
  float v = (y + 0.5f) / height;
  float4 c = tex2D<float4>(tex, u, v);
  raw[y * width + x] = c;
  out[y * width + x] = make_uchar4(static_cast<unsigned char>(__float2int_rn(c.x * 255.f)),
                                   static_cast<unsigned char>(__float2int_rn(c.y * 255.f)),
                                   static_cast<unsigned char>(__float2int_rn(c.z * 255.f)),
                                   static_cast<unsigned char>(__float2int_rn(c.w * 255.f)));
}

int resizeTo(cudaTextureObject_t tex, int width, int height) {
  uchar4* out = nullptr;
  float4* raw = nullptr;
  CHECK(cudaMalloc(&out, width * height * sizeof(uchar4)));
  CHECK(cudaMalloc(&raw, width * height * sizeof(float4)));
  dim3 block(8, 8);
  dim3 grid((width + 7) / 8, (height + 7) / 8);
  resize<<<grid, block>>>(tex, width, height, out, raw);
  CHECK(cudaGetLastError());
  std::vector<uchar4> h(width * height);
  std::vector<float4> r(width * height);
  CHECK(cudaMemcpy(h.data(), out, h.size() * sizeof(uchar4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r.data(), raw, r.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  // FNV-1a over the 8-bit pixels, and over the float bits.
  uint32_t pixelHash = 2166136261u, floatHash = 2166136261u;
  uint64_t sum = 0;
  for (int i = 0; i < width * height; ++i) {
    const unsigned char c[4] = {h[i].x, h[i].y, h[i].z, h[i].w};
    for (unsigned char b : c) {
      pixelHash = (pixelHash ^ b) * 16777619u;
      sum += b;
    }
    const float f[4] = {r[i].x, r[i].y, r[i].z, r[i].w};
    for (float v : f) floatHash = (floatHash ^ bits(v)) * 16777619u;
  }
  std::printf("resize to %dx%d: pixel sum %llu, pixel hash %08x, float hash %08x\n", width, height,
              static_cast<unsigned long long>(sum), pixelHash, floatHash);
  const int picks[][2] = {{0, 0}, {width - 1, 0}, {width / 2, height / 2}, {width / 3, height - 1}, {width - 1, height - 1}};
  for (const auto& p : picks) {
    const int i = p[1] * width + p[0];
    std::printf("  (%d,%d): %3d %3d %3d %3d  %.6f(%08x) %.6f(%08x) %.6f(%08x) %.6f(%08x)\n", p[0], p[1], h[i].x, h[i].y,
                h[i].z, h[i].w, r[i].x, bits(r[i].x), r[i].y, bits(r[i].y), r[i].z, bits(r[i].z), r[i].w,
                bits(r[i].w));
  }
  CHECK(cudaFree(out));
  CHECK(cudaFree(raw));
  return 0;
}

int main() {
  const int w = 13, h = 9;
  std::vector<uchar4> image(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      image[y * w + x] = make_uchar4((x * 255) / (w - 1), (y * 255) / (h - 1), ((x ^ y) * 37) % 256,
                                     (x + y) % 2 ? 255 : 128);
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &fmt, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, image.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;
  desc.filterMode = cudaFilterModeLinear;
  desc.readMode = cudaReadModeNormalizedFloat;
  desc.normalizedCoords = 1;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
  if (resizeTo(tex, 32, 20) || resizeTo(tex, 6, 4)) return 1;
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(array));
  std::printf("done\n");
  return 0;
}
