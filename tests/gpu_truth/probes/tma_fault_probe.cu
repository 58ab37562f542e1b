// Which tile-mode tensor maps make the H100's TMA unit fault: tma_copies
// (tests/gpu_truth/pending) found every 2D u8 load of a 100x70 tensor with
// a 64x32 box failing with cudaErrorIllegalInstruction, while 1D, 3D and
// swizzled u8 loads, and 2D loads of wider elements, completed. This probe
// varies one property at a time (rank, element size, the tensor's and the
// box's inner extent, the box's rows) and prints, per case, "ok" with a
// hash of the box, the launch's error, "encode ERROR" when the driver
// refuses the map, or "timeout" when the mbarrier never completes.
// Each case runs in a child process (a fault poisons its context).
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr unsigned kBoxBytes = 16 * 1024;

struct Case {
  CUtensorMapDataType type;
  unsigned elementBytes;
  unsigned rank;
  cuuint64_t dims[3];
  cuuint32_t box[3];
  int x = 0, y = 0;  // the box's corner
};

__global__ void loadOnce(const __grid_constant__ CUtensorMap map, unsigned rank, int x, int y, unsigned bytes,
                         uint8_t* out) {
  extern __shared__ __align__(1024) uint8_t shared[];
  __shared__ uint64_t bar;
  uint8_t* box = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(shared) + 1023) & ~uintptr_t{1023});
  for (unsigned i = threadIdx.x; i < kBoxBytes; i += blockDim.x) box[i] = 0xee;
  const auto barAddress = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(box));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barAddress));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint64_t m = reinterpret_cast<uint64_t>(&map);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barAddress), "r"(bytes));
    const int zero = 0;
    if (rank == 1)
      asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                   ::"r"(dst), "l"(m), "r"(x), "r"(barAddress) : "memory");
    else if (rank == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(dst), "l"(m), "r"(x), "r"(y), "r"(barAddress) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                   ::"r"(dst), "l"(m), "r"(x), "r"(y), "r"(zero), "r"(barAddress) : "memory");
  }
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(barAddress));
  for (unsigned i = threadIdx.x; i < kBoxBytes; i += blockDim.x) out[i] = box[i];
}

uint64_t hashBytes(const uint8_t* p, unsigned n) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// Runs in the child: the case's line.
int runCase(const char* name, const Case& c) {
  cuuint64_t strides[2];
  cuuint64_t row = c.dims[0] * c.elementBytes;
  for (unsigned i = 0; i + 1 < c.rank; ++i) {
    strides[i] = (row + 15) / 16 * 16;
    row = strides[i] * c.dims[i + 1];
  }
  const size_t tensorBytes = row;
  uint8_t *tensor = nullptr, *out = nullptr;
  if (cudaMallocManaged(&tensor, tensorBytes + 4096) != cudaSuccess || cudaMallocManaged(&out, kBoxBytes) != cudaSuccess) {
    std::printf("%s: allocation failed\n", name);
    return 1;
  }
  for (size_t i = 0; i < tensorBytes; ++i) tensor[i] = static_cast<uint8_t>(i * 131 + (i >> 8) * 7);
  CUtensorMap map;
  cuuint32_t elementStrides[3] = {1, 1, 1};
  CUresult r = cuTensorMapEncodeTiled(&map, c.type, c.rank, tensor, c.dims, strides, c.box, elementStrides,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    const char* e = nullptr;
    cuGetErrorName(r, &e);
    std::printf("%s: encode %s\n", name, e);
    return 0;
  }
  unsigned bytes = c.elementBytes;
  for (unsigned i = 0; i < c.rank; ++i) bytes *= c.box[i];
  cudaFuncSetAttribute(loadOnce, cudaFuncAttributeMaxDynamicSharedMemorySize, kBoxBytes + 1024);
  loadOnce<<<1, 128, kBoxBytes + 1024>>>(map, c.rank, c.x, c.y, bytes, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", name, cudaGetErrorName(e));
    return 0;
  }
  std::printf("%s: ok %016llx\n", name, static_cast<unsigned long long>(hashBytes(out, kBoxBytes)));
  return 0;
}

void isolated(const char* name, const Case& c) {
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    alarm(10);
    const int rc = runCase(name, c);
    std::fflush(stdout);
    _exit(rc);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) {
    std::printf("%s: fork failed\n", name);
  } else if (WIFSIGNALED(status)) {
    std::printf("%s: %s\n", name, WTERMSIG(status) == SIGALRM ? "timeout" : "killed");
  }
}

}  // namespace

int main() {
  char name[128];
  const CUtensorMapDataType u8 = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  for (cuuint64_t width : {64u, 100u, 128u, 256u}) {
    for (cuuint32_t box : {16u, 32u, 64u, 128u}) {
      std::snprintf(name, sizeof name, "2d u8 %llux70 box %ux32", static_cast<unsigned long long>(width), box);
      isolated(name, {u8, 1, 2, {width, 70, 1}, {box, 32, 1}});
    }
  }
  for (cuuint32_t rows : {1u, 2u, 8u, 16u, 64u}) {
    std::snprintf(name, sizeof name, "2d u8 256x70 box 64x%u", rows);
    isolated(name, {u8, 1, 2, {256, 70, 1}, {64, rows, 1}});
  }
  isolated("2d u8 256x70 box 256x8", {u8, 1, 2, {256, 70, 1}, {256, 8, 1}});
  isolated("3d u8 100x70x2 box 64x32x1", {u8, 1, 3, {100, 70, 2}, {64, 32, 1}});
  // tma_copies' first faulting case as it was, and the same box at (0, 0)
  // of a tensor whose rows are a multiple of 64 bytes.
  isolated("2d u8 100x70 box 64x32 at (8,4)", {u8, 1, 2, {100, 70, 1}, {64, 32, 1}, 8, 4});
  isolated("2d u8 128x70 box 64x32 at (8,4)", {u8, 1, 2, {128, 70, 1}, {64, 32, 1}, 8, 4});
  isolated("3d u8 256x70x2 box 16x8x2", {u8, 1, 3, {256, 70, 2}, {16, 8, 2}});
  isolated("1d u8 4096 box 16", {u8, 1, 1, {4096, 1, 1}, {16, 1, 1}});
  isolated("1d u8 4096 box 64", {u8, 1, 1, {4096, 1, 1}, {64, 1, 1}});
  for (cuuint32_t box : {8u, 16u, 32u}) {
    std::snprintf(name, sizeof name, "2d u16 256x70 box %ux32", box);
    isolated(name, {CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, 2, {256, 70, 1}, {box, 32, 1}});
  }
  for (cuuint32_t box : {4u, 8u, 16u}) {
    std::snprintf(name, sizeof name, "2d f32 64x48 box %ux8", box);
    isolated(name, {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2, {64, 48, 1}, {box, 8, 1}});
  }
  isolated("2d u16 50x70 box 32x32", {CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, 2, {50, 70, 1}, {32, 32, 1}});
  return 0;
}
