// Kernel introspection as libraries and frameworks use it: cudaFuncGetName,
// cudaFuncGetParamInfo (each parameter's offset and size in the device-side
// layout, checked against the layout C++ gives the same types on the host),
// a kernel handle from cudaGetKernel used where a function is, per-device
// kernel attributes, and the cache and bank-size preferences.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "check.h"

struct Triple {
  int a, b, c;
};

struct Output {
  int c;
  double d;
  int p;
  int tripleSum;
  float vSum;
  int s;
};

__global__ void mixedParameters(char c, double d, const int* p, Triple t, float4 v, short s, Output* out) {
  out->c = c;
  out->d = d;
  out->p = *p;
  out->tripleSum = t.a + t.b + t.c;
  out->vSum = v.x + v.y + v.z + v.w;
  out->s = s;
}

extern "C" __global__ void plainName(int* out) { *out = 1; }

// The offset of each parameter in order: each at the next multiple of its
// alignment, as the CUDA ABI lays out a kernel's parameters.
template <typename T>
size_t place(size_t& next) {
  size_t offset = (next + alignof(T) - 1) / alignof(T) * alignof(T);
  next = offset + sizeof(T);
  return offset;
}

int main() {
  size_t next = 0;
  const size_t hostOffsets[] = {place<char>(next),   place<double>(next), place<const int*>(next),
                                place<Triple>(next), place<float4>(next), place<short>(next),
                                place<Output*>(next)};
  const size_t hostSizes[] = {sizeof(char),   sizeof(double), sizeof(const int*), sizeof(Triple),
                              sizeof(float4), sizeof(short),  sizeof(Output*)};

  const char* name = nullptr;
  CHECK(cudaFuncGetName(&name, reinterpret_cast<const void*>(mixedParameters)));
  std::printf("name: %s\n", name);
  CHECK(cudaFuncGetName(&name, reinterpret_cast<const void*>(plainName)));
  std::printf("name: %s\n", name);
  std::printf("cudaFuncGetName(nullptr): %s\n",
              cudaGetErrorName(cudaFuncGetName(nullptr, reinterpret_cast<const void*>(plainName))));

  int mismatches = 0;
  for (size_t i = 0; i < 7; ++i) {
    size_t offset = 0, size = 0;
    CHECK(cudaFuncGetParamInfo(reinterpret_cast<const void*>(mixedParameters), i, &offset, &size));
    bool same = offset == hostOffsets[i] && size == hostSizes[i];
    if (!same) ++mismatches;
    std::printf("parameter %zu: offset %zu, size %zu (%s)\n", i, offset, size,
                same ? "as on the host" : "DIFFERS");
  }
  size_t offset = 0, size = 0;
  std::printf("parameter 7 of 7: %s\n",
              cudaGetErrorName(
                  cudaFuncGetParamInfo(reinterpret_cast<const void*>(mixedParameters), 7, &offset, &size)));
  std::printf(
      "parameter 1 of plainName: %s\n",
      cudaGetErrorName(cudaFuncGetParamInfo(reinterpret_cast<const void*>(plainName), 1, &offset, &size)));
  cudaGetLastError();

  // A kernel handle stands wherever a kernel function does.
  cudaKernel_t handle = nullptr;
  CHECK(cudaGetKernel(&handle, mixedParameters));
  CHECK(cudaFuncGetName(&name, reinterpret_cast<const void*>(handle)));
  std::printf("handle name: %s\n", name);
  CHECK(cudaFuncGetParamInfo(reinterpret_cast<const void*>(handle), 3, &offset, &size));
  std::printf("handle parameter 3: offset %zu, size %zu\n", offset, size);
  CHECK(cudaKernelSetAttributeForDevice(handle, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024, 0));
  cudaFuncAttributes attributes{};
  CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(handle)));
  std::printf("max dynamic shared memory after cudaKernelSetAttributeForDevice: %d\n",
              attributes.maxDynamicSharedSizeBytes);
  std::printf("cudaKernelSetAttributeForDevice(device 7): %s\n",
              cudaGetErrorName(cudaKernelSetAttributeForDevice(
                  handle, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 7)));
  cudaGetLastError();

  // Preferences: accepted for a kernel, refused when out of range.
  CHECK(cudaFuncSetCacheConfig(mixedParameters, cudaFuncCachePreferShared));
  CHECK(cudaFuncSetCacheConfig(reinterpret_cast<const void*>(handle), cudaFuncCachePreferL1));
  std::printf("cudaFuncSetCacheConfig(9): %s\n",
              cudaGetErrorName(cudaFuncSetCacheConfig(reinterpret_cast<const void*>(plainName),
                                                      static_cast<cudaFuncCache>(9))));
  cudaGetLastError();

  // The launch reads every parameter at the offsets above.
  int* p = nullptr;
  Output* out = nullptr;
  CHECK(cudaMalloc(&p, sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof(Output)));
  const int pValue = 4242;
  CHECK(cudaMemcpy(p, &pValue, sizeof pValue, cudaMemcpyHostToDevice));
  mixedParameters<<<1, 1>>>('x', 2.5, p, Triple{1, 20, 300}, make_float4(0.5f, 1.5f, 2.5f, 3.5f), -12, out);
  CHECK(cudaGetLastError());
  Output h{};
  CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  bool right =
      h.c == 'x' && h.d == 2.5 && h.p == pValue && h.tripleSum == 321 && h.vSum == 8.0f && h.s == -12;
  std::printf("launch: c %d, d %.2f, p %d, triple sum %d, vector sum %.2f, s %d (%s)\n", h.c, h.d, h.p,
              h.tripleSum, h.vSum, h.s, right ? "right" : "wrong");
  CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  return mismatches == 0 && right ? 0 : 1;
}
