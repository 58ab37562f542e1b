// Link-time optimisation at run time, as programs do it with nvJitLink:
// two units compiled by NVRTC to LTO IR (-dlto), one calling a device
// function and reading a variable the other defines, linked with nvJitLink
// for the device's architecture into a cubin, loaded and launched with the
// driver; then a link with an unresolved function, and its error log.
// nvcc flags: -lcuda -lnvrtc -lnvJitLink
#include <cuda.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>
#include <vector>

#include "driver_check.h"

namespace {

const char* kKernelUnit = R"(
extern __device__ float shift(float x);
extern __device__ float gain;
extern "C" __global__ void scaleAndShift(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = shift(in[i] * gain);
}
)";

const char* kHelperUnit = R"(
__device__ float gain = 3.0f;
__device__ float shift(float x) { return x + 0.5f; }
)";

const char* kBrokenUnit = R"(
extern __device__ float missing(float x);
extern "C" __global__ void broken(float* out) { out[0] = missing(out[0]); }
)";

void show(const char* what, CUresult r) { printResult(what, r, 40); }

#define NVRTC_CHECK(call)                                             \
  do {                                                                \
    nvrtcResult r_ = (call);                                          \
    if (r_ != NVRTC_SUCCESS) {                                        \
      std::printf("%s failed: %s\n", #call, nvrtcGetErrorString(r_)); \
      return false;                                                   \
    }                                                                 \
  } while (0)

// A unit's LTO IR for compute_90.
bool ltoIr(const char* source, const char* name, std::vector<char>& ir) {
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, source, name, 0, nullptr, nullptr));
  const char* options[] = {"-dlto", "--relocatable-device-code=true", "--gpu-architecture=compute_90"};
  NVRTC_CHECK(nvrtcCompileProgram(program, 3, options));
  size_t size = 0;
  NVRTC_CHECK(nvrtcGetLTOIRSize(program, &size));
  ir.resize(size);
  NVRTC_CHECK(nvrtcGetLTOIR(program, ir.data()));
  NVRTC_CHECK(nvrtcDestroyProgram(&program));
  return true;
}

// Links the units for `arch`; the cubin, or the first line of the error log
// and nvJitLink's result.
nvJitLinkResult link(const std::string& arch, const std::vector<std::vector<char>>& units,
                     std::vector<char>& cubin, std::string& firstLogLine) {
  std::string archOption = "-arch=" + arch;
  const char* options[] = {archOption.c_str(), "-lto"};
  nvJitLinkHandle handle = nullptr;
  nvJitLinkResult r = nvJitLinkCreate(&handle, 2, options);
  for (size_t i = 0; r == NVJITLINK_SUCCESS && i < units.size(); ++i) {
    std::string name = "unit" + std::to_string(i);
    r = nvJitLinkAddData(handle, NVJITLINK_INPUT_LTOIR, units[i].data(), units[i].size(), name.c_str());
  }
  if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(handle);
  if (r == NVJITLINK_SUCCESS) {
    size_t size = 0;
    nvJitLinkGetLinkedCubinSize(handle, &size);
    cubin.resize(size);
    nvJitLinkGetLinkedCubin(handle, cubin.data());
    size_t ptxSize = 0;
    std::printf("linked PTX asked of a cubin link: %s\n",
                nvJitLinkGetLinkedPtxSize(handle, &ptxSize) == NVJITLINK_SUCCESS ? "given" : "refused");
  } else {
    size_t size = 0;
    nvJitLinkGetErrorLogSize(handle, &size);
    std::string log(size, '\0');
    if (size > 0) nvJitLinkGetErrorLog(handle, log.data());
    firstLogLine = log.substr(0, log.find('\n'));
  }
  nvJitLinkDestroy(&handle);
  return r;
}

}  // namespace

int main() {
  CUdevice device;
  CUcontext context;
  CU_CHECK(usePrimaryContext(device, context));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);

  unsigned linkerMajor = 0, linkerMinor = 0;
  nvJitLinkVersion(&linkerMajor, &linkerMinor);
  std::printf("nvJitLink version at least 13.0: %s\n", linkerMajor >= 13 ? "yes" : "no");

  std::vector<std::vector<char>> units(2);
  if (!ltoIr(kKernelUnit, "kernel.cu", units[0]) || !ltoIr(kHelperUnit, "helper.cu", units[1])) return 1;
  std::vector<char> cubin;
  std::string log;
  nvJitLinkResult r = link(arch, units, cubin, log);
  std::printf("link of two LTO units for the device: result %d, a cubin: %s\n", static_cast<int>(r),
              cubin.size() > 4 && cubin[0] == 0x7f && cubin[1] == 'E' ? "yes" : "no");
  if (r != NVJITLINK_SUCCESS) return 1;

  CUmodule module;
  CU_CHECK(cuModuleLoadData(&module, cubin.data()));
  CUfunction kernel;
  CU_CHECK(cuModuleGetFunction(&kernel, module, "scaleAndShift"));
  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = 0.25f * static_cast<float>(i % 37) - 3.0f;
  CUdeviceptr dIn = 0, dOut = 0;
  CU_CHECK(cuMemAlloc(&dIn, n * sizeof(float)));
  CU_CHECK(cuMemAlloc(&dOut, n * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(dIn, in.data(), n * sizeof(float)));
  int count = n;
  void* params[] = {&dIn, &dOut, &count};
  CU_CHECK(cuLaunchKernel(kernel, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuMemcpyDtoH(out.data(), dOut, n * sizeof(float)));
  int right = 0;
  for (int i = 0; i < n; ++i) right += out[i] == in[i] * 3.0f + 0.5f;
  std::printf("scaleAndShift through the linked module: %d of %d right\n", right, n);
  CUdeviceptr gain = 0;
  size_t gainBytes = 0;
  CU_CHECK(cuModuleGetGlobal(&gain, &gainBytes, module, "gain"));
  std::printf("the helper unit's variable in the linked module: %zu bytes\n", gainBytes);

  // A unit calling a function no unit defines: the link fails with a log.
  std::vector<std::vector<char>> broken(1);
  if (!ltoIr(kBrokenUnit, "broken.cu", broken[0])) return 1;
  std::vector<char> none;
  r = link(arch, broken, none, log);
  std::printf("link with an unresolved function: result %d, log: %s\n", static_cast<int>(r), log.c_str());

  CU_CHECK(cuMemFree(dIn));
  CU_CHECK(cuMemFree(dOut));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  return 0;
}
