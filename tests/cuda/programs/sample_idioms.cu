// The host-side idioms that CUDA sample programs and many applications
// copy, written the way they are usually written: an error-check macro that
// names the file and line and exits, a "last error" check after each
// launch, device selection by attributes (the device with the most
// SM-count x cores-per-SM x clock, skipping prohibited compute modes), the
// cores-per-SM lookup by compute capability, a properties banner, the
// occupancy-based launch size, and events around the work.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define checkCuda(call) checkResult((call), #call, __FILE__, __LINE__)
#define checkLastError(what) checkResult(cudaGetLastError(), what, __FILE__, __LINE__)

void checkResult(cudaError_t result, const char* what, const char* file, int line) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, static_cast<int>(result),
               cudaGetErrorName(result), what);
  std::exit(EXIT_FAILURE);
}

// FP32 cores per SM by compute capability, as the samples tabulate them.
int coresPerSm(int major, int minor) {
  struct Entry {
    int version, cores;
  };
  const Entry table[] = {{0x50, 128}, {0x52, 128}, {0x53, 128}, {0x60, 64},  {0x61, 128}, {0x62, 128},
                         {0x70, 64},  {0x72, 64},  {0x75, 64},  {0x80, 64},  {0x86, 128}, {0x87, 128},
                         {0x89, 128}, {0x90, 128}, {0xa0, 128}, {0xc0, 128}};
  for (const Entry& e : table) {
    if (e.version == ((major << 4) + minor)) return e.cores;
  }
  std::printf("MapSMtoCores for SM %d.%d is undefined; default to 128 cores/SM\n", major, minor);
  return 128;
}

int fastestDevice() {
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count));
  if (count == 0) {
    std::fprintf(stderr, "no devices supporting CUDA\n");
    std::exit(EXIT_FAILURE);
  }
  int best = -1;
  unsigned long long bestPerformance = 0;
  int prohibited = 0;
  for (int device = 0; device < count; ++device) {
    int computeMode = -1, major = 0, minor = 0, sms = 0, clockKhz = 0;
    checkCuda(cudaDeviceGetAttribute(&computeMode, cudaDevAttrComputeMode, device));
    checkCuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    checkCuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    if (computeMode == cudaComputeModeProhibited) {
      ++prohibited;
      continue;
    }
    checkCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, device) != cudaSuccess) clockKhz = 1;
    unsigned long long performance =
        static_cast<unsigned long long>(sms) * coresPerSm(major, minor) * static_cast<unsigned long long>(clockKhz);
    if (performance > bestPerformance) bestPerformance = performance, best = device;
  }
  if (prohibited == count) {
    std::fprintf(stderr, "all devices have compute mode prohibited\n");
    std::exit(EXIT_FAILURE);
  }
  return best;
}

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

int main() {
  int device = fastestDevice();
  checkCuda(cudaSetDevice(device));
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, device));
  std::printf("GPU Device %d: \"%s\" with compute capability %d.%d\n", device, prop.name, prop.major, prop.minor);
  std::printf("  %d multiprocessors x %d cores/MP = %d CUDA cores\n", prop.multiProcessorCount,
              coresPerSm(prop.major, prop.minor), prop.multiProcessorCount * coresPerSm(prop.major, prop.minor));
  int clockKhz = 0, memoryClockKhz = 0, busWidth = 0;
  checkCuda(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, device));
  checkCuda(cudaDeviceGetAttribute(&memoryClockKhz, cudaDevAttrMemoryClockRate, device));
  checkCuda(cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, device));
  std::printf("  GPU max clock rate: %.0f MHz, memory clock %.0f MHz, bus %d-bit, L2 %d bytes\n", clockKhz * 1e-3,
              memoryClockKhz * 1e-3, busWidth, prop.l2CacheSize);
  std::printf("  peak memory bandwidth: %.1f GB/s\n", 2.0 * memoryClockKhz * 1e3 * (busWidth / 8) / 1e9);
  int kernelTimeout = -1, integrated = -1, unified = -1;
  checkCuda(cudaDeviceGetAttribute(&kernelTimeout, cudaDevAttrKernelExecTimeout, device));
  checkCuda(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, device));
  checkCuda(cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, device));
  std::printf("  run time limit on kernels: %s, integrated: %s, unified addressing: %s\n",
              kernelTimeout ? "Yes" : "No", integrated ? "Yes" : "No", unified ? "Yes" : "No");

  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 1.0f;
  float *dx = nullptr, *dy = nullptr;
  checkCuda(cudaMalloc(&dx, n * sizeof(float)));
  checkCuda(cudaMalloc(&dy, n * sizeof(float)));
  checkCuda(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  checkCuda(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  int minGrid = 0, blockSize = 0;
  checkCuda(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, saxpy, 0, 0));
  int blocksPerSm = 0;
  checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, saxpy, blockSize, 0));
  std::printf("launch: block size %d, %d blocks per SM, grid %d\n", blockSize, blocksPerSm,
              blocksPerSm * prop.multiProcessorCount);

  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));
  checkCuda(cudaEventRecord(start));
  saxpy<<<blocksPerSm * prop.multiProcessorCount, blockSize>>>(n, 2.0f, dx, dy);
  checkLastError("saxpy launch");
  checkCuda(cudaEventRecord(stop));
  checkCuda(cudaEventSynchronize(stop));
  float ms = -1;
  checkCuda(cudaEventElapsedTime(&ms, start, stop));
  std::printf("elapsed time measured: %s\n", ms >= 0 ? "yes" : "no");

  checkCuda(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < n; ++i) errors += y[i] != 2.0f * static_cast<float>(i % 1000) + 1.0f;
  std::printf("saxpy: %d errors\n", errors);
  checkCuda(cudaEventDestroy(start));
  checkCuda(cudaEventDestroy(stop));
  checkCuda(cudaFree(dx));
  checkCuda(cudaFree(dy));
  std::printf("%s\n", errors == 0 ? "Test passed" : "Test failed");
  return errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
