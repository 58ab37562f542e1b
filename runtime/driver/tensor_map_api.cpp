// Tensor maps for the tensor memory accelerator: cuTensorMapEncodeTiled and
// cuTensorMapEncodeIm2col check their arguments as CUDA 13's documentation
// states the rules, except two an H100's driver does not enforce (a map
// object aligned to 64 bytes; the 32-byte swizzle with the 32-byte
// interleave), as tests/cuda/programs/tensor_map_encode.cu recorded, and
// write the 128-byte object in the layout the simulator reads
// (sim/tensor_map.h).

#include <cstdint>

#include "driver_api.h"
#include "ptxsim/sim/tensor_map.h"

namespace {

using ptxsim::sim::TensorMapDescriptor;

// Bits per element of each CUtensorMapDataType; 0 for an unknown one.
unsigned elementBits(CUtensorMapDataType type) {
  switch (type) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 8;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 16;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 32;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 64;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B:
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return 6;
    default: return 0;
  }
}

bool isFloat(CUtensorMapDataType type) {
  switch (type) {
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return true;
    default: return false;
  }
}

bool packed16(CUtensorMapDataType type) {
  return type == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B || type == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
}

// The swizzle span in bytes (0: none).
unsigned swizzleBytes(CUtensorMapSwizzle swizzle) {
  switch (swizzle) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: return 0;
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    default: return 128;
  }
}

// The rules common to both layouts: the object, the type, the address, the
// global dimensions and strides, element strides and the enumerations.
bool commonValid(const CUtensorMap* map, CUtensorMapDataType type, unsigned rank, const void* address,
                 const cuuint64_t* globalDim, const cuuint64_t* globalStrides, const cuuint32_t* elementStrides,
                 CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                 CUtensorMapFloatOOBfill oobFill) {
  if (map == nullptr) return false;
  if (elementBits(type) == 0 || rank == 0 || rank > ptxsim::sim::kTensorMapMaxRank) return false;
  if (interleave > CU_TENSOR_MAP_INTERLEAVE_32B || swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B ||
      l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B || oobFill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) {
    return false;
  }
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3) return false;
  bool wide = interleave == CU_TENSOR_MAP_INTERLEAVE_32B || packed16(type);
  if (address == nullptr || reinterpret_cast<uintptr_t>(address) % (wide ? 32 : 16) != 0) return false;
  if (globalDim == nullptr || elementStrides == nullptr || (rank > 1 && globalStrides == nullptr)) return false;
  for (unsigned i = 0; i < rank; ++i) {
    if (globalDim[i] == 0 || globalDim[i] > (uint64_t{1} << 32)) return false;
    if (elementStrides[i] == 0 || elementStrides[i] > 8) return false;
  }
  if (packed16(type) && globalDim[0] % 128 != 0) return false;
  if (type == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && globalDim[0] % 2 != 0) return false;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    if (globalStrides[i] % (wide ? 32 : 16) != 0 || globalStrides[i] >= (uint64_t{1} << 40)) return false;
  }
  if (oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA && !isFloat(type)) return false;
  return true;
}

TensorMapDescriptor common(CUtensorMapDataType type, unsigned rank, const void* address, const cuuint64_t* globalDim,
                           const cuuint64_t* globalStrides, const cuuint32_t* elementStrides,
                           CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                           CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  TensorMapDescriptor d;
  d.dataType = static_cast<uint8_t>(type);
  d.rank = static_cast<uint8_t>(rank);
  d.interleave = static_cast<uint8_t>(interleave);
  d.swizzle = static_cast<uint8_t>(swizzle);
  d.l2Promotion = static_cast<uint8_t>(l2Promotion);
  d.oobFill = static_cast<uint8_t>(oobFill);
  d.elementBits = static_cast<uint8_t>(elementBits(type));
  d.globalAddress = reinterpret_cast<uintptr_t>(address);
  for (unsigned i = 0; i < rank; ++i) {
    d.globalDimMinusOne[i] = static_cast<uint32_t>(globalDim[i] - 1);
    d.elementStrides[i] = static_cast<uint8_t>(elementStrides[i]);
  }
  for (unsigned i = 0; i + 1 < rank; ++i) d.globalStrides[i] = globalStrides[i];
  return d;
}

}  // namespace

DRIVER_EXPORT CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                              cuuint32_t tensorRank, void* globalAddress, const cuuint64_t* globalDim,
                                              const cuuint64_t* globalStrides, const cuuint32_t* boxDim,
                                              const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                              CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                              CUtensorMapFloatOOBfill oobFill) {
  if (!commonValid(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides,
                   interleave, swizzle, l2Promotion, oobFill) ||
      boxDim == nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  unsigned bits = elementBits(tensorDataType);
  for (unsigned i = 0; i < tensorRank; ++i) {
    if (boxDim[i] == 0 || boxDim[i] > 256) return CUDA_ERROR_INVALID_VALUE;
  }
  uint64_t innerBytes = uint64_t{boxDim[0]} * bits / 8;
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
    if (innerBytes % 16 != 0) return CUDA_ERROR_INVALID_VALUE;
    if (swizzleBytes(swizzle) != 0 && innerBytes > swizzleBytes(swizzle)) return CUDA_ERROR_INVALID_VALUE;
  }
  if (packed16(tensorDataType) && boxDim[0] != 128) return CUDA_ERROR_INVALID_VALUE;
  TensorMapDescriptor d = common(tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides,
                                 interleave, swizzle, l2Promotion, oobFill);
  d.kind = ptxsim::sim::TensorMapKind::Tiled;
  for (unsigned i = 0; i < tensorRank; ++i) d.boxDimMinusOne[i] = static_cast<uint8_t>(boxDim[i] - 1);
  ptxsim::sim::writeTensorMap(d, tensorMap);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuTensorMapEncodeIm2col(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                               cuuint32_t tensorRank, void* globalAddress,
                                               const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                               const int* pixelBoxLowerCorner, const int* pixelBoxUpperCorner,
                                               cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                               const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                               CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                               CUtensorMapFloatOOBfill oobFill) {
  if (!commonValid(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides,
                   interleave, swizzle, l2Promotion, oobFill) ||
      tensorRank < 3 || pixelBoxLowerCorner == nullptr || pixelBoxUpperCorner == nullptr) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  // The corners' range narrows as the image gains dimensions.
  int bound = tensorRank == 3 ? 1 << 15 : tensorRank == 4 ? 1 << 7 : 1 << 4;
  for (unsigned i = 0; i + 2 < tensorRank; ++i) {
    for (int corner : {pixelBoxLowerCorner[i], pixelBoxUpperCorner[i]}) {
      if (corner < -bound || corner >= bound) return CUDA_ERROR_INVALID_VALUE;
    }
  }
  if (channelsPerPixel == 0 || channelsPerPixel > 256 || pixelsPerColumn == 0 || pixelsPerColumn > 1024) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  uint64_t innerBytes = uint64_t{channelsPerPixel} * elementBits(tensorDataType) / 8;
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
    if (innerBytes % 16 != 0) return CUDA_ERROR_INVALID_VALUE;
    if (swizzleBytes(swizzle) != 0 && innerBytes > swizzleBytes(swizzle)) return CUDA_ERROR_INVALID_VALUE;
  }
  TensorMapDescriptor d = common(tensorDataType, tensorRank, globalAddress, globalDim, globalStrides, elementStrides,
                                 interleave, swizzle, l2Promotion, oobFill);
  d.kind = ptxsim::sim::TensorMapKind::Im2col;
  d.channelsPerPixel = static_cast<uint16_t>(channelsPerPixel);
  d.pixelsPerColumn = static_cast<uint16_t>(pixelsPerColumn);
  for (unsigned i = 0; i + 2 < tensorRank; ++i) {
    d.pixelBoxLowerCorner[i] = static_cast<int16_t>(pixelBoxLowerCorner[i]);
    d.pixelBoxUpperCorner[i] = static_cast<int16_t>(pixelBoxUpperCorner[i]);
  }
  ptxsim::sim::writeTensorMap(d, tensorMap);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuTensorMapReplaceAddress(CUtensorMap* tensorMap, void* globalAddress) {
  if (tensorMap == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::optional<TensorMapDescriptor> d = ptxsim::sim::readTensorMap(tensorMap);
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  bool wide = d->interleave == CU_TENSOR_MAP_INTERLEAVE_32B ||
              packed16(static_cast<CUtensorMapDataType>(d->dataType));
  if (globalAddress == nullptr || reinterpret_cast<uintptr_t>(globalAddress) % (wide ? 32 : 16) != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  d->globalAddress = reinterpret_cast<uintptr_t>(globalAddress);
  ptxsim::sim::writeTensorMap(*d, tensorMap);
  return CUDA_SUCCESS;
}
