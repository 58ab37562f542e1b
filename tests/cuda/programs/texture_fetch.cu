// Texture objects over linear and pitched memory: tex1Dfetch of ints,
// normalized-float uchar4 and float2 elements from cudaMalloc'd memory; a
// pitch2D float texture sampled with point and linear filtering; the
// resource descriptions cudaGetTextureObjectResourceDesc gives back, and the
// sizes txq reports for pitch2D and array textures (inline PTX).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "texel_print.h"

__global__ void fetchInt(cudaTextureObject_t tex, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(tex, n - 1 - i);
}

__global__ void fetchUchar4(cudaTextureObject_t tex, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, (i * 5) % n);
}

__global__ void fetchFloat2(cudaTextureObject_t tex, int n, float2* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float2>(tex, i);
}

__global__ void samplePitch(cudaTextureObject_t tex, const float2* at, int n, float* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, at[i].x, at[i].y);
}

// txq.width/height/depth of a texture object.
__global__ void query(cudaTextureObject_t tex, int* out) {
  int w, h, d;
  asm volatile("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(tex));
  asm volatile("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(tex));
  asm volatile("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(tex));
  out[0] = w;
  out[1] = h;
  out[2] = d;
}

int printQuery(const char* what, cudaTextureObject_t tex) {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 3 * sizeof(int)));
  query<<<1, 1>>>(tex, d);
  CHECK(cudaGetLastError());
  int h[3];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  std::printf("txq %s: width %d height %d depth %d\n", what, h[0], h[1], h[2]);
  return 0;
}

void printFormat(const cudaChannelFormatDesc& f) {
  std::printf("format %d %d %d %d kind %d", f.x, f.y, f.z, f.w, static_cast<int>(f.f));
}

int linearInts() {
  const int n = 100;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i * i * 37 - 1000 * (i % 7);
  int* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, n * sizeof(int)));
  CHECK(cudaMemcpy(buffer, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buffer;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = n * sizeof(int);
  cudaTextureDesc desc{};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
  int* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  fetchInt<<<4, 32>>>(tex, n, out);
  CHECK(cudaGetLastError());
  std::vector<int> got(n);
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    bad += got[i] != host[n - 1 - i];
    sum += got[i];
  }
  std::printf("tex1Dfetch int: %d mismatches, sum %lld, first %d %d %d\n", bad, sum, got[0], got[1], got[2]);
  cudaResourceDesc back{};
  CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
  std::printf("linear resource: type %d same pointer %d size %zu ", static_cast<int>(back.resType),
              back.res.linear.devPtr == buffer, back.res.linear.sizeInBytes);
  printFormat(back.res.linear.desc);
  std::printf("\n");
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFree(out));
  CHECK(cudaFree(buffer));
  return 0;
}

int linearUchar4() {
  const int n = 12;
  std::vector<uchar4> host(n);
  for (int i = 0; i < n; ++i) host[i] = make_uchar4(i * 23, 255 - i * 19, (i * 101) % 256, i == 5 ? 255 : i);
  uchar4* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, n * sizeof(uchar4)));
  CHECK(cudaMemcpy(buffer, host.data(), n * sizeof(uchar4), cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buffer;
  res.res.linear.desc = cudaCreateChannelDesc<uchar4>();
  res.res.linear.sizeInBytes = n * sizeof(uchar4);
  cudaTextureDesc desc{};
  desc.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
  float4* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float4)));
  fetchUchar4<<<1, 32>>>(tex, n, out);
  CHECK(cudaGetLastError());
  std::vector<float4> got(n);
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(float4), cudaMemcpyDeviceToHost));
  std::printf("tex1Dfetch uchar4 normalized-float\n");
  for (int i = 0; i < n; ++i) {
    const float c[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
    std::printf("  %2d:", i);
    for (float v : c) std::printf(" %.6f(%08x)", v, bits(v));
    std::printf("\n");
  }
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFree(out));
  CHECK(cudaFree(buffer));
  return 0;
}

int linearFloat2() {
  const int n = 8;
  std::vector<float2> host(n);
  for (int i = 0; i < n; ++i) host[i] = make_float2(i * 1.25f - 3.f, 1.f / (i + 1));
  float2* buffer = nullptr;
  CHECK(cudaMalloc(&buffer, n * sizeof(float2)));
  CHECK(cudaMemcpy(buffer, host.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buffer;
  res.res.linear.desc = cudaCreateChannelDesc<float2>();
  res.res.linear.sizeInBytes = n * sizeof(float2);
  cudaTextureDesc desc{};
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
  float2* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float2)));
  fetchFloat2<<<1, 32>>>(tex, n, out);
  CHECK(cudaGetLastError());
  std::vector<float2> got(n);
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(float2), cudaMemcpyDeviceToHost));
  std::printf("tex1Dfetch float2:");
  for (int i = 0; i < n; ++i) std::printf(" (%.6f %08x, %.6f %08x)", got[i].x, bits(got[i].x), got[i].y, bits(got[i].y));
  std::printf("\n");
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFree(out));
  CHECK(cudaFree(buffer));
  return 0;
}

int pitched() {
  const int w = 5, h = 4;
  float* image = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&image, &pitch, w * sizeof(float), h));
  std::vector<float> host(w * h);
  for (int i = 0; i < w * h; ++i) host[i] = (i % w) * 1.5f + (i / w) * 10.f - 0.25f * (i % 3);
  CHECK(cudaMemcpy2D(image, pitch, host.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  cudaResourceDesc res{};
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = image;
  res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  res.res.pitch2D.width = w;
  res.res.pitch2D.height = h;
  res.res.pitch2D.pitchInBytes = pitch;
  const int n = 24;
  std::vector<float2> at(n);
  for (int i = 0; i < n; ++i) at[i] = make_float2((i % 6) * 1.1f - 0.7f, (i / 6) * 1.3f + 0.2f);
  float2* dAt = nullptr;
  float* out = nullptr;
  CHECK(cudaMalloc(&dAt, n * sizeof(float2)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(dAt, at.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  for (int linear = 0; linear < 2; ++linear) {
    cudaTextureDesc desc{};
    desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    cudaTextureObject_t tex = 0;
    CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
    samplePitch<<<1, 32>>>(tex, dAt, n, out);
    CHECK(cudaGetLastError());
    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("pitch2D float %s\n", linear ? "linear" : "point");
    for (int i = 0; i < n; ++i) std::printf("  (%.2f, %.2f): %.6f(%08x)\n", at[i].x, at[i].y, got[i], bits(got[i]));
    if (linear) {
      cudaResourceDesc back{};
      CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
      std::printf("pitch2D resource: type %d same pointer %d width %zu height %zu same pitch %d ",
                  static_cast<int>(back.resType), back.res.pitch2D.devPtr == image, back.res.pitch2D.width,
                  back.res.pitch2D.height, back.res.pitch2D.pitchInBytes == pitch);
      printFormat(back.res.pitch2D.desc);
      std::printf("\n");
      if (printQuery("pitch2D 5x4", tex)) return 1;
    }
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFree(dAt));
  CHECK(cudaFree(out));
  CHECK(cudaFree(image));
  return 0;
}

// Array textures: the resource description names the array; txq reports its size.
int arrays() {
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<short2>();
  cudaArray_t a2 = nullptr, a3 = nullptr;
  CHECK(cudaMallocArray(&a2, &fmt, 7, 3));
  CHECK(cudaMalloc3DArray(&a3, &fmt, make_cudaExtent(6, 5, 4)));
  for (cudaArray_t a : {a2, a3}) {
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc desc{};
    cudaTextureObject_t tex = 0;
    CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
    cudaResourceDesc back{};
    CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
    cudaChannelFormatDesc f{};
    cudaExtent e{};
    unsigned flags = 0;
    CHECK(cudaArrayGetInfo(&f, &e, &flags, back.res.array.array));
    std::printf("array resource: type %d same array %d extent %zu %zu %zu ", static_cast<int>(back.resType),
                back.res.array.array == a, e.width, e.height, e.depth);
    printFormat(f);
    std::printf("\n");
    if (printQuery(a == a2 ? "array 7x3" : "array 6x5x4", tex)) return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeArray(a2));
  CHECK(cudaFreeArray(a3));
  return 0;
}

int main() {
  if (linearInts() || linearUchar4() || linearFloat2() || pitched() || arrays()) return 1;
  std::printf("done\n");
  return 0;
}
