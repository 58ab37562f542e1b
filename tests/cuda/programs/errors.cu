// Error codes: launches the device rejects (too many threads, too much
// shared memory), copies with pointers that are not device memory, the
// last-error state (cudaGetLastError clears it, cudaPeekAtLastError does
// not), names and descriptions of codes, and finally an out-of-bounds
// write in a kernel: cudaErrorIllegalAddress at the next synchronisation,
// sticky from then on.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void store(int* p, long long index, int value) { p[index] = value; }

__global__ void withShared(int* out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[blockDim.x - 1 - threadIdx.x];
}

void show(const char* what, cudaError_t e) { std::printf("%-44s %s\n", what, cudaGetErrorName(e)); }

int main() {
  int* d = nullptr;
  show("cudaMalloc", cudaMalloc(&d, 256 * sizeof(int)));

  // A block of 2048 threads: rejected at the launch, not sticky.
  store<<<1, 2048>>>(d, 0, 1);
  show("peek after 2048-thread block", cudaPeekAtLastError());
  show("peek again", cudaPeekAtLastError());
  show("get after 2048-thread block", cudaGetLastError());
  show("get again", cudaGetLastError());
  store<<<1, dim3(32, 32, 2)>>>(d, 0, 1);
  show("block 32x32x2", cudaGetLastError());
  store<<<1, dim3(1, 1, 65)>>>(d, 0, 1);
  show("block z 65", cudaGetLastError());
  store<<<dim3(1, 65536), 1>>>(d, 0, 1);
  show("grid y 65536", cudaGetLastError());
  store<<<0, 32>>>(d, 0, 1);
  show("empty grid", cudaGetLastError());

  // 64 KiB of dynamic shared memory without opting in, then 300 KiB.
  withShared<<<1, 32, 64 * 1024>>>(d);
  show("64 KiB dynamic shared, no opt-in", cudaGetLastError());
  show("cudaFuncSetAttribute 300 KiB",
       cudaFuncSetAttribute(withShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024));
  show("get after the attribute error", cudaGetLastError());
  withShared<<<1, 32, 48 * 1024>>>(d);
  show("48 KiB dynamic shared", cudaGetLastError());

  // The device still works after rejected launches.
  store<<<1, 1>>>(d, 5, 55);
  int h = 0;
  show("cudaMemcpy after rejected launches", cudaMemcpy(&h, d + 5, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("value written: %d\n", h);

  // Copies with pointers that are not device memory.
  int host[4] = {1, 2, 3, 4};
  int* freed = nullptr;
  cudaMalloc(&freed, 64);
  cudaFree(freed);
  show("cudaMemcpy to a freed pointer", cudaMemcpy(freed, host, sizeof host, cudaMemcpyHostToDevice));
  show("get", cudaGetLastError());
  show("cudaMemcpy from a freed pointer", cudaMemcpy(host, freed, sizeof host, cudaMemcpyDeviceToHost));
  show("cudaMemcpy past an allocation's end", cudaMemcpy(host, d + 254, sizeof host, cudaMemcpyDeviceToHost));
  show("cudaMemset of a freed pointer", cudaMemset(freed, 0, 16));
  show("cudaFree of a freed pointer", cudaFree(freed));
  show("cudaFree of a pointer inside an allocation", cudaFree(d + 1));
  show("cudaMemcpy with kind 42", cudaMemcpy(host, d, 4, static_cast<cudaMemcpyKind>(42)));
  show("get", cudaGetLastError());
  show("get again", cudaGetLastError());
  show("cudaSetDevice(7)", cudaSetDevice(7));
  show("get", cudaGetLastError());
  cudaStream_t bogus = nullptr;
  show("cudaStreamCreate", cudaStreamCreate(&bogus));
  show("cudaStreamDestroy", cudaStreamDestroy(bogus));

  // Names and descriptions.
  const cudaError_t codes[] = {cudaSuccess,
                               cudaErrorInvalidValue,
                               cudaErrorMemoryAllocation,
                               cudaErrorInvalidConfiguration,
                               cudaErrorInvalidDevicePointer,
                               cudaErrorInvalidMemcpyDirection,
                               cudaErrorInvalidDeviceFunction,
                               cudaErrorInvalidDevice,
                               cudaErrorInvalidSymbol,
                               cudaErrorLaunchOutOfResources,
                               cudaErrorIllegalAddress,
                               cudaErrorMisalignedAddress,
                               cudaErrorLaunchFailure,
                               cudaErrorNotSupported,
                               cudaErrorInvalidResourceHandle,
                               cudaErrorNoKernelImageForDevice,
                               cudaErrorAssert};
  for (cudaError_t c : codes) std::printf("%3d %s: %s\n", static_cast<int>(c), cudaGetErrorName(c), cudaGetErrorString(c));

  // An out-of-bounds write: the launch succeeds, the fault shows at the next
  // synchronisation and stays.
  store<<<1, 1>>>(d, 1LL << 36, 99);
  show("launch of the faulting kernel", cudaGetLastError());
  show("cudaDeviceSynchronize", cudaDeviceSynchronize());
  show("peek", cudaPeekAtLastError());
  show("get", cudaGetLastError());
  show("get again (sticky)", cudaGetLastError());
  show("cudaDeviceSynchronize again", cudaDeviceSynchronize());
  int* more = nullptr;
  show("cudaMalloc after the fault", cudaMalloc(&more, 16));
  show("cudaMemcpy after the fault", cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  store<<<1, 1>>>(d, 0, 1);
  show("launch after the fault", cudaGetLastError());
  std::printf("done\n");
  return 3;
}
