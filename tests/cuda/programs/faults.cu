// What each class of kernel fault reports, one fault per process (a fault
// is sticky for the rest of a process): the program runs itself once per
// class with the class's number as its argument, and each run prints what
// the launch, the next synchronisation, cudaGetLastError and a later
// cudaMalloc return. The classes: __trap(), a failed assert, an
// out-of-bounds global store, a null load, misaligned global and shared
// loads, an out-of-range shared access, brkpt, a call through a bad
// function pointer, and a stack overflow by recursion. (A store 256 MiB
// past a 1 KiB allocation made the H100 report cudaErrorInvalidAddressSpace
// rather than cudaErrorIllegalAddress: that depends on the driver's
// address-space layout, which ptxsim does not model, so the store here
// goes far out, where the H100 reports cudaErrorIllegalAddress.)
#include <cuda_runtime.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cassert>
#include <cstdio>
#include <cstdlib>

extern char** environ;

__global__ void trapKernel() { __trap(); }
__global__ void assertKernel(int x) { assert(x == 1); }
__global__ void storeKernel(int* p, long long index) { p[index] = 1; }
__global__ void loadKernel(const int* p, int* out) { *out = *p; }
__global__ void misalignedGlobal(const char* p, long long* out) {
  *out = *reinterpret_cast<const long long*>(p + 4);
}
__global__ void misalignedShared(int offset, int* out) {
  __shared__ int buffer[64];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  *out = *reinterpret_cast<int*>(reinterpret_cast<char*>(buffer) + offset);
}
__global__ void sharedOutOfRange(int index, int* out) {
  __shared__ int buffer[64];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  volatile int* b = buffer;
  b[index] = 7;
  *out = b[0];
}
__global__ void breakpoint() { asm volatile("brkpt;"); }
typedef int (*Function)(int);
__global__ void badCall(unsigned long long address, int* out) {
  *out = reinterpret_cast<Function>(address)(threadIdx.x);
}
__device__ int recurse(volatile int* scratch, int depth) {
  int local[64];
  for (int i = 0; i < 64; ++i) local[i] = scratch[i] + depth;
  if (depth == 0) return local[depth & 63];
  return recurse(scratch, depth - 1) + local[depth & 63];
}
__global__ void deepRecursion(int* scratch, int depth, int* out) { *out = recurse(scratch, depth); }

void runClass(int fault) {
  int* d = nullptr;
  cudaMalloc(&d, 1024);
  cudaMemset(d, 0, 1024);
  const char* name = "";
  switch (fault) {
    case 0: name = "trap"; trapKernel<<<1, 32>>>(); break;
    case 1: name = "assert"; assertKernel<<<1, 32>>>(0); break;
    case 2: name = "out-of-bounds global store"; storeKernel<<<1, 1>>>(d, 1LL << 36); break;
    case 3: name = "null load"; loadKernel<<<1, 1>>>(nullptr, d); break;
    case 4: name = "misaligned global load"; misalignedGlobal<<<1, 1>>>(reinterpret_cast<char*>(d), reinterpret_cast<long long*>(d + 64)); break;
    case 5: name = "misaligned shared load"; misalignedShared<<<1, 64>>>(2, d); break;
    case 6: name = "shared out of range"; sharedOutOfRange<<<1, 64>>>(1 << 20, d); break;
    case 7: name = "brkpt"; breakpoint<<<1, 32>>>(); break;
    case 8: name = "bad function pointer"; badCall<<<1, 32>>>(0x1234, d); break;
    case 9: name = "stack overflow"; deepRecursion<<<1, 1>>>(d, 100000, d + 128); break;
  }
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t last = cudaGetLastError();
  int* other = nullptr;
  cudaError_t after = cudaMalloc(&other, 16);
  std::printf("%s: launch %s, synchronize %s, last error %s, then cudaMalloc %s\n", name,
              cudaGetErrorName(launch), cudaGetErrorName(sync), cudaGetErrorName(last), cudaGetErrorName(after));
}

int main(int argc, char** argv) {
  if (argc > 1) {
    runClass(std::atoi(argv[1]));
    return 0;
  }
  for (int fault = 0; fault < 10; ++fault) {
    char number[8];
    std::snprintf(number, sizeof number, "%d", fault);
    char* childArgs[] = {argv[0], number, nullptr};
    std::fflush(stdout);
    pid_t child = 0;
    if (posix_spawn(&child, argv[0], nullptr, nullptr, childArgs, environ) != 0) return 1;
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::printf("fault class %d: the process failed\n", fault);
  }
  return 0;
}
