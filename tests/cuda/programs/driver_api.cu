// The CUDA driver API as a driver-API program uses it: initialisation,
// devices, primary and created contexts, a module loaded from PTX text (its
// functions and globals), memory, launches with kernelParams and with an
// `extra` buffer, fills, streams and events, cuGetProcAddress, pointers
// shared with the runtime API, and the CUresult codes the driver gives for
// wrong use (before cuInit, bad devices, names, handles, memory, launches
// and PTX).
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "driver_check.h"

namespace {

void show(const char* what, CUresult r) { printResult(what, r, 44); }

// out[i] = in[i] * factor + bias for i < n, and a count of the threads
// that ran in `launches`.
const char* kModule = R"(
.version 8.0
.target sm_90
.address_size 64

.visible .global .align 4 .u32 launches;

.visible .entry affine(
    .param .u64 in,
    .param .u64 out,
    .param .f32 factor,
    .param .u64 biasAndCount
)
{
    .reg .pred %p;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.f32 %f1, [factor];
    ld.param.u64 %rd3, [biasAndCount];
    cvt.u32.u64 %r1, %rd3;
    shr.u64 %rd4, %rd3, 32;
    cvt.u32.u64 %r2, %rd4;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r3, %r3, %r4, %r5;
    setp.ge.s32 %p, %r3, %r2;
    @%p bra done;
    mul.wide.s32 %rd5, %r3, 4;
    add.s64 %rd6, %rd1, %rd5;
    ld.global.f32 %f2, [%rd6];
    cvt.rn.f32.s32 %f3, %r1;
    fma.rn.f32 %f2, %f2, %f1, %f3;
    add.s64 %rd7, %rd2, %rd5;
    st.global.f32 [%rd7], %f2;
    atom.global.add.u32 %r4, [launches], 1;
done:
    ret;
}
)";

// A missing operand on line 6.
const char* kBadModule = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry broken()
{
    add.s32 %r1, ;
    ret;
}
)";

int wrongValues(const std::vector<float>& in, const std::vector<float>& out, float factor, int bias) {
  int wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) wrong += out[i] != in[i] * factor + static_cast<float>(bias);
  return wrong;
}

}  // namespace

int main() {
  int count = 0;
  show("cuDeviceGetCount before cuInit", cuDeviceGetCount(&count));
  CUcontext none = nullptr;
  show("cuCtxGetCurrent before cuInit", cuCtxGetCurrent(&none));
  show("cuInit(1)", cuInit(1));
  CU_CHECK(cuInit(0));
  int version = 0;
  CU_CHECK(cuDriverGetVersion(&version));
  std::printf("driver version at least 13000: %s\n", version >= 13000 ? "yes" : "no");

  // Devices.
  CU_CHECK(cuDeviceGetCount(&count));
  std::printf("devices: at least one %s\n", count >= 1 ? "yes" : "no");
  CUdevice device = -1;
  show("cuDeviceGet(99)", cuDeviceGet(&device, 99));
  CU_CHECK(cuDeviceGet(&device, 0));
  int major = 0, minor = 0, warp = 0, threads = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  CU_CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device));
  CU_CHECK(cuDeviceGetAttribute(&threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device));
  std::printf("compute capability %d.%d, warp %d, %d threads a block\n", major, minor, warp, threads);
  show("cuDeviceGetAttribute(bad attribute)",
       cuDeviceGetAttribute(&warp, static_cast<CUdevice_attribute>(100000), device));
  char name[256] = {};
  CU_CHECK(cuDeviceGetName(name, sizeof name, device));
  std::printf("name starts with NVIDIA: %s\n", std::strncmp(name, "NVIDIA", 6) == 0 ? "yes" : "no");
  size_t totalMemory = 0;
  CU_CHECK(cuDeviceTotalMem(&totalMemory, device));
  std::printf("total memory above 64 GiB: %s\n", totalMemory > (size_t{64} << 30) ? "yes" : "no");

  // Contexts: none current yet; the primary one; a created one, pushed on
  // top and popped off.
  CUcontext current = nullptr;
  CU_CHECK(cuCtxGetCurrent(&current));
  std::printf("current context before any: %s\n", current == nullptr ? "none" : "some");
  show("cuCtxSynchronize without a context", cuCtxSynchronize());
  unsigned flags = 0;
  int active = -1;
  CU_CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary context active before retain: %d\n", active);
  CUcontext primary = nullptr;
  CU_CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  CU_CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary context active after retain: %d\n", active);
  CU_CHECK(cuCtxSetCurrent(primary));
  CU_CHECK(cuCtxGetCurrent(&current));
  std::printf("primary is current: %s\n", current == primary ? "yes" : "no");
  CUcontext created = nullptr;
  CU_CHECK(cuCtxCreate(&created, nullptr, 0, device));
  CU_CHECK(cuCtxGetCurrent(&current));
  std::printf("created context is current: %s, differs from primary: %s\n", current == created ? "yes" : "no",
              created != primary ? "yes" : "no");
  CUdevice contextDevice = -1;
  CU_CHECK(cuCtxGetDevice(&contextDevice));
  std::printf("its device: %d\n", contextDevice);
  CUcontext popped = nullptr;
  CU_CHECK(cuCtxPopCurrent(&popped));
  CU_CHECK(cuCtxGetCurrent(&current));
  std::printf("popped the created one: %s; current again primary: %s\n", popped == created ? "yes" : "no",
              current == primary ? "yes" : "no");
  CU_CHECK(cuCtxPushCurrent(created));
  CU_CHECK(cuCtxPopCurrent(&popped));
  CU_CHECK(cuCtxDestroy(created));
  show("cuCtxDestroy(primary)", cuCtxDestroy(primary));

  // The limits of CUDA-in-graphics (CIG) contexts, which cuBLASLt queries
  // on every context: an ordinary context answers them too.
  for (CUlimit limit : {CU_LIMIT_SHMEM_SIZE, CU_LIMIT_CIG_ENABLED, CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED}) {
    size_t value = 12345;
    CUresult r = cuCtxGetLimit(&value, limit);
    std::printf("cuCtxGetLimit(%d): value %zu, ", static_cast<int>(limit), value);
    show("result", r);
    show("cuCtxSetLimit of it", cuCtxSetLimit(limit, 0));
  }
  size_t beyond = 0;
  show("cuCtxGetLimit(CU_LIMIT_MAX)", cuCtxGetLimit(&beyond, CU_LIMIT_MAX));

  // A module from PTX text; its function and global.
  CUmodule module = nullptr;
  CU_CHECK(cuModuleLoadData(&module, kModule));
  CUfunction affine = nullptr;
  CU_CHECK(cuModuleGetFunction(&affine, module, "affine"));
  CUfunction missing = nullptr;
  show("cuModuleGetFunction(missing)", cuModuleGetFunction(&missing, module, "missing"));
  CUdeviceptr launches = 0;
  size_t launchesBytes = 0;
  CU_CHECK(cuModuleGetGlobal(&launches, &launchesBytes, module, "launches"));
  std::printf("global launches: %zu bytes\n", launchesBytes);
  int maxThreads = 0;
  CU_CHECK(cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, affine));
  std::printf("affine: up to %d threads a block\n", maxThreads);
  const char* functionName = nullptr;
  CU_CHECK(cuFuncGetName(&functionName, affine));
  std::printf("affine's name: %s\n", functionName);

  // Memory and launches: kernelParams, then an `extra` buffer.
  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 97) * 0.25f - 3.0f;
  CUdeviceptr dIn = 0, dOut = 0;
  CU_CHECK(cuMemAlloc(&dIn, n * sizeof(float)));
  CU_CHECK(cuMemAlloc(&dOut, n * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(dIn, in.data(), n * sizeof(float)));
  float factor = 1.5f;
  uint64_t biasAndCount = (uint64_t{n} << 32) | 7u;
  void* params[] = {&dIn, &dOut, &factor, &biasAndCount};
  CU_CHECK(cuLaunchKernel(affine, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuMemcpyDtoH(out.data(), dOut, n * sizeof(float)));
  std::printf("kernelParams launch: %d wrong\n", wrongValues(in, out, factor, 7));

  struct {
    CUdeviceptr in, out;
    float factor;
    uint32_t pad;
    uint64_t biasAndCount;
  } buffer{dIn, dOut, -2.0f, 0, (uint64_t{n} << 32) | 5u};
  size_t bufferBytes = sizeof buffer;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufferBytes,
                   CU_LAUNCH_PARAM_END};
  CU_CHECK(cuLaunchKernel(affine, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  CU_CHECK(cuMemcpyDtoH(out.data(), dOut, n * sizeof(float)));
  std::printf("extra-buffer launch: %d wrong\n", wrongValues(in, out, -2.0f, 5));
  unsigned ran = 0;
  CU_CHECK(cuMemcpyDtoH(&ran, launches, sizeof ran));
  std::printf("threads counted in the global: %u\n", ran);

  show("launch of 2048 threads a block",
       cuLaunchKernel(affine, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr));
  show("launch of a null function", cuLaunchKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  show("launch with both params and extra",
       cuLaunchKernel(affine, 1, 1, 1, 32, 1, 1, 0, nullptr, params, extra));
  show("launch with 1 MiB of shared memory",
       cuLaunchKernel(affine, 1, 1, 1, 32, 1, 1, 1 << 20, nullptr, params, nullptr));

  // More wrong use: memory, handles and launch shapes.
  CUdeviceptr huge = 0;
  show("cuMemAlloc of 1 TiB", cuMemAlloc(&huge, size_t{1} << 40));
  show("cuMemAlloc of 0 bytes", cuMemAlloc(&huge, 0));
  show("cuMemFree of an inner pointer", cuMemFree(dIn + 4));
  show("cuMemcpyHtoD to address 0", cuMemcpyHtoD(0, in.data(), 4));
  show("cuModuleGetFunction(null module)", cuModuleGetFunction(&missing, nullptr, "affine"));
  show("launch of a 0-block grid", cuLaunchKernel(affine, 0, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  show("launch of a 65536-block y grid",
       cuLaunchKernel(affine, 1, 65536, 1, 32, 1, 1, 0, nullptr, params, nullptr));

  // Fills, and a range's base and size.
  CU_CHECK(cuMemsetD32(dOut, 0x3f800000u, n));
  CU_CHECK(cuMemcpyDtoH(out.data(), dOut, n * sizeof(float)));
  int ones = 0;
  for (float v : out) ones += v == 1.0f;
  std::printf("cuMemsetD32 of 1.0f: %d of %d\n", ones, n);
  CU_CHECK(cuMemsetD16(dOut, 0xabcd, 2 * n));
  uint16_t halves[4] = {};
  CU_CHECK(cuMemcpyDtoH(halves, dOut + 100, sizeof halves));
  std::printf("cuMemsetD16: %04x %04x %04x %04x\n", halves[0], halves[1], halves[2], halves[3]);
  CUdeviceptr base = 0;
  size_t size = 0;
  CU_CHECK(cuMemGetAddressRange(&base, &size, dOut + 123));
  std::printf("address range of an inner pointer: base same %s, %zu bytes\n", base == dOut ? "yes" : "no",
              size);
  unsigned memoryType = 0;
  CU_CHECK(cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dOut));
  std::printf("memory type of device memory: %s\n", memoryType == CU_MEMORYTYPE_DEVICE ? "device" : "other");
  // Buffer IDs (which cuFFT keys its plans' memory by): one per
  // allocation, the same for an inner pointer, never given again.
  unsigned long long idIn = 0, idOut = 0, idInner = 0, idNext = 0;
  CU_CHECK(cuPointerGetAttribute(&idIn, CU_POINTER_ATTRIBUTE_BUFFER_ID, dIn));
  CU_CHECK(cuPointerGetAttribute(&idOut, CU_POINTER_ATTRIBUTE_BUFFER_ID, dOut));
  CU_CHECK(cuPointerGetAttribute(&idInner, CU_POINTER_ATTRIBUTE_BUFFER_ID, dOut + 123));
  CUdeviceptr scratch = 0;
  CU_CHECK(cuMemAlloc(&scratch, 64));
  unsigned long long idScratch = 0;
  CU_CHECK(cuPointerGetAttribute(&idScratch, CU_POINTER_ATTRIBUTE_BUFFER_ID, scratch));
  CU_CHECK(cuMemFree(scratch));
  CU_CHECK(cuMemAlloc(&scratch, 64));
  CU_CHECK(cuPointerGetAttribute(&idNext, CU_POINTER_ATTRIBUTE_BUFFER_ID, scratch));
  CU_CHECK(cuMemFree(scratch));
  std::printf(
      "buffer ids: nonzero %s, two allocations differ %s, inner pointer same %s, after a free new %s\n",
      idIn != 0 && idOut != 0 ? "yes" : "no", idIn != idOut ? "yes" : "no", idInner == idOut ? "yes" : "no",
      idNext != idScratch && idNext != idIn && idNext != idOut ? "yes" : "no");
  int onStack = 0;
  show("cuPointerGetAttribute of a stack address",
       cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                             static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(&onStack))));

  // A 1D CUDA array: copies into and out of it at byte offsets.
  CUDA_ARRAY_DESCRIPTOR arrayDesc{};
  arrayDesc.Width = 256;
  arrayDesc.Height = 0;
  arrayDesc.Format = CU_AD_FORMAT_FLOAT;
  arrayDesc.NumChannels = 1;
  CUarray array = nullptr;
  CU_CHECK(cuArrayCreate(&array, &arrayDesc));
  CU_CHECK(cuMemcpyHtoA(array, 16, in.data(), 64 * sizeof(float)));
  std::vector<float> fromArray(64, -1.0f);
  CU_CHECK(cuMemcpyAtoH(fromArray.data(), array, 16, 64 * sizeof(float)));
  int arrayWrong = 0;
  for (int i = 0; i < 64; ++i) arrayWrong += fromArray[i] != in[i];
  CU_CHECK(cuMemcpyAtoD(dOut, array, 16, 64 * sizeof(float)));
  CU_CHECK(cuMemcpyDtoH(fromArray.data(), dOut, 64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) arrayWrong += fromArray[i] != in[i];
  std::printf("array copies at byte 16: %d wrong\n", arrayWrong);
  CUDA_ARRAY_DESCRIPTOR readBack{};
  CU_CHECK(cuArrayGetDescriptor(&readBack, array));
  std::printf("array descriptor: %zu x %zu, format %d, %u channel\n", readBack.Width, readBack.Height,
              static_cast<int>(readBack.Format), readBack.NumChannels);
  show("cuMemcpyHtoA at an odd offset", cuMemcpyHtoA(array, 2, in.data(), 8));
  CU_CHECK(cuArrayDestroy(array));

  // Streams and events.
  CUstream stream = nullptr;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent start = nullptr, stop = nullptr;
  CU_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU_CHECK(cuEventRecord(start, stream));
  factor = 0.5f;
  CU_CHECK(cuLaunchKernel(affine, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, params, nullptr));
  CU_CHECK(cuEventRecord(stop, stream));
  CU_CHECK(cuStreamSynchronize(stream));
  show("cuEventQuery after synchronizing", cuEventQuery(stop));
  float milliseconds = -1;
  CU_CHECK(cuEventElapsedTime(&milliseconds, start, stop));
  std::printf("elapsed time not negative: %s\n", milliseconds >= 0 ? "yes" : "no");
  CU_CHECK(cuMemcpyDtoHAsync(out.data(), dOut, n * sizeof(float), stream));
  CU_CHECK(cuStreamSynchronize(stream));
  std::printf("stream launch: %d wrong\n", wrongValues(in, out, 0.5f, 7));
  CUcontext streamContext = nullptr;
  CU_CHECK(cuStreamGetCtx(stream, &streamContext));
  std::printf("stream's context is the primary one: %s\n", streamContext == primary ? "yes" : "no");
  CU_CHECK(cuEventDestroy(start));
  CU_CHECK(cuEventDestroy(stop));
  CU_CHECK(cuStreamDestroy(stream));

  // The runtime's pointers work in the driver's calls, and the other way.
  float* runtimeBuffer = nullptr;
  if (cudaMalloc(&runtimeBuffer, n * sizeof(float)) != cudaSuccess) return 1;
  CU_CHECK(cuMemsetD32(reinterpret_cast<CUdeviceptr>(runtimeBuffer), 0x40000000u, n));
  std::vector<float> back(n);
  if (cudaMemcpy(back.data(), runtimeBuffer, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    return 1;
  int twos = 0;
  for (float v : back) twos += v == 2.0f;
  std::printf("runtime buffer filled by the driver: %d of %d\n", twos, n);
  cudaFree(runtimeBuffer);

  // Driver entry points by name and version.
  void* entry = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
  CU_CHECK(cuGetProcAddress("cuMemAlloc", &entry, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
  std::printf("cuGetProcAddress(cuMemAlloc): status %d, same as cuMemAlloc_v2: %s\n", found,
              entry == reinterpret_cast<void*>(&cuMemAlloc_v2) ? "yes" : "no");
  show("cuGetProcAddress(cuNoSuchCall)",
       cuGetProcAddress("cuNoSuchCall", &entry, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
  std::printf("  status %d, pointer null %s\n", found, entry == nullptr ? "yes" : "no");
  CU_CHECK(cuGetProcAddress("cuLaunchKernelEx", &entry, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
  std::printf("cuLaunchKernelEx at CUDA 11.0: status %d\n", found);
  const char* text = nullptr;
  CU_CHECK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text));
  std::printf("CUDA_ERROR_INVALID_VALUE reads: %s\n", text);
  show("cuGetErrorName(12345)", cuGetErrorName(static_cast<CUresult>(12345), &text));

  // Bad PTX: the JIT's error log is filled.
  char log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUmodule broken = nullptr;
  show("cuModuleLoadDataEx(bad PTX)", cuModuleLoadDataEx(&broken, kBadModule, 2, options, values));
  std::printf("  error log written: %s\n", std::strlen(log) > 0 ? "yes" : "no");
  show("cuModuleLoadData(not PTX)", cuModuleLoadData(&broken, "this is not PTX"));

  CU_CHECK(cuMemFree(dIn));
  CU_CHECK(cuMemFree(dOut));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("done\n");
  return 0;
}
