// Run-time compilation with NVRTC, as NVIDIA's samples do it: a kernel
// (a template, instantiated by name expression) compiled to PTX for a
// virtual architecture and loaded with the driver, then compiled to a cubin
// for the device's own architecture (the samples' helper asks for
// sm_<major><minor>) and loaded from that; and a source that does not
// compile, with its log.
// nvcc flags: -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const char* kSource = R"(
template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

#define NVRTC_CHECK(call)                                                        \
  do {                                                                           \
    nvrtcResult r_ = (call);                                                     \
    if (r_ != NVRTC_SUCCESS) {                                                   \
      std::printf("%s failed: %s\n", #call, nvrtcGetErrorString(r_));            \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

#define CU_CHECK(call)                                                           \
  do {                                                                           \
    CUresult r_ = (call);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                    \
      const char* name_ = nullptr;                                               \
      cuGetErrorName(r_, &name_);                                                \
      std::printf("%s failed: %s\n", #call, name_);                              \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

// Compiles kSource for `arch` (compute_90 or sm_90); returns its PTX or
// cubin, and the lowered name of saxpy<float>.
int compile(const std::string& arch, bool cubin, std::vector<char>& image, std::string& lowered) {
  nvrtcProgram program = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&program, kSource, "saxpy.cu", 0, nullptr, nullptr));
  NVRTC_CHECK(nvrtcAddNameExpression(program, "saxpy<float>"));
  std::string option = "--gpu-architecture=" + arch;
  const char* options[] = {option.c_str(), "--std=c++17"};
  NVRTC_CHECK(nvrtcCompileProgram(program, 2, options));
  const char* name = nullptr;
  NVRTC_CHECK(nvrtcGetLoweredName(program, "saxpy<float>", &name));
  lowered = name;
  size_t size = 0;
  if (cubin) {
    NVRTC_CHECK(nvrtcGetCUBINSize(program, &size));
    image.resize(size);
    NVRTC_CHECK(nvrtcGetCUBIN(program, image.data()));
  } else {
    NVRTC_CHECK(nvrtcGetPTXSize(program, &size));
    image.resize(size);
    NVRTC_CHECK(nvrtcGetPTX(program, image.data()));
  }
  NVRTC_CHECK(nvrtcDestroyProgram(&program));
  return 0;
}

// Loads the image, runs saxpy<float> on n elements and counts wrong results.
int run(const std::vector<char>& image, const std::string& lowered, int& wrong) {
  CUmodule module = nullptr;
  CU_CHECK(cuModuleLoadData(&module, image.data()));
  CUfunction saxpy = nullptr;
  CU_CHECK(cuModuleGetFunction(&saxpy, module, lowered.c_str()));
  const int n = 4096;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 13) - 6.0f, y[i] = static_cast<float>(i % 7) * 0.5f;
  CUdeviceptr dx = 0, dy = 0;
  CU_CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CU_CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  float a = 2.5f;
  int count = n;
  void* args[] = {&a, &dx, &dy, &count};
  CU_CHECK(cuLaunchKernel(saxpy, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CU_CHECK(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != a * x[i] + y[i];
  CU_CHECK(cuMemFree(dx));
  CU_CHECK(cuMemFree(dy));
  CU_CHECK(cuModuleUnload(module));
  return 0;
}

}  // namespace

int main() {
  int major = 0, minor = 0;
  NVRTC_CHECK(nvrtcVersion(&major, &minor));
  std::printf("NVRTC %d.x\n", major);
  CU_CHECK(cuInit(0));
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, 0));
  CUcontext context = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CU_CHECK(cuCtxSetCurrent(context));
  int ccMajor = 0, ccMinor = 0;
  CU_CHECK(cuDeviceGetAttribute(&ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  std::string cc = std::to_string(ccMajor * 10 + ccMinor);

  std::vector<char> image;
  std::string lowered;
  int wrong = -1;
  if (compile("compute_" + cc, false, image, lowered) != 0) return 1;
  std::printf("lowered name of saxpy<float>: %s\n", lowered.c_str());
  if (run(image, lowered, wrong) != 0) return 1;
  std::printf("from PTX: %d wrong\n", wrong);

  if (compile("sm_" + cc, true, image, lowered) != 0) return 1;
  std::printf("cubin is an ELF file: %s\n", image.size() > 4 && image[1] == 'E' && image[2] == 'L' ? "yes" : "no");
  if (run(image, lowered, wrong) != 0) return 1;
  std::printf("from the cubin: %d wrong\n", wrong);

  // A source that does not compile.
  nvrtcProgram bad = nullptr;
  NVRTC_CHECK(nvrtcCreateProgram(&bad, "__global__ void k() { undefined_call(); }", "bad.cu", 0, nullptr, nullptr));
  nvrtcResult result = nvrtcCompileProgram(bad, 0, nullptr);
  std::printf("bad source: %s\n", nvrtcGetErrorString(result));
  size_t logSize = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(bad, &logSize));
  std::string log(logSize, '\0');
  NVRTC_CHECK(nvrtcGetProgramLog(bad, log.data()));
  std::printf("its log names the call: %s\n", log.find("undefined_call") != std::string::npos ? "yes" : "no");
  NVRTC_CHECK(nvrtcDestroyProgram(&bad));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("done\n");
  return 0;
}
