// The tensor memory accelerator as Hopper kernels use it: tensor maps from
// cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col passed as
// __grid_constant__ parameters, and cp.async.bulk.tensor
//  - loads (1D to 5D, tile mode) into shared memory completing on an
//    mbarrier: every swizzle, interleaved layouts, element strides, boxes
//    that run past the tensor's edges and start at negative coordinates
//    (zeros, or NaN with CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA),
//    strided (non-packed) global tensors, each element size;
//  - im2col loads (3D and 4D) with their offsets;
//  - stores from shared memory and reductions into global memory (add,
//    min, max, inc, dec, and, or, xor) in bulk groups, clipped at the edges;
//  - prefetches to L2 (no visible effect but must be accepted).
// A load case prints a hash of the whole shared-memory box and its first
// bytes; a store or reduction case, a hash of the global tensor after it.
// Each case runs in a child process of its own (fork before any CUDA call):
// a fault is sticky for the context it happens in, and a child's context
// ends with the child, so a case that faults names its error and the cases
// after it still run.
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bits_hash.h"
#include "check.h"

namespace {

uint64_t state = 0x6a09e667f3bcc909ull;
uint32_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(state >> 33);
}

constexpr unsigned kSharedBytes = 48 * 1024;

__device__ uint32_t sharedAddress(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// The 1 KiB-aligned box in dynamic shared memory, filled with 0xEE so
// bytes the copy does not write show.
__device__ uint8_t* alignedBox(uint8_t* shared) {
  uint8_t* box = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(shared) + 1023) & ~uintptr_t{1023});
  for (unsigned i = threadIdx.x; i < kSharedBytes; i += blockDim.x) box[i] = 0xee;
  return box;
}

// Thread 0 initialises the mbarrier for one arrival; its shared address.
__device__ uint32_t initBarrier(uint64_t* bar) {
  const uint32_t address = sharedAddress(bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(address));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  asm volatile("fence.proxy.async.shared::cta;");
  return address;
}

// Spins until the mbarrier's first phase completes.
__device__ void waitFirstPhase(uint32_t bar) {
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(bar));
  }
}

__device__ void issueLoad(const CUtensorMap* map, uint32_t dst, uint32_t bar, int rank, const int* c) {
  uint64_t m = reinterpret_cast<uint64_t>(map);
  switch (rank) {
    case 1:
      asm volatile(
          "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
          ::"r"(dst), "l"(m), "r"(c[0]), "r"(bar) : "memory");
      break;
    case 2:
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
          "[%4];" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory");
      break;
    case 3:
      asm volatile(
          "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
          "%4}], [%5];" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
      break;
    case 4:
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
          "%4, %5}], [%6];" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
      break;
    default:
      asm volatile(
          "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
          "%4, %5, %6}], [%7];" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar)
          : "memory");
      break;
  }
}

__device__ void issueIm2col(const CUtensorMap* map, uint32_t dst, uint32_t bar, int rank, const int* c,
                            const int* offsets) {
  uint64_t m = reinterpret_cast<uint64_t>(map);
  uint16_t o0 = static_cast<uint16_t>(offsets[0]), o1 = static_cast<uint16_t>(offsets[1]);
  if (rank == 3) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
        "%4}], [%5], {%6};" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(o0) : "memory");
  } else {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
        "%4, %5}], [%6], {%7, %8};" ::"r"(dst), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar),
        "h"(o0), "h"(o1) : "memory");
  }
}

struct LoadArgs {
  int rank;
  int coords[5];
  int offsets[2];
  bool im2col;
  bool prefetchFirst;
  unsigned bytes;  // the transaction count the box delivers
};

// One thread issues the load; the block waits on the mbarrier and copies
// the shared bytes out. Shared memory is first filled with 0xEE so bytes
// the copy does not write show.
__global__ void loadKernel(const __grid_constant__ CUtensorMap map, LoadArgs args, uint8_t* out) {
  extern __shared__ __align__(1024) uint8_t shared[];
  __shared__ uint64_t bar;
  uint8_t* box = alignedBox(shared);
  const uint32_t barAddress = initBarrier(&bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint64_t m = reinterpret_cast<uint64_t>(&map);
    if (args.prefetchFirst) {
      asm volatile("prefetch.tensormap [%0];" ::"l"(m));
      asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(m), "r"(args.coords[0]),
                   "r"(args.coords[1]));
    }
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barAddress), "r"(args.bytes));
    if (args.im2col)
      issueIm2col(&map, sharedAddress(box), barAddress, args.rank, args.coords, args.offsets);
    else
      issueLoad(&map, sharedAddress(box), barAddress, args.rank, args.coords);
  }
  waitFirstPhase(barAddress);
  for (unsigned i = threadIdx.x; i < kSharedBytes; i += blockDim.x) out[i] = box[i];
}

enum class Op { Store, Add, Min, Max, Inc, Dec, And, Or, Xor };

struct StoreArgs {
  int rank;
  int coords[5];
  Op op;
};

// The block fills its shared box from `in`, then one thread stores it (or
// reduces it) into the tensor and waits for the bulk group.
__global__ void storeKernel(const __grid_constant__ CUtensorMap map, StoreArgs args, const uint8_t* in) {
  extern __shared__ __align__(1024) uint8_t shared[];
  uint8_t* box = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(shared) + 1023) & ~uintptr_t{1023});
  for (unsigned i = threadIdx.x; i < kSharedBytes; i += blockDim.x) box[i] = in[i];
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint64_t m = reinterpret_cast<uint64_t>(&map);
  uint32_t src = sharedAddress(box);
  const int* c = args.coords;
#define TMA_STORE_2D(OP)                                                                                   \
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." OP ".tile.bulk_group [%0, {%1, %2}], [%3];" \
               ::"l"(m), "r"(c[0]), "r"(c[1]), "r"(src) : "memory")
  switch (args.op) {
    case Op::Store:
      if (args.rank == 2) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m),
                     "r"(c[0]), "r"(c[1]), "r"(src) : "memory");
      } else if (args.rank == 3) {
        asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(m),
                     "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
      } else {
        asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" ::"l"(m),
                     "r"(c[0]), "r"(src) : "memory");
      }
      break;
    case Op::Add: TMA_STORE_2D("add"); break;
    case Op::Min: TMA_STORE_2D("min"); break;
    case Op::Max: TMA_STORE_2D("max"); break;
    case Op::Inc: TMA_STORE_2D("inc"); break;
    case Op::Dec: TMA_STORE_2D("dec"); break;
    case Op::And: TMA_STORE_2D("and"); break;
    case Op::Or: TMA_STORE_2D("or"); break;
    case Op::Xor: TMA_STORE_2D("xor"); break;
  }
#undef TMA_STORE_2D
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// A cluster of two: rank 0 loads one box for both CTAs with
// .multicast::cluster; each CTA waits on its own mbarrier at the same
// offset and copies what landed in its shared memory to out[rank].
__global__ void __cluster_dims__(2, 1, 1) multicastKernel(const __grid_constant__ CUtensorMap map, int x, int y,
                                                          unsigned bytes, uint8_t* out) {
  extern __shared__ __align__(1024) uint8_t shared[];
  __shared__ uint64_t bar;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  uint8_t* box = alignedBox(shared);
  const uint32_t barAddress = initBarrier(&bar);
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barAddress), "r"(bytes));
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (rank == 0 && threadIdx.x == 0) {
    uint64_t m = reinterpret_cast<uint64_t>(&map);
    uint16_t mask = 0x3;
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], "
        "[%1, {%2, %3}], [%4], %5;" ::"r"(sharedAddress(box)),
        "l"(m), "r"(x), "r"(y), "r"(barAddress), "h"(mask)
        : "memory");
  }
  waitFirstPhase(barAddress);
  for (unsigned i = threadIdx.x; i < kSharedBytes; i += blockDim.x) out[rank * kSharedBytes + i] = box[i];
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

struct Tensor {
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  unsigned elementBytes = 1;
  unsigned rank = 2;
  cuuint64_t dims[5] = {1, 1, 1, 1, 1};
  cuuint64_t strides[4] = {};  // bytes; 0: packed
  cuuint32_t box[5] = {1, 1, 1, 1, 1};
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

  // Strides left 0 become the packed ones (each a multiple of 16 bytes).
  void pack() {
    cuuint64_t s = dims[0] * elementBytes;
    for (unsigned i = 0; i + 1 < rank; ++i) {
      if (strides[i] == 0) strides[i] = (s + 15) / 16 * 16;
      s = strides[i] * dims[i + 1];
    }
  }
  size_t bytes() const {
    size_t last = rank == 1 ? dims[0] * elementBytes : strides[rank - 2] * dims[rank - 1];
    return last;
  }
  // The bytes one box delivers to shared memory.
  unsigned boxBytes() const {
    size_t n = elementBytes;
    for (unsigned i = 0; i < rank; ++i) n *= (box[i] + elementStrides[i] - 1) / elementStrides[i];
    return static_cast<unsigned>(n);
  }
};

CUresult encodeTiled(CUtensorMap* map, const Tensor& t, void* address) {
  return cuTensorMapEncodeTiled(map, t.type, t.rank, address, t.dims, t.strides, t.box, t.elementStrides,
                                t.interleave, t.swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, t.fill);
}

struct Buffers {
  uint8_t* tensor = nullptr;  // the global tensor
  uint8_t* shared = nullptr;  // what the box left in shared memory
  uint8_t* input = nullptr;   // the shared contents a store starts from
  size_t tensorBytes = size_t{4} << 20;
};

void fillRandom(uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(next());
}

// A tensor map the driver refused: the case's line names the error (not a
// failure of the program: the refusal is what the case records).
int encodeFailed(const char* name, CUresult r) {
  const char* e = nullptr;
  cuGetErrorName(r, &e);
  std::printf("%s: encode %s\n", name, e);
  return 0;
}

// The launch's outcome: 0, or 1 after printing the case's name and error.
int finish(const char* name) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return 0;
  std::printf("%s: %s\n", name, cudaGetErrorName(e));
  return 1;
}

int loadCase(const char* name, const Buffers& b, const Tensor& t, LoadArgs args) {
  fillRandom(b.tensor, b.tensorBytes);
  CUtensorMap map;
  CUresult r = encodeTiled(&map, t, b.tensor);
  if (r != CUDA_SUCCESS) return encodeFailed(name, r);
  args.bytes = t.boxBytes();
  loadKernel<<<1, 128, kSharedBytes + 1024>>>(map, args, b.shared);
  if (finish(name) != 0) return 1;
  std::printf("%s: %016llx", name, bitsHash(b.shared, kSharedBytes));
  for (int i = 0; i < 16; ++i) std::printf(" %02x", b.shared[i]);
  std::printf("\n");
  return 0;
}

int im2colCase(const char* name, const Buffers& b, unsigned rank, const cuuint64_t* dims, int lower0, int upper0,
               unsigned channels, unsigned pixels, LoadArgs args) {
  fillRandom(b.tensor, b.tensorBytes);
  CUtensorMap map;
  cuuint64_t strides[4];
  cuuint64_t s = dims[0] * 2;  // f16 elements
  for (unsigned i = 0; i + 1 < rank; ++i) {
    strides[i] = (s + 15) / 16 * 16;
    s = strides[i] * dims[i + 1];
  }
  int lower[3] = {lower0, lower0, lower0}, upper[3] = {upper0, upper0, upper0};
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUresult r = cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, rank, b.tensor, dims, strides, lower,
                                       upper, channels, pixels, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                       CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return encodeFailed(name, r);
  args.im2col = true;
  args.rank = static_cast<int>(rank);
  args.bytes = channels * pixels * 2;
  loadKernel<<<1, 128, kSharedBytes + 1024>>>(map, args, b.shared);
  if (finish(name) != 0) return 1;
  std::printf("%s: %016llx", name, bitsHash(b.shared, kSharedBytes));
  for (int i = 0; i < 16; ++i) std::printf(" %02x", b.shared[i]);
  std::printf("\n");
  return 0;
}

int storeCase(const char* name, const Buffers& b, const Tensor& t, StoreArgs args) {
  fillRandom(b.tensor, b.tensorBytes);
  fillRandom(b.input, kSharedBytes);
  CUtensorMap map;
  CUresult r = encodeTiled(&map, t, b.tensor);
  if (r != CUDA_SUCCESS) return encodeFailed(name, r);
  storeKernel<<<1, 128, kSharedBytes + 1024>>>(map, args, b.input);
  if (finish(name) != 0) return 1;
  std::printf("%s: %016llx\n", name, bitsHash(b.tensor, t.bytes()));
  return 0;
}

// Rank 0 of a cluster of two loads one box for both CTAs.
int multicastCase(const Buffers& b) {
  const char* name = "multicast 2d u8 box 64x32 at (8,4) to a cluster of 2";
  Tensor t;
  t.rank = 2, t.dims[0] = 100, t.dims[1] = 70, t.box[0] = 64, t.box[1] = 32;
  t.pack();
  fillRandom(b.tensor, b.tensorBytes);
  CUtensorMap map;
  CUresult r = encodeTiled(&map, t, b.tensor);
  if (r != CUDA_SUCCESS) return encodeFailed(name, r);
  uint8_t* both = nullptr;
  CHECK(cudaMallocManaged(&both, 2 * kSharedBytes));
  multicastKernel<<<2, 128, kSharedBytes + 1024>>>(map, 8, 4, t.boxBytes(), both);
  if (finish(name) != 0) return 1;
  std::printf("%s: %016llx %016llx\n", name, bitsHash(both, kSharedBytes), bitsHash(both + kSharedBytes, kSharedBytes));
  return 0;
}

int setUp(Buffers& b) {
  CHECK(cudaMallocManaged(&b.tensor, b.tensorBytes));
  CHECK(cudaMallocManaged(&b.shared, kSharedBytes));
  CHECK(cudaMallocManaged(&b.input, kSharedBytes));
  CHECK(cudaFuncSetAttribute(loadKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes + 1024));
  CHECK(cudaFuncSetAttribute(storeKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes + 1024));
  CHECK(cudaFuncSetAttribute(multicastKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes + 1024));
  return 0;
}

// Runs each case in a child process with buffers of its own and random
// values seeded by the case's number; its exit status is the case's.
class Isolated {
 public:
  template <typename Case>
  int operator()(Case&& run) {
    const unsigned number = cases_++;
    std::fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      alarm(20);  // a case whose mbarrier never completes ends as a timeout
      state = 0x6a09e667f3bcc909ull + 0x9e3779b97f4a7c15ull * number;
      Buffers b;
      int rc = setUp(b);
      if (rc == 0) rc = run(b);
      std::fflush(stdout);
      _exit(rc);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 1;
    if (WIFSIGNALED(status)) std::printf("case %u: %s\n", number, WTERMSIG(status) == SIGALRM ? "timeout" : "killed");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }

 private:
  unsigned cases_ = 0;
};

}  // namespace

int main() {
  Isolated isolated;
  int failed = 0;

  // Tile loads: ranks 1 to 5, u8.
  {
    Tensor t;
    t.rank = 1, t.dims[0] = 4096, t.box[0] = 256;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("1d u8 box 256 at 64", b, t, {1, {64}}); });
    failed |= isolated([&](Buffers& b) { return loadCase("1d u8 box 256 at 3968 (past the end)", b, t, {1, {3968}}); });
    failed |= isolated([&](Buffers& b) { return loadCase("1d u8 box 256 at -16", b, t, {1, {-16}}); });
  }
  {
    Tensor t;
    t.rank = 2, t.dims[0] = 100, t.dims[1] = 70, t.box[0] = 64, t.box[1] = 32;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("2d u8 100x70 box 64x32 at (8,4)", b, t, {2, {8, 4}}); });
    failed |= isolated([&](Buffers& b) { return loadCase("2d u8 100x70 box 64x32 at (60,50) (both edges)", b, t, {2, {60, 50}}); });
    failed |= isolated([&](Buffers& b) { return loadCase("2d u8 100x70 box 64x32 at (-20,-3)", b, t, {2, {-20, -3}}); });
    Tensor s = t;
    s.strides[0] = 256;
    failed |= isolated([&](Buffers& b) { return loadCase("2d u8 strided rows 256 box 64x32 at (8,4)", b, s, {2, {8, 4}}); });
  }
  {
    Tensor t;
    t.rank = 3, t.dims[0] = 48, t.dims[1] = 20, t.dims[2] = 9, t.box[0] = 32, t.box[1] = 8, t.box[2] = 4;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("3d u8 box 32x8x4 at (16,14,7)", b, t, {3, {16, 14, 7}}); });
    t.rank = 4, t.dims[3] = 5, t.box[3] = 2;
    t.strides[2] = 0;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("4d u8 box 32x8x4x2 at (0,2,3,4)", b, t, {4, {0, 2, 3, 4}}); });
    t.rank = 5, t.dims[4] = 3, t.box[4] = 3;
    t.strides[3] = 0;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("5d u8 box 32x8x4x2x3 at (16,0,6,-1,1)", b, t, {5, {16, 0, 6, -1, 1}}); });
  }
  // Element sizes and the out-of-bounds fill.
  struct TypeCase {
    const char* name;
    CUtensorMapDataType type;
    unsigned bytes;
  };
  const TypeCase types[] = {
      {"u16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 2},   {"u32", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4},
      {"s32", CU_TENSOR_MAP_DATA_TYPE_INT32, 4},    {"u64", CU_TENSOR_MAP_DATA_TYPE_UINT64, 8},
      {"f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2},  {"f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4},
      {"f64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8},  {"bf16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2},
      {"tf32", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4}, {"f32 ftz", CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, 4},
  };
  for (const TypeCase& ty : types) {
    for (int nanFill = 0; nanFill < 2; ++nanFill) {
      Tensor t;
      t.type = ty.type, t.elementBytes = ty.bytes;
      t.rank = 2, t.dims[0] = 40, t.dims[1] = 24, t.box[0] = 64 / ty.bytes * 2, t.box[1] = 16;
      t.fill = nanFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
      t.pack();
      char name[96];
      std::snprintf(name, sizeof name, "2d %s 40x24 box %ux16 at (24,-4)%s", ty.name, t.box[0],
                    nanFill ? " nan fill" : "");
      failed |= isolated([&](Buffers& b) { return loadCase(name, b, t, {2, {24, -4}}); });
    }
  }
  // Swizzles: the box's inner dimension as wide as the swizzle span.
  struct SwizzleCase {
    const char* name;
    CUtensorMapSwizzle swizzle;
    unsigned span;
  };
  const SwizzleCase swizzles[] = {{"32B", CU_TENSOR_MAP_SWIZZLE_32B, 32},
                                  {"64B", CU_TENSOR_MAP_SWIZZLE_64B, 64},
                                  {"128B", CU_TENSOR_MAP_SWIZZLE_128B, 128}};
  for (const SwizzleCase& sw : swizzles) {
    for (unsigned bytes : {1u, 2u, 4u}) {
      Tensor t;
      t.type = bytes == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                          : bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
      t.elementBytes = bytes;
      t.rank = 2, t.dims[0] = 256, t.dims[1] = 96, t.box[0] = sw.span / bytes, t.box[1] = 64;
      t.swizzle = sw.swizzle;
      t.pack();
      char name[96];
      int x = static_cast<int>(3 * t.box[0] % 256);
      std::snprintf(name, sizeof name, "2d swizzle %s %u-byte elements box %ux64 at (%d,8)", sw.name, bytes,
                    t.box[0], x);
      failed |= isolated([&](Buffers& b) { return loadCase(name, b, t, {2, {x, 8}}); });
      if (bytes == 2) {
        t.box[0] = sw.span / bytes / 2;  // half the span
        std::snprintf(name, sizeof name, "2d swizzle %s f16 narrow box %ux64 at (8,-8)", sw.name, t.box[0]);
        failed |= isolated([&](Buffers& b) { return loadCase(name, b, t, {2, {8, -8}}); });
        t.rank = 3, t.dims[2] = 4, t.box[2] = 2, t.box[0] = sw.span / 2;
        t.strides[1] = 0;
        t.pack();
        std::snprintf(name, sizeof name, "3d swizzle %s f16 box %ux64x2 at (0,40,3)", sw.name, t.box[0]);
        failed |= isolated([&](Buffers& b) { return loadCase(name, b, t, {3, {0, 40, 3}}); });
      }
    }
  }
  // Interleaved layouts (rank 3 and up, the inner dimension in 16- or
  // 32-byte units), and element strides.
  for (int il = 0; il < 2; ++il) {
    Tensor t;
    t.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16, t.elementBytes = 2;
    t.rank = 3, t.dims[0] = il ? 16 : 8, t.dims[1] = 30, t.dims[2] = 12;
    t.box[0] = il ? 16 : 8, t.box[1] = 16, t.box[2] = 4;
    t.interleave = il ? CU_TENSOR_MAP_INTERLEAVE_32B : CU_TENSOR_MAP_INTERLEAVE_16B;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase(il ? "3d interleave 32B f16 box 16x16x4 at (0,20,10)" : "3d interleave 16B f16 box 8x16x4 at (0,20,10)",
                       b, t, {3, {0, 20, 10}}); });
  }
  {
    Tensor t;
    t.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32, t.elementBytes = 4;
    t.rank = 2, t.dims[0] = 64, t.dims[1] = 64, t.box[0] = 32, t.box[1] = 16;
    t.elementStrides[0] = 1, t.elementStrides[1] = 3;
    t.pack();
    failed |= isolated([&](Buffers& b) { return loadCase("2d f32 element strides (1,3) box 32x16 at (5,7)", b, t, {2, {5, 7}}); });
    t.elementStrides[0] = 2, t.elementStrides[1] = 2;
    failed |= isolated([&](Buffers& b) { return loadCase("2d f32 element strides (2,2) box 32x16 at (40,50)", b, t, {2, {40, 50}}); });
  }
  // Prefetch first, then the load.
  {
    Tensor t;
    t.rank = 2, t.dims[0] = 100, t.dims[1] = 70, t.box[0] = 64, t.box[1] = 32;
    t.pack();
    LoadArgs a{2, {8, 4}};
    a.prefetchFirst = true;
    failed |= isolated([&](Buffers& b) { return loadCase("2d u8 after prefetch.tensormap and a tensor prefetch", b, t, a); });
  }
  // im2col: NHWC f16 tensors, 3D (N W C) and 4D (N H W C).
  {
    const cuuint64_t dims3[3] = {64, 18, 2};  // C, W, N
    LoadArgs a{};
    a.coords[0] = 0, a.coords[1] = -1, a.coords[2] = 1, a.offsets[0] = 2;
    failed |= isolated([&](Buffers& b) { return im2colCase("im2col 3d f16 C64 W18 N2, 64 channels x 16 pixels", b, 3, dims3, -1, 1, 64, 16, a); });
    const cuuint64_t dims4[4] = {32, 10, 10, 2};  // C, W, H, N
    LoadArgs c{};
    c.coords[0] = 0, c.coords[1] = -1, c.coords[2] = -1, c.coords[3] = 0, c.offsets[0] = 1, c.offsets[1] = 2;
    failed |= isolated([&](Buffers& b) { return im2colCase("im2col 4d f16 C32 W10 H10 N2, 32 channels x 64 pixels", b, 4, dims4, -1, -1, 32, 64, c); });
  }
  // A multicast load to a cluster of two.
  failed |= isolated([&](Buffers& b) { return multicastCase(b); });
  // Stores and reductions.
  {
    Tensor t;
    t.type = CU_TENSOR_MAP_DATA_TYPE_INT32, t.elementBytes = 4;
    t.rank = 2, t.dims[0] = 50, t.dims[1] = 40, t.box[0] = 16, t.box[1] = 16;
    t.pack();
    failed |= isolated([&](Buffers& b) { return storeCase("store 2d s32 box 16x16 at (8,8)", b, t, {2, {8, 8}, Op::Store}); });
    failed |= isolated([&](Buffers& b) { return storeCase("store 2d s32 box 16x16 at (40,-6) (clipped)", b, t, {2, {40, -6}, Op::Store}); });
    // The forms the documentation lists for each type first; the doubtful
    // ones (which may fault, ending the program) last.
    const Op ops[] = {Op::Add, Op::Min, Op::Max, Op::And, Op::Or, Op::Xor};
    const char* names[] = {"add", "min", "max", "and", "or", "xor"};
    for (int i = 0; i < 6; ++i) {
      char name[64];
      std::snprintf(name, sizeof name, "reduce %s 2d s32 box 16x16 at (40,30)", names[i]);
      failed |= isolated([&](Buffers& b) { return storeCase(name, b, t, {2, {40, 30}, ops[i]}); });
    }
    Tensor u = t;
    u.type = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    failed |= isolated([&](Buffers& b) { return storeCase("reduce min 2d u32 box 16x16 at (4,4)", b, u, {2, {4, 4}, Op::Min}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce inc 2d u32 box 16x16 at (4,4)", b, u, {2, {4, 4}, Op::Inc}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce dec 2d u32 box 16x16 at (4,4)", b, u, {2, {4, 4}, Op::Dec}); });
    Tensor f = t;
    f.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    failed |= isolated([&](Buffers& b) { return storeCase("reduce add 2d f32 box 16x16 at (4,4)", b, f, {2, {4, 4}, Op::Add}); });
    Tensor h = t;
    h.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16, h.elementBytes = 2, h.box[0] = 32;
    h.pack();
    failed |= isolated([&](Buffers& b) { return storeCase("reduce add 2d f16 box 32x16 at (4,4)", b, h, {2, {4, 4}, Op::Add}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce min 2d f16 box 32x16 at (4,4)", b, h, {2, {4, 4}, Op::Min}); });
    Tensor h2 = h;
    h2.type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    failed |= isolated([&](Buffers& b) { return storeCase("reduce add 2d bf16 box 32x16 at (4,4)", b, h2, {2, {4, 4}, Op::Add}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce max 2d bf16 box 32x16 at (4,4)", b, h2, {2, {4, 4}, Op::Max}); });
    Tensor s = t;
    s.rank = 3, s.dims[2] = 6, s.box[2] = 2, s.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    s.pack();
    failed |= isolated([&](Buffers& b) { return storeCase("store 3d s32 swizzle 64B box 16x16x2 at (0,24,5)", b, s, {3, {0, 24, 5}, Op::Store}); });
    Tensor one;
    one.rank = 1, one.dims[0] = 1000, one.box[0] = 128;
    one.pack();
    failed |= isolated([&](Buffers& b) { return storeCase("store 1d u8 box 128 at 900", b, one, {1, {900}, Op::Store}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce inc 2d s32 box 16x16 at (4,4)", b, t, {2, {4, 4}, Op::Inc}); });
    failed |= isolated([&](Buffers& b) { return storeCase("reduce max 2d f32 box 16x16 at (4,4)", b, f, {2, {4, 4}, Op::Max}); });
  }
  return failed;
}
