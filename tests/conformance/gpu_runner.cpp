// Runs the conformance kernels on a real GPU through the CUDA driver API
// (tests/conformance/record.sh builds it with nvcc and runs it on the device
// machine). DIR holds manifest.txt ("module kernel records sources outputs"
// per form, in the order of forms.txt), inputs.bin and MODULE.cubin (ptxas
// -arch=sm_90 of MODULE.ptx); writes every form's outputs, in order, to OUT.
// Usage: gpu_runner DIR OUT
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(CUresult result, const std::string& what) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "gpu_runner: %s failed: %s\n", what.c_str(), name != nullptr ? name : "?");
  std::exit(1);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "gpu_runner: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gpu_runner DIR OUT\n");
    return 2;
  }
  const std::string dir = argv[1];
  check(cuInit(0), "cuInit");
  CUdevice device;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context;
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");

  const std::string inputs = readFile(dir + "/inputs.bin");
  std::istringstream manifest(readFile(dir + "/manifest.txt"));
  std::map<std::string, CUmodule> modules;
  std::ofstream out(argv[2], std::ios::binary);
  size_t inputOffset = 0, forms = 0;
  std::string module, kernel;
  uint32_t records = 0, sources = 0, outputs = 0;
  while (manifest >> module >> kernel >> records >> sources >> outputs) {
    if (modules.count(module) == 0) {
      const std::string cubin = readFile(dir + "/" + module + ".cubin");
      check(cuModuleLoadData(&modules[module], cubin.data()), "loading " + module + ".cubin");
    }
    CUfunction function;
    check(cuModuleGetFunction(&function, modules[module], kernel.c_str()), module + " " + kernel);
    const size_t inBytes = size_t{records} * sources * 8, outBytes = size_t{records} * outputs * 8;
    CUdeviceptr in = 0, result = 0;
    check(cuMemAlloc(&in, inBytes == 0 ? 8 : inBytes), "cuMemAlloc");
    check(cuMemAlloc(&result, outBytes == 0 ? 8 : outBytes), "cuMemAlloc");
    if (inBytes != 0) check(cuMemcpyHtoD(in, inputs.data() + inputOffset, inBytes), "cuMemcpyHtoD");
    if (outBytes != 0) check(cuMemsetD8(result, 0, outBytes), "cuMemsetD8");
    inputOffset += inBytes;
    void* params[] = {&in, &result, &records};
    const uint32_t block = 128;
    check(cuLaunchKernel(function, (records + block - 1) / block, 1, 1, block, 1, 1, 0, nullptr, params, nullptr),
          "launching " + module + " " + kernel);
    check(cuCtxSynchronize(), "running " + module + " " + kernel);
    std::vector<char> host(outBytes);
    if (outBytes != 0) check(cuMemcpyDtoH(host.data(), result, outBytes), "cuMemcpyDtoH");
    out.write(host.data(), static_cast<std::streamsize>(outBytes));
    check(cuMemFree(in), "cuMemFree");
    check(cuMemFree(result), "cuMemFree");
    ++forms;
  }
  if (inputOffset != inputs.size()) {
    std::fprintf(stderr, "gpu_runner: the manifest used %zu of the %zu input bytes\n", inputOffset, inputs.size());
    return 1;
  }
  std::printf("gpu_runner: %zu forms run\n", forms);
  return out ? 0 : 1;
}
