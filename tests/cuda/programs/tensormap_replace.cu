// tensormap.replace as grouped GEMMs use it: a kernel copies a tensor map
// the host encoded into shared memory, replaces one field (the global
// address, a dimension, a stride, the box, the rank, the element stride,
// the element type, the swizzle, the fill mode), publishes it to global
// memory with tensormap.cp_fenceproxy, acquires it with
// fence.proxy.tensormap::generic, and loads a box through it. Each case
// prints a hash of the box in shared memory and its first bytes, so the
// encoding of every field's new value shows.
// nvcc flags: -lcuda
// nvcc arch: sm_90a
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "bits_hash.h"
#include "check.h"

namespace {

constexpr unsigned kBoxBytes = 16 * 1024;

enum class Field { None, Address, GlobalDim, GlobalStride, BoxDim, Rank, ElementStride, ElemType, Swizzle, Fill };

struct Replace {
  Field field;
  int ord;
  uint64_t value;
};

__device__ void replaceField(uint32_t map, Replace r) {
  uint32_t v32 = static_cast<uint32_t>(r.value);
  switch (r.field) {
    case Field::None: break;
    case Field::Address:
      asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(map), "l"(r.value));
      break;
    case Field::GlobalDim:
      if (r.ord == 0)
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(map), "r"(v32));
      else
        asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(map), "r"(v32));
      break;
    case Field::GlobalStride:
      asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(map),
                   "l"(r.value));
      break;
    case Field::BoxDim:
      if (r.ord == 0)
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(map), "r"(v32));
      else
        asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(map), "r"(v32));
      break;
    case Field::Rank:
      asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], %1;" ::"r"(map), "r"(v32));
      break;
    case Field::ElementStride:
      asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(map), "r"(v32));
      break;
    // The element type, swizzle and fill mode take immediates.
    case Field::ElemType:
      if (v32 == 0) asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 0;" ::"r"(map));
      if (v32 == 1) asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 1;" ::"r"(map));
      if (v32 == 6) asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 6;" ::"r"(map));
      if (v32 == 9) asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 9;" ::"r"(map));
      break;
    case Field::Swizzle:
      if (v32 == 1) asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 1;" ::"r"(map));
      if (v32 == 2) asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 2;" ::"r"(map));
      break;
    case Field::Fill:
      asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 1;" ::"r"(map));
      break;
  }
}

// One warp: the map to shared memory, the replacement, the copy to
// `published` in global memory, then a 2D (or 1D for rank 1) load at
// (x, y) into shared memory, copied out.
__global__ void replaceAndLoad(const __grid_constant__ CUtensorMap map, Replace r, CUtensorMap* published, int x,
                               int y, bool rank1, unsigned bytes, uint8_t* out, unsigned* completed) {
  __shared__ __align__(128) CUtensorMap shared;
  __shared__ __align__(8) uint64_t bar;
  extern __shared__ __align__(1024) uint8_t dynamic[];
  uint8_t* box = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(dynamic) + 1023) & ~uintptr_t{1023});
  const uint32_t* from = reinterpret_cast<const uint32_t*>(&map);
  uint32_t* to = reinterpret_cast<uint32_t*>(&shared);
  to[threadIdx.x] = from[threadIdx.x];  // 32 threads x 4 bytes
  for (unsigned i = threadIdx.x; i < kBoxBytes; i += 32) box[i] = 0xee;
  __syncwarp();
  uint32_t mapAddress = static_cast<uint32_t>(__cvta_generic_to_shared(&shared));
  uint32_t barAddress = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    replaceField(mapAddress, r);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barAddress));
  }
  __syncwarp();
  asm volatile(
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(
          published),
      "r"(mapAddress)
      : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(published) : "memory");
  asm volatile("fence.proxy.async.shared::cta;");
  if (threadIdx.x == 0) {
    uint64_t m = reinterpret_cast<uint64_t>(published);
    uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(box));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barAddress), "r"(bytes));
    if (rank1) {
      asm volatile(
          "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::
              "r"(dst),
          "l"(m), "r"(x), "r"(barAddress)
          : "memory");
    } else {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
          "[%4];" ::"r"(dst),
          "l"(m), "r"(x), "r"(y), "r"(barAddress)
          : "memory");
    }
  }
  // A replaced field can make the box deliver other than `bytes`: the wait
  // is bounded so that such a case reports it instead of hanging.
  uint32_t done = 0;
  for (int spin = 0; spin < (1 << 20) && !done; ++spin) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(barAddress));
  }
  if (threadIdx.x == 0) *completed = done;
  for (unsigned i = threadIdx.x; i < kBoxBytes; i += 32) out[i] = box[i];
}

}  // namespace

int main() {
  uint8_t *tensor = nullptr, *other = nullptr, *out = nullptr;
  CUtensorMap* published = nullptr;
  unsigned* completed = nullptr;
  CHECK(cudaMallocManaged(&tensor, 1 << 20));
  CHECK(cudaMallocManaged(&other, 1 << 20));
  CHECK(cudaMallocManaged(&out, kBoxBytes));
  CHECK(cudaMalloc(&published, sizeof(CUtensorMap)));
  CHECK(cudaMallocManaged(&completed, sizeof(unsigned)));
  for (int i = 0; i < (1 << 20); ++i) {
    tensor[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
    other[i] = static_cast<uint8_t>(i * 13 + 5 + (i >> 9));
  }
  CHECK(cudaFuncSetAttribute(replaceAndLoad, cudaFuncAttributeMaxDynamicSharedMemorySize, kBoxBytes + 1024));
  // The base map: 2D f32, 64 x 48 elements, rows 512 bytes apart, box 16 x 8.
  CUtensorMap map;
  cuuint64_t dims[2] = {64, 48}, strides[1] = {512};
  cuuint32_t box[2] = {16, 8}, elementStrides[2] = {1, 1};
  CUresult e = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, strides, box,
                                      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS) {
    std::printf("encode failed: %d\n", static_cast<int>(e));
    return 1;
  }
  struct Case {
    const char* name;
    Replace r;
    int x, y;
    bool rank1;
    unsigned bytes;
  };
  const uint64_t otherAddress = reinterpret_cast<uint64_t>(other);
  const Case cases[] = {
      {"unchanged", {Field::None, 0, 0}, 4, 4, false, 512},
      {"global_address", {Field::Address, 0, otherAddress}, 4, 4, false, 512},
      {"global_dim 0 = 10", {Field::GlobalDim, 0, 10}, 0, 4, false, 512},
      {"global_dim 1 = 6", {Field::GlobalDim, 1, 6}, 4, 0, false, 512},
      {"global_stride 0 = 1024", {Field::GlobalStride, 0, 1024}, 4, 4, false, 512},
      {"global_stride 0 = 64", {Field::GlobalStride, 0, 64}, 4, 4, false, 512},
      {"box_dim 0 = 8", {Field::BoxDim, 0, 8}, 4, 4, false, 256},
      {"box_dim 0 = 7", {Field::BoxDim, 0, 7}, 4, 4, false, 256},
      {"box_dim 1 = 3", {Field::BoxDim, 1, 3}, 4, 4, false, 192},
      {"box_dim 1 = 4", {Field::BoxDim, 1, 4}, 4, 4, false, 256},
      {"rank = 0", {Field::Rank, 0, 0}, 4, 4, true, 64},
      {"rank = 1", {Field::Rank, 0, 1}, 4, 4, false, 512},
      {"element_stride 1 = 1", {Field::ElementStride, 1, 1}, 4, 4, false, 256},
      {"element_stride 1 = 2", {Field::ElementStride, 1, 2}, 4, 4, false, 256},
      {"elemtype = 0", {Field::ElemType, 0, 0}, 4, 4, false, 128},
      {"elemtype = 1", {Field::ElemType, 0, 1}, 4, 4, false, 256},
      {"elemtype = 6", {Field::ElemType, 0, 6}, 4, 4, false, 256},
      {"elemtype = 9", {Field::ElemType, 0, 9}, 4, 4, false, 1024},
      {"swizzle_mode = 1", {Field::Swizzle, 0, 1}, 4, 4, false, 512},
      {"swizzle_mode = 2", {Field::Swizzle, 0, 2}, 4, 4, false, 512},
      {"fill_mode = 1, box past the edge", {Field::Fill, 0, 1}, 56, 44, false, 512},
  };
  for (const Case& c : cases) {
    replaceAndLoad<<<1, 32, kBoxBytes + 1024>>>(map, c.r, published, c.x, c.y, c.rank1, c.bytes, out, completed);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      std::printf("%s: %s\n", c.name, cudaGetErrorName(err));
      return 1;
    }
    if (*completed == 0) {
      std::printf("%s: the load did not complete %u bytes\n", c.name, c.bytes);
      continue;
    }
    std::printf("%s: %016llx", c.name, bitsHash(out, kBoxBytes));
    for (int i = 0; i < 24; ++i) std::printf(" %02x", out[i]);
    std::printf("\n");
  }
  return 0;
}
