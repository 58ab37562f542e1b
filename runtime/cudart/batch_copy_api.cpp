// Batches of copies (CUDA 12.8+): cudaMemcpyBatchAsync between pointers and
// cudaMemcpy3DBatchAsync between pointers and arrays. The whole batch is
// checked before any copy is issued; each copy then goes through issue(),
// so a batch runs in stream order and a capture records it.

#include <vector>

#include "array_format.h"
#include "batch_groups.h"
#include "export.h"

using ptxsim::cudart::CopyOperation;
using ptxsim::cudart::issue;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

bool validAccessOrder(cudaMemcpySrcAccessOrder order) {
  return order == cudaMemcpySrcAccessOrderStream || order == cudaMemcpySrcAccessOrderDuringApiCall ||
         order == cudaMemcpySrcAccessOrderAny;
}

bool validCopyFlags(unsigned flags) {
  return (flags & ~unsigned{cudaMemcpyFlagPreferOverlapWithCompute}) == 0;
}

// Batches may not use the legacy default stream (cuda_runtime_api.h).
bool legacyStream(cudaStream_t stream) { return stream == nullptr || stream == cudaStreamLegacy; }

cudaError_t checkAttributes(const cudaMemcpyAttributes* attrs, const size_t* starts, size_t groups,
                            size_t count) {
  if (attrs == nullptr) return cudaErrorInvalidValue;
  if (cudaError_t e = ptxsim::cudart::checkGroupStarts(starts, groups, count); e != cudaSuccess) return e;
  for (size_t g = 0; g < groups; ++g) {
    if (!validAccessOrder(attrs[g].srcAccessOrder) || !validCopyFlags(attrs[g].flags))
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

uint64_t elementBytesOf(const cudaMemcpy3DOperand& operand) {
  if (operand.type != cudaMemcpyOperandTypeArray) return 0;
  auto array = ptxsim::cudart::arrayOf(operand.op.array.array);
  return array != nullptr ? array->format.bytes() : 0;
}

// One side of a batch operation as cudaMemcpy3DParms holds it: an array at
// an element offset, or a pointer whose rows are rowLength elements long
// and layers layerHeight rows high (tightly packed when 0).
cudaError_t sideOf(const cudaMemcpy3DOperand& operand, const cudaExtent& extent, uint64_t elementBytes,
                   cudaArray_t& array, cudaPos& position, cudaPitchedPtr& pointer) {
  switch (operand.type) {
    case cudaMemcpyOperandTypeArray:
      if (operand.op.array.array == nullptr) return cudaErrorInvalidValue;
      array = operand.op.array.array;
      position = {operand.op.array.offset.x, operand.op.array.offset.y, operand.op.array.offset.z};
      return cudaSuccess;
    case cudaMemcpyOperandTypePointer: {
      const auto& p = operand.op.ptr;
      if (p.ptr == nullptr) return cudaErrorInvalidValue;
      if ((p.rowLength != 0 && p.rowLength < extent.width) ||
          (p.layerHeight != 0 && p.layerHeight < extent.height)) {
        return cudaErrorInvalidValue;
      }
      size_t row = p.rowLength != 0 ? p.rowLength : extent.width;
      size_t height = p.layerHeight != 0 ? p.layerHeight : extent.height;
      pointer = {p.ptr, row * elementBytes, extent.width * elementBytes, height};
      return cudaSuccess;
    }
    default: return cudaErrorInvalidValue;
  }
}

cudaError_t copyOf(const cudaMemcpy3DBatchOp& op, CopyOperation& copy) {
  if (!validAccessOrder(op.srcAccessOrder) || !validCopyFlags(op.flags)) return cudaErrorInvalidValue;
  if (op.extent.width == 0 || op.extent.height == 0 || op.extent.depth == 0) return cudaErrorInvalidValue;
  uint64_t srcElement = elementBytesOf(op.src), dstElement = elementBytesOf(op.dst);
  if (op.src.type == cudaMemcpyOperandTypeArray && srcElement == 0) return cudaErrorInvalidResourceHandle;
  if (op.dst.type == cudaMemcpyOperandTypeArray && dstElement == 0) return cudaErrorInvalidResourceHandle;
  // Array to array copies need one element size.
  if (srcElement != 0 && dstElement != 0 && srcElement != dstElement) return cudaErrorInvalidValue;
  uint64_t elementBytes = srcElement != 0 ? srcElement : dstElement != 0 ? dstElement : 1;
  cudaMemcpy3DParms& p = copy.params;
  p = cudaMemcpy3DParms{};
  if (cudaError_t e = sideOf(op.src, op.extent, elementBytes, p.srcArray, p.srcPos, p.srcPtr);
      e != cudaSuccess) {
    return e;
  }
  if (cudaError_t e = sideOf(op.dst, op.extent, elementBytes, p.dstArray, p.dstPos, p.dstPtr);
      e != cudaSuccess) {
    return e;
  }
  // cudaMemcpy3DParms counts an array copy's width in elements, a pointer copy's in bytes.
  p.extent = op.extent;
  p.kind = cudaMemcpyDefault;
  return cudaSuccess;
}

cudaError_t copyBatch(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                      cudaMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  if (legacyStream(stream) || dsts == nullptr || srcs == nullptr || sizes == nullptr || count == 0) {
    return result(cudaErrorInvalidValue);
  }
  if (cudaError_t e = checkAttributes(attrs, attrsIdxs, numAttrs, count); e != cudaSuccess) return result(e);
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] != 0 && (dsts[i] == nullptr || srcs[i] == nullptr)) return result(cudaErrorInvalidValue);
  }
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] == 0) continue;
    cudaError_t e =
        issue(stream, ptxsim::cudart::linearCopy(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault), lock);
    if (e != cudaSuccess) return result(e);
  }
  return cudaSuccess;
}

cudaError_t copy3DBatch(size_t numOps, cudaMemcpy3DBatchOp* opList, unsigned long long flags,
                        cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  if (legacyStream(stream) || numOps == 0 || opList == nullptr || flags != 0)
    return result(cudaErrorInvalidValue);
  std::vector<CopyOperation> copies(numOps);
  for (size_t i = 0; i < numOps; ++i) {
    if (cudaError_t e = copyOf(opList[i], copies[i]); e != cudaSuccess) return result(e);
  }
  for (CopyOperation& copy : copies) {
    if (cudaError_t e = issue(stream, std::move(copy), lock); e != cudaSuccess) return result(e);
  }
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs,
                                               const size_t* sizes, size_t count, cudaMemcpyAttributes* attrs,
                                               size_t* attrsIdxs, size_t numAttrs, cudaStream_t stream) {
  return copyBatch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream);
}

CUDART_EXPORT cudaError_t cudaMemcpyBatchAsync_ptsz(void* const* dsts, const void* const* srcs,
                                                    const size_t* sizes, size_t count,
                                                    cudaMemcpyAttributes* attrs, size_t* attrsIdxs,
                                                    size_t numAttrs, cudaStream_t stream) {
  return copyBatch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, ptxsim::cudart::perThread(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, cudaMemcpy3DBatchOp* opList,
                                                 unsigned long long flags, cudaStream_t stream) {
  return copy3DBatch(numOps, opList, flags, stream);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, cudaMemcpy3DBatchOp* opList,
                                                      unsigned long long flags, cudaStream_t stream) {
  return copy3DBatch(numOps, opList, flags, ptxsim::cudart::perThread(stream));
}
