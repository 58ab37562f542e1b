// A program that starts with the runtime API and then calls the driver API
// without cuInit, as programs that load PTX at run time do (NVIDIA's
// runtime calls cuInit as it starts): the driver calls work, and the
// runtime's primary context is the current one.
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace {

const char* nameOf(CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return name != nullptr ? name : "?";
}

const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry twice(.param .u64 p) {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd0, [p];
  ld.global.u32 %r0, [%rd0];
  add.u32 %r1, %r0, %r0;
  st.global.u32 [%rd0], %r1;
  ret;
})";

}  // namespace

int main() {
  std::printf("cudaFree(0): %s\n", cudaGetErrorName(cudaFree(nullptr)));
  CUcontext current = nullptr;
  std::printf("cuCtxGetCurrent: %s, %s\n", nameOf(cuCtxGetCurrent(&current)), current != nullptr ? "a context" : "none");
  CUcontext primary = nullptr;
  std::printf("cuDevicePrimaryCtxRetain: %s\n", nameOf(cuDevicePrimaryCtxRetain(&primary, 0)));
  std::printf("current is the primary context: %s\n", current == primary ? "yes" : "no");
  CUdeviceptr word = 0;
  std::printf("cuMemAlloc: %s\n", nameOf(cuMemAlloc(&word, 4)));
  unsigned value = 21;
  std::printf("cuMemcpyHtoD: %s\n", nameOf(cuMemcpyHtoD(word, &value, 4)));
  CUmodule module = nullptr;
  std::printf("cuModuleLoadData: %s\n", nameOf(cuModuleLoadData(&module, kPtx)));
  CUfunction fn = nullptr;
  std::printf("cuModuleGetFunction: %s\n", nameOf(cuModuleGetFunction(&fn, module, "twice")));
  void* args[] = {&word};
  std::printf("cuLaunchKernel: %s\n", nameOf(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr)));
  std::printf("cuCtxSynchronize: %s\n", nameOf(cuCtxSynchronize()));
  std::printf("cuMemcpyDtoH: %s\n", nameOf(cuMemcpyDtoH(&value, word, 4)));
  std::printf("value: %u\n", value);
  // The runtime sees the driver's allocation.
  unsigned again = 0;
  cudaError_t copied = cudaMemcpy(&again, reinterpret_cast<void*>(word), 4, cudaMemcpyDeviceToHost);
  std::printf("cudaMemcpy of it: %s, %u\n", cudaGetErrorName(copied), again);
  std::printf("cuMemFree: %s\n", nameOf(cuMemFree(word)));
  std::printf("cuDevicePrimaryCtxRelease: %s\n", nameOf(cuDevicePrimaryCtxRelease(0)));
  return 0;
}
