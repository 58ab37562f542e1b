// The batched memory operations of CUDA 12.8 and 13 (copies, 3D copies,
// prefetches and discards of many ranges in one call), and attaching
// managed memory to a stream: the runtime's. Their operand, attribute and
// location types are laid out alike in both APIs.

#include "driver_api.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

static_assert(sizeof(CUmemcpyAttributes) == sizeof(cudaMemcpyAttributes));
static_assert(sizeof(CUDA_MEMCPY3D_BATCH_OP) == sizeof(cudaMemcpy3DBatchOp));
static_assert(sizeof(CUmemLocation) == sizeof(cudaMemLocation));

void** pointers(CUdeviceptr* addresses) { return reinterpret_cast<void**>(addresses); }

}  // namespace

DRIVER_EXPORT CUresult cuMemcpyBatchAsync_v2(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                             CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs,
                                             CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemcpyBatchAsync(pointers(dsts), pointers(srcs), sizes, count,
                                reinterpret_cast<cudaMemcpyAttributes*>(attrs), attrsIdxs, numAttrs, hStream);
  });
}

DRIVER_EXPORT CUresult cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP* opList, unsigned long long flags,
                                               CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemcpy3DBatchAsync(numOps, reinterpret_cast<cudaMemcpy3DBatchOp*>(opList), flags, hStream);
  });
}

DRIVER_EXPORT CUresult cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                               CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                               size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemPrefetchBatchAsync(pointers(dptrs), sizes, count, reinterpret_cast<cudaMemLocation*>(prefetchLocs),
                                     prefetchLocIdxs, numPrefetchLocs, flags, hStream);
  });
}

DRIVER_EXPORT CUresult cuMemDiscardBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                              unsigned long long flags, CUstream hStream) {
  return viaRuntime([&] { return cudaMemDiscardBatchAsync(pointers(dptrs), sizes, count, flags, hStream); });
}

DRIVER_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                         CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                                         size_t numPrefetchLocs, unsigned long long flags,
                                                         CUstream hStream) {
  return viaRuntime([&] {
    return cudaMemDiscardAndPrefetchBatchAsync(pointers(dptrs), sizes, count,
                                               reinterpret_cast<cudaMemLocation*>(prefetchLocs), prefetchLocIdxs,
                                               numPrefetchLocs, flags, hStream);
  });
}

DRIVER_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags) {
  // CU_MEM_ATTACH_* and cudaMemAttach* flags have the same values.
  return viaRuntime([&] { return cudaStreamAttachMemAsync(hStream, pointer(dptr), length, flags); });
}

// The per-thread default stream forms.
DRIVER_EXPORT CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                                  CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs,
                                                  CUstream hStream) {
  return cuMemcpyBatchAsync_v2(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP* opList,
                                                    unsigned long long flags, CUstream hStream) {
  return cuMemcpy3DBatchAsync_v2(numOps, opList, flags, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                    CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                                    size_t numPrefetchLocs, unsigned long long flags,
                                                    CUstream hStream) {
  return cuMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                                 ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                   unsigned long long flags, CUstream hStream) {
  return cuMemDiscardBatchAsync(dptrs, sizes, count, flags, ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                              CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                                              size_t numPrefetchLocs, unsigned long long flags,
                                                              CUstream hStream) {
  return cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags,
                                           ptxsim::driver::perThread(hStream));
}
DRIVER_EXPORT CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                                   unsigned int flags) {
  return cuStreamAttachMemAsync(ptxsim::driver::perThread(hStream), dptr, length, flags);
}
