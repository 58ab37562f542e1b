// The CUDA array API beyond what the texture and surface programs use: channel
// descriptors, cudaArrayGetInfo and cudaGetChannelDesc on plain, layered and
// cubemap arrays, the asynchronous 2D copies to and from arrays on a stream,
// array-to-array copies, the error codes of wrong uses, and tex2Dgather
// (tld4) on every component.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

void showDesc(const char* what, cudaChannelFormatDesc d) {
  std::printf("%s: %d %d %d %d kind %d\n", what, d.x, d.y, d.z, d.w, static_cast<int>(d.f));
}

void showError(const char* what, cudaError_t e) {
  std::printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();  // the calls below must not see it
}

int showInfo(const char* what, cudaArray_t a) {
  cudaChannelFormatDesc d{};
  cudaExtent e{};
  unsigned flags = 0;
  CHECK(cudaArrayGetInfo(&d, &e, &flags, a));
  std::printf("%s: extent %zu %zu %zu flags %u\n", what, e.width, e.height, e.depth, flags);
  showDesc("  its format", d);
  cudaChannelFormatDesc g{};
  CHECK(cudaGetChannelDesc(&g, a));
  showDesc("  cudaGetChannelDesc", g);
  return 0;
}

__global__ void gather(cudaTextureObject_t t, float x, float y, float4* out) {
  out[0] = tex2Dgather<float4>(t, x, y, 0);
  out[1] = tex2Dgather<float4>(t, x, y, 1);
  out[2] = tex2Dgather<float4>(t, x, y, 2);
  out[3] = tex2Dgather<float4>(t, x, y, 3);
}

int channelDescriptors() {
  showDesc("char", cudaCreateChannelDesc<char>());
  showDesc("uchar2", cudaCreateChannelDesc<uchar2>());
  showDesc("short4", cudaCreateChannelDesc<short4>());
  showDesc("uint", cudaCreateChannelDesc<unsigned int>());
  showDesc("float2", cudaCreateChannelDesc<float2>());
  showDesc("half", cudaCreateChannelDescHalf());
  showDesc("half4", cudaCreateChannelDescHalf4());
  showDesc("(8, 8, 8, 8, unsigned)", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned));
  showDesc("(32, 0, 0, 0, float)", cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat));
  return 0;
}

int shapes() {
  cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
  cudaArray_t plain = nullptr, layered = nullptr, cube = nullptr, line = nullptr;
  CHECK(cudaMallocArray(&plain, &f2, 17, 5, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&line, &f2, 40));
  CHECK(cudaMalloc3DArray(&layered, &f2, make_cudaExtent(9, 3, 4), cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&cube, &f2, make_cudaExtent(8, 8, 12), cudaArrayCubemap | cudaArrayLayered));
  if (showInfo("2D 17x5 surface load/store", plain) || showInfo("1D 40", line) ||
      showInfo("layered 9x3, 4 layers", layered) || showInfo("layered cubemap 8x8, 2 layers", cube))
    return 1;
  CHECK(cudaFreeArray(plain));
  CHECK(cudaFreeArray(line));
  CHECK(cudaFreeArray(layered));
  CHECK(cudaFreeArray(cube));
  return 0;
}

int asyncCopies() {
  const int w = 6, h = 4;
  cudaChannelFormatDesc fi = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr, b = nullptr;
  CHECK(cudaMallocArray(&a, &fi, w, h));
  CHECK(cudaMallocArray(&b, &fi, w, h));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  // A source with a pitch of 8 ints, values 100 * row + column.
  std::vector<int> src(8 * h), back(w * h, -1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < 8; ++x) src[y * 8 + x] = 100 * y + x;
  CHECK(cudaMemcpy2DToArrayAsync(a, 0, 0, src.data(), 8 * sizeof(int), w * sizeof(int), h, cudaMemcpyHostToDevice, s));
  // Array to array: a 3x2 block of a at (1, 1) to b at (2, 0); the rest of b is zero.
  CHECK(cudaMemcpy2DToArrayAsync(b, 0, 0, std::vector<int>(w * h, 0).data(), w * sizeof(int), w * sizeof(int), h,
                                 cudaMemcpyHostToDevice, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy2DArrayToArray(b, 2 * sizeof(int), 0, a, 1 * sizeof(int), 1, 3 * sizeof(int), 2));
  // Back from a 2x3 window of b at (3, 1), packed.
  CHECK(cudaMemcpy2DFromArrayAsync(back.data(), 2 * sizeof(int), b, 3 * sizeof(int), 1, 2 * sizeof(int), 3,
                                   cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("window of b at (3, 1):");
  for (int i = 0; i < 6; ++i) std::printf(" %d", back[i]);
  std::printf("\n");
  CHECK(cudaMemcpy2DFromArray(back.data(), w * sizeof(int), a, 0, 0, w * sizeof(int), h, cudaMemcpyDeviceToHost));
  std::printf("row 3 of a:");
  for (int x = 0; x < w; ++x) std::printf(" %d", back[3 * w + x]);
  std::printf("\n");
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(b));
  return 0;
}

int wrongUses() {
  cudaChannelFormatDesc fi = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr, bad = nullptr;
  CHECK(cudaMallocArray(&a, &fi, 6, 4));
  std::vector<int> src(64, 1);
  showError("copy wider than the array",
            cudaMemcpy2DToArray(a, 0, 0, src.data(), 7 * sizeof(int), 7 * sizeof(int), 1, cudaMemcpyHostToDevice));
  showError("copy past the last row",
            cudaMemcpy2DToArray(a, 0, 3, src.data(), 6 * sizeof(int), 6 * sizeof(int), 2, cudaMemcpyHostToDevice));
  showError("pitch below the width",
            cudaMemcpy2DToArray(a, 0, 0, src.data(), 4, 6 * sizeof(int), 2, cudaMemcpyHostToDevice));
  showError("from array past its end",
            cudaMemcpy2DFromArray(src.data(), 24, a, 4 * sizeof(int), 0, 3 * sizeof(int), 1, cudaMemcpyDeviceToHost));
  showError("cubemap not square", cudaMalloc3DArray(&bad, &fi, make_cudaExtent(8, 4, 6), cudaArrayCubemap));
  showError("cubemap depth not 6", cudaMalloc3DArray(&bad, &fi, make_cudaExtent(8, 8, 5), cudaArrayCubemap));
  showError("width 0", cudaMallocArray(&bad, &fi, 0, 4));
  cudaChannelFormatDesc odd = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  showError("three channels", cudaMallocArray(&bad, &odd, 4, 4));
  showError("cudaArrayGetInfo of a null array", cudaArrayGetInfo(nullptr, nullptr, nullptr, nullptr));
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = nullptr;
  cudaTextureDesc td{};
  cudaTextureObject_t t = 0;
  showError("texture object on a null array", cudaCreateTextureObject(&t, &r, &td, nullptr));
  CHECK(cudaFreeArray(a));
  return 0;
}

int gatherComponents() {
  const int w = 3, h = 3;
  std::vector<float4> texels(w * h);
  for (int i = 0; i < w * h; ++i) texels[i] = make_float4(i, 10.f + i, 20.f + i, 30.f + i);
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &f4, w, h));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * sizeof(float4), w * sizeof(float4), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
  td.borderColor[0] = -1.f;
  td.borderColor[1] = -2.f;
  td.borderColor[2] = -3.f;
  td.borderColor[3] = -4.f;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  float4* d = nullptr;
  CHECK(cudaMalloc(&d, 4 * sizeof(float4)));
  const float points[][2] = {{1.2f, 1.7f}, {0.3f, 2.9f}, {2.6f, 0.4f}};
  for (const auto& p : points) {
    gather<<<1, 1>>>(t, p[0], p[1], d);
    CHECK(cudaGetLastError());
    float4 h4[4];
    CHECK(cudaMemcpy(h4, d, sizeof h4, cudaMemcpyDeviceToHost));
    for (int c = 0; c < 4; ++c)
      std::printf("gather (%.1f, %.1f) component %d: %g %g %g %g\n", p[0], p[1], c, h4[c].x, h4[c].y, h4[c].z,
                  h4[c].w);
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(d));
  CHECK(cudaFreeArray(a));
  return 0;
}

int main() {
  if (channelDescriptors() || shapes() || asyncCopies() || wrongUses() || gatherComponents()) return 1;
  std::printf("done\n");
  return 0;
}
