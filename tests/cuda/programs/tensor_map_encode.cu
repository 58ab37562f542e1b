// Tensor maps for the tensor memory accelerator: which arguments
// cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
// cuTensorMapReplaceAddress accept and which they refuse (the rules of
// their documentation, one case each), as the driver answers.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>

#include "driver_check.h"

namespace {

void show(const char* what, CUresult r) { printResult(what, r, 52); }

// A 2D tiled map of `type` elements, `width` x 64, box `box0` x 8.
struct Tiled {
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint32_t rank = 2;
  char* address = nullptr;
  cuuint64_t dims[5] = {64, 64, 4, 4, 4};
  cuuint64_t strides[4] = {256, 256 * 64, 256 * 64 * 4, 256 * 64 * 16};
  cuuint32_t box[5] = {32, 8, 1, 1, 1};
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

  CUresult encode(CUtensorMap* map) const {
    return cuTensorMapEncodeTiled(map, type, rank, address, dims, strides, box, elementStrides, interleave, swizzle,
                                  promotion, fill);
  }
};

}  // namespace

int main() {
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (usePrimaryContext(device, context) != CUDA_SUCCESS) return 1;
  CUdeviceptr memory = 0;
  if (cuMemAlloc(&memory, size_t{16} << 20) != CUDA_SUCCESS) return 1;
  char* base = reinterpret_cast<char*>(memory);
  alignas(64) CUtensorMap maps[2];
  CUtensorMap* map = &maps[0];

  Tiled t;
  t.address = base;
  show("tiled 64x64 float, box 32x8", t.encode(map));
  Tiled c = t;
  c.rank = 0;
  show("rank 0", c.encode(map));
  c = t, c.rank = 6;
  show("rank 6", c.encode(map));
  c = t, c.rank = 5;
  show("rank 5", c.encode(map));
  c = t, c.address = base + 8;
  show("address 8 bytes past 16-byte alignment", c.encode(map));
  c = t, c.dims[0] = 99, c.strides[0] = 396;
  show("stride 396 bytes (not a multiple of 16)", c.encode(map));
  c = t, c.strides[0] = uint64_t{1} << 40;
  show("stride 2^40 bytes", c.encode(map));
  c = t, c.dims[1] = 0;
  show("global dimension 0", c.encode(map));
  c = t, c.dims[1] = uint64_t{1} << 32;
  show("global dimension 2^32", c.encode(map));
  c = t, c.dims[1] = (uint64_t{1} << 32) + 1;
  show("global dimension 2^32 + 1", c.encode(map));
  c = t, c.box[1] = 0;
  show("box dimension 0", c.encode(map));
  c = t, c.box[1] = 256;
  show("box dimension 256", c.encode(map));
  c = t, c.box[1] = 257;
  show("box dimension 257", c.encode(map));
  c = t, c.box[0] = 3;
  show("box of 3 floats inside (12 bytes)", c.encode(map));
  c = t, c.elementStrides[1] = 8;
  show("element stride 8", c.encode(map));
  c = t, c.elementStrides[1] = 9;
  show("element stride 9", c.encode(map));
  c = t, c.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  show("32-byte swizzle, 128-byte box rows", c.encode(map));
  c = t, c.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  show("128-byte swizzle, 128-byte box rows", c.encode(map));
  c = t, c.swizzle = CU_TENSOR_MAP_SWIZZLE_64B, c.box[0] = 16;
  show("64-byte swizzle, 64-byte box rows", c.encode(map));
  c = t, c.type = CU_TENSOR_MAP_DATA_TYPE_UINT8, c.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  show("NaN fill of uint8", c.encode(map));
  c = t, c.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  show("NaN fill of float32", c.encode(map));
  c = t, c.type = static_cast<CUtensorMapDataType>(99);
  show("data type 99", c.encode(map));
  c = t, c.interleave = CU_TENSOR_MAP_INTERLEAVE_16B;
  show("16-byte interleave, rank 2", c.encode(map));
  c = t, c.interleave = CU_TENSOR_MAP_INTERLEAVE_16B, c.rank = 3;
  show("16-byte interleave, rank 3", c.encode(map));
  c = t, c.interleave = CU_TENSOR_MAP_INTERLEAVE_32B, c.rank = 3;
  show("32-byte interleave without 32-byte swizzle", c.encode(map));
  c = t, c.interleave = CU_TENSOR_MAP_INTERLEAVE_32B, c.rank = 3, c.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  show("32-byte interleave with 32-byte swizzle", c.encode(map));
  c = t, c.promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  show("L2 promotion 256 bytes", c.encode(map));
  show("map object not 64-byte aligned",
       t.encode(reinterpret_cast<CUtensorMap*>(reinterpret_cast<char*>(&maps[0]) + 16)));
  show("null map object", t.encode(nullptr));

  if (t.encode(map) != CUDA_SUCCESS) return 1;
  show("replace address, aligned", cuTensorMapReplaceAddress(map, base + 4096));
  show("replace address, 8 bytes off", cuTensorMapReplaceAddress(map, base + 4104));

  // im2col over an NHWC image of half floats: 64 channels, 16x16 pixels.
  cuuint64_t dims[4] = {64, 16, 16, 2};
  cuuint64_t strides[3] = {128, 128 * 16, 128 * 256};
  cuuint32_t elementStrides[4] = {1, 1, 1, 1};
  int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  auto im2col = [&](cuuint32_t rank, const int* lo, const int* hi, cuuint32_t channels, cuuint32_t pixels) {
    return cuTensorMapEncodeIm2col(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, rank, base, dims, strides, lo, hi, channels,
                                   pixels, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  show("im2col rank 4, 64 channels, 128 pixels", im2col(4, lower, upper, 64, 128));
  show("im2col rank 2", im2col(2, lower, upper, 64, 128));
  int far[2] = {-200, -1};
  show("im2col rank 4, corner -200", im2col(4, far, upper, 64, 128));
  int edge[2] = {-128, 127};
  show("im2col rank 4, corners -128 and 127", im2col(4, edge, edge, 64, 128));
  show("im2col 257 channels", im2col(4, lower, upper, 257, 128));
  show("im2col 1025 pixels", im2col(4, lower, upper, 64, 1025));
  show("im2col 4 channels (8 bytes)", im2col(4, lower, upper, 4, 128));

  cuMemFree(memory);
  cuDevicePrimaryCtxRelease(device);
  std::printf("done\n");
  return 0;
}
