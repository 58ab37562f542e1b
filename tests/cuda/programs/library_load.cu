// Device code loaded at run time, the JIT path of the CUDA programming
// guide: PTX text (written here by hand, as a program might generate it)
// loaded with cudaLibraryLoadData and, from a file, cudaLibraryLoadFromFile;
// its kernels counted, enumerated and looked up by name; a module variable
// read and set through cudaLibraryGetGlobal; kernels launched through their
// cudaKernel_t handles with cudaLaunchKernel and cudaLaunchKernelEx; and
// images CUDA refuses. Results are checked against the host.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.h"

// y[i] = factor * x[i] + y[i], and out[i] = 3 i; `factor` starts at 2.
const char kPtx[] = R"(
.version 9.0
.target sm_90
.address_size 64

.global .align 4 .f32 factor = 0f40000000;

.visible .entry scaleAdd(.param .u64 y, .param .u64 x, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .f32 %f<5>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [y];
  ld.param.u64 %rd2, [x];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r3, %r4, %r5;
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.s32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  ld.global.f32 %f2, [factor];
  add.s64 %rd7, %rd3, %rd5;
  ld.global.f32 %f3, [%rd7];
  fma.rn.f32 %f4, %f2, %f1, %f3;
  st.global.f32 [%rd7], %f4;
DONE:
  ret;
}

.visible .entry fillIndex(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r3, %r4, %r5;
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mul.lo.s32 %r6, %r1, 3;
  st.global.u32 [%rd4], %r6;
DONE:
  ret;
}
)";

const char kBrokenPtx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry broken()\n{\n  frobnicate.u32 %r1;\n}\n";

// The kernels' names in alphabetical order (the enumeration order is CUDA's).
std::string kernelNames(cudaLibrary_t library) {
  unsigned count = 0;
  if (cudaLibraryGetKernelCount(&count, library) != cudaSuccess) return "?";
  std::vector<cudaKernel_t> kernels(count);
  if (cudaLibraryEnumerateKernels(kernels.data(), count, library) != cudaSuccess) return "?";
  std::vector<std::string> names;
  for (cudaKernel_t k : kernels) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(k)) != cudaSuccess) return "?";
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::string joined = std::to_string(count) + ":";
  for (const std::string& n : names) joined += " " + n;
  return joined;
}

int main() {
  cudaLibrary_t library = nullptr;
  CHECK(cudaLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  std::printf("kernels %s\n", kernelNames(library).c_str());
  cudaKernel_t scaleAdd = nullptr, fillIndex = nullptr, missing = nullptr;
  CHECK(cudaLibraryGetKernel(&scaleAdd, library, "scaleAdd"));
  CHECK(cudaLibraryGetKernel(&fillIndex, library, "fillIndex"));
  std::printf("cudaLibraryGetKernel(missing): %s\n",
              cudaGetErrorName(cudaLibraryGetKernel(&missing, library, "missing")));
  cudaGetLastError();
  size_t offset = 0, size = 0;
  CHECK(cudaFuncGetParamInfo(reinterpret_cast<const void*>(scaleAdd), 2, &offset, &size));
  std::printf("scaleAdd parameter 2: offset %zu, size %zu\n", offset, size);

  // The module variable: read, then set to 3 before the launch.
  float* factor = nullptr;
  size_t factorBytes = 0;
  CHECK(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor), &factorBytes, library, "factor"));
  float value = 0;
  CHECK(cudaMemcpy(&value, factor, sizeof value, cudaMemcpyDeviceToHost));
  std::printf("factor: %zu bytes, %.1f\n", factorBytes, value);
  value = 3.0f;
  CHECK(cudaMemcpy(factor, &value, sizeof value, cudaMemcpyHostToDevice));
  void* noGlobal = nullptr;
  std::printf("cudaLibraryGetGlobal(missing): %s\n",
              cudaGetErrorName(cudaLibraryGetGlobal(&noGlobal, &factorBytes, library, "missing")));
  cudaGetLastError();

  const int n = 5000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1000.0f - i;
  float *dx = nullptr, *dy = nullptr;
  int* dout = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  // A cudaKernel_t stands where cudaLaunchKernel takes a function.
  int count = n;
  void* args[] = {&dy, &dx, &count};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(scaleAdd), dim3(blocks), dim3(threads), args, 0, 0));
  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int mismatches = 0;
  for (int i = 0; i < n; ++i) mismatches += result[i] != 3.0f * x[i] + y[i];
  std::printf("scaleAdd through cudaLaunchKernel: %d mismatches\n", mismatches);

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  CHECK(cudaLaunchKernelEx(&config, fillIndex, dout, count));
  std::vector<int> indices(n);
  CHECK(cudaMemcpy(indices.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  int fillMismatches = 0;
  for (int i = 0; i < n; ++i) fillMismatches += indices[i] != 3 * i;
  std::printf("fillIndex through cudaLaunchKernelEx: %d mismatches\n", fillMismatches);
  mismatches += fillMismatches;

  // The same PTX from a file: a second library, with its own variable.
  char path[] = "/tmp/library_load_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, kPtx, sizeof kPtx - 1) != static_cast<ssize_t>(sizeof kPtx - 1)) {
    std::printf("cannot write %s\n", path);
    return 1;
  }
  close(fd);
  cudaLibrary_t fromFile = nullptr;
  cudaError_t loaded = cudaLibraryLoadFromFile(&fromFile, path, nullptr, nullptr, 0, nullptr, nullptr, 0);
  unlink(path);
  CHECK(loaded);
  std::printf("from a file: kernels %s\n", kernelNames(fromFile).c_str());
  float* otherFactor = nullptr;
  CHECK(cudaLibraryGetGlobal(reinterpret_cast<void**>(&otherFactor), nullptr, fromFile, "factor"));
  CHECK(cudaMemcpy(&value, otherFactor, sizeof value, cudaMemcpyDeviceToHost));
  std::printf("its factor: %.1f (%s variable)\n", value, otherFactor != factor ? "a separate" : "the same");
  CHECK(cudaLibraryUnload(fromFile));

  // Images CUDA refuses.
  cudaLibrary_t refused = nullptr;
  cudaError_t brokenLoad = cudaLibraryLoadData(&refused, kBrokenPtx, nullptr, nullptr, 0, nullptr, nullptr, 0);
  std::printf("broken PTX: %s\n", cudaGetErrorName(brokenLoad));
  cudaGetLastError();
  if (brokenLoad == cudaSuccess) {  // loaded lazily: the error comes with the first use
    cudaKernel_t broken = nullptr;
    std::printf("its kernel: %s\n", cudaGetErrorName(cudaLibraryGetKernel(&broken, refused, "broken")));
    unsigned count = 0;
    std::printf("its kernel count: %s\n", cudaGetErrorName(cudaLibraryGetKernelCount(&count, refused)));
    std::printf("unloading it: %s\n", cudaGetErrorName(cudaLibraryUnload(refused)));
    cudaGetLastError();
  }
  std::printf("missing file: %s\n",
              cudaGetErrorName(cudaLibraryLoadFromFile(&refused, "/nonexistent/kernels.ptx", nullptr, nullptr,
                                                       0, nullptr, nullptr, 0)));
  cudaGetLastError();

  CHECK(cudaLibraryUnload(library));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dout));
  return mismatches == 0 ? 0 : 1;
}
