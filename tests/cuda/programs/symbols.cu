// Module-scope variables: __constant__ and __device__ variables with and
// without initializers, reached through cudaMemcpyToSymbol/FromSymbol (with
// offsets), cudaGetSymbolAddress/Size, and from kernels.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

struct Params {
  int count;
  float scale;
  double offset;
  short tag[3];
};

__constant__ float coefficients[16];
__constant__ int constantInitialized[4] = {11, 22, 33, 44};
__constant__ Params params = {5, 1.5f, -0.25, {7, 8, 9}};
__device__ int counter = 42;
__device__ unsigned long long table[6] = {1, 1, 2, 3, 5, 8};
__device__ float results[32];
__device__ char message[16] = "hello symbols";

__global__ void evaluate() {
  int i = threadIdx.x;
  if (i >= 32) return;
  float x = static_cast<float>(i) * 0.0625f;
  float y = 0;
  for (int k = 15; k >= 0; --k) y = y * x + coefficients[k];  // Horner
  results[i] = y * params.scale + static_cast<float>(params.offset) + constantInitialized[i % 4];
  atomicAdd(&counter, 1);
  if (i < 6) table[i] *= 10 + params.tag[i % 3];
}

__global__ void shout() {
  int i = threadIdx.x;
  if (message[i] >= 'a' && message[i] <= 'z') message[i] = message[i] - 'a' + 'A';
}

int main() {
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, coefficients));
  std::printf("sizeof coefficients: %zu\n", size);
  CHECK(cudaGetSymbolSize(&size, params));
  std::printf("sizeof params: %zu\n", size);
  CHECK(cudaGetSymbolSize(&size, table));
  std::printf("sizeof table: %zu\n", size);
  CHECK(cudaGetSymbolSize(&size, message));
  std::printf("sizeof message: %zu\n", size);

  // Initial values, as the program's image holds them.
  int counterValue = 0;
  CHECK(cudaMemcpyFromSymbol(&counterValue, counter, sizeof counterValue));
  std::printf("counter initially: %d\n", counterValue);
  Params p{};
  CHECK(cudaMemcpyFromSymbol(&p, params, sizeof p));
  std::printf("params: count %d scale %.3f offset %.3f tag %d %d %d\n", p.count, p.scale, p.offset, p.tag[0],
              p.tag[1], p.tag[2]);
  int ci[4];
  CHECK(cudaMemcpyFromSymbol(ci, constantInitialized, sizeof ci));
  std::printf("constantInitialized: %d %d %d %d\n", ci[0], ci[1], ci[2], ci[3]);

  // Coefficients in two pieces: the second with an offset.
  float c[16];
  for (int k = 0; k < 16; ++k) c[k] = (k % 3 == 0 ? 1.0f : -0.5f) / static_cast<float>(k + 1);
  CHECK(cudaMemcpyToSymbol(coefficients, c, 8 * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(coefficients, c + 8, 8 * sizeof(float), 8 * sizeof(float)));
  // Overwrite one field of params in place.
  float newScale = 2.0f;
  CHECK(cudaMemcpyToSymbol(params, &newScale, sizeof newScale, offsetof(Params, scale), cudaMemcpyHostToDevice));

  evaluate<<<1, 32>>>();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float r[32];
  CHECK(cudaMemcpyFromSymbol(r, results, sizeof r));
  for (int i = 0; i < 32; i += 4) std::printf("results[%d..%d]: %.6f %.6f %.6f %.6f\n", i, i + 3, r[i], r[i + 1], r[i + 2], r[i + 3]);
  CHECK(cudaMemcpyFromSymbol(&counterValue, counter, sizeof counterValue));
  std::printf("counter after kernel: %d\n", counterValue);

  // Through the symbol's device address with ordinary copies.
  void* tableAddress = nullptr;
  CHECK(cudaGetSymbolAddress(&tableAddress, table));
  unsigned long long t[6];
  CHECK(cudaMemcpy(t, tableAddress, sizeof t, cudaMemcpyDeviceToHost));
  std::printf("table: %llu %llu %llu %llu %llu %llu\n", t[0], t[1], t[2], t[3], t[4], t[5]);
  CHECK(cudaMemset(static_cast<char*>(tableAddress) + 8, 0, 8));
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
  std::printf("table after memset of entry 1: %llu %llu %llu\n", t[0], t[1], t[2]);

  void* counterAddress = nullptr;
  CHECK(cudaGetSymbolAddress(&counterAddress, counter));
  int seven = 7;
  CHECK(cudaMemcpy(counterAddress, &seven, sizeof seven, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromSymbol(&counterValue, counter, sizeof counterValue));
  std::printf("counter after cudaMemcpy to its address: %d\n", counterValue);

  shout<<<1, 16>>>();
  CHECK(cudaGetLastError());
  char text[16];
  CHECK(cudaMemcpyFromSymbol(text, message, sizeof text, 0, cudaMemcpyDeviceToHost));
  std::printf("message: %s\n", text);
  // Device-to-device between two symbols.
  CHECK(cudaMemcpyToSymbol(message, tableAddress, 8, 0, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpyFromSymbol(text, message, sizeof text));
  std::printf("message bytes after copying table[0] in: %d %d %d %d | %s\n", text[0], text[1], text[2], text[3], text + 8);

  // Errors: a copy past the end of a symbol.
  cudaError_t e = cudaMemcpyToSymbol(coefficients, c, sizeof c, 4);
  std::printf("copy past the end: %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("cudaGetLastError again: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("done\n");
  return 0;
}
