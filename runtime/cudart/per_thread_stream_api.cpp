// The per-thread default stream variants of the copy and fill functions
// (those of launches are beside them in launch_api.cpp): what a program built with `nvcc --default-stream per-thread`
// (or with CUDA_API_PER_THREAD_DEFAULT_STREAM defined) calls. The
// synchronous `_ptds` forms are the plain functions (every operation
// completes when issued, so which default stream they order against makes
// no difference); the `_ptsz` forms put work given the default stream (0)
// on cudaStreamPerThread instead of the legacy stream.

#include "export.h"
#include "shim_state.h"

// The array copies without a 2D shape are deprecated but still exported,
// so their variants forward to them.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

cudaStream_t perThreadDefault(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return cudaMemcpy(dst, src, count, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch,
                                            size_t width, size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms* p) { return cudaMemcpy3D(p); }

CUDART_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count,
                                                  size_t offset, cudaMemcpyKind kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count,
                                                    size_t offset, cudaMemcpyKind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                 const void* src, size_t count, cudaMemcpyKind kind) {
  return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArray_ptds(void* dst, cudaArray_const_t src, size_t wOffset,
                                                   size_t hOffset, size_t count, cudaMemcpyKind kind) {
  return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                      cudaArray_const_t src, size_t wOffsetSrc,
                                                      size_t hOffsetSrc, size_t count, cudaMemcpyKind kind) {
  return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                   const void* src, size_t spitch, size_t width,
                                                   size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, cudaArray_const_t src,
                                                     size_t wOffset, size_t hOffset, size_t width,
                                                     size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                        cudaArray_const_t src, size_t wOffsetSrc,
                                                        size_t hOffsetSrc, size_t width, size_t height,
                                                        cudaMemcpyKind kind) {
  return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height,
                                  kind);
}

CUDART_EXPORT cudaError_t cudaMemset_ptds(void* devPtr, int value, size_t count) {
  return cudaMemset(devPtr, value, count);
}

CUDART_EXPORT cudaError_t cudaMemset2D_ptds(void* devPtr, size_t pitch, int value, size_t width,
                                            size_t height) {
  return cudaMemset2D(devPtr, pitch, value, width, height);
}

CUDART_EXPORT cudaError_t cudaMemset3D_ptds(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  return cudaMemset3D(pitchedDevPtr, value, extent);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch,
                                                 size_t width, size_t height, cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  return cudaMemcpy3DAsync(p, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count,
                                                       size_t offset, cudaMemcpyKind kind,
                                                       cudaStream_t stream) {
  return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count,
                                                         size_t offset, cudaMemcpyKind kind,
                                                         cudaStream_t stream) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                      const void* src, size_t count, cudaMemcpyKind kind,
                                                      cudaStream_t stream) {
  return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArrayAsync_ptsz(void* dst, cudaArray_const_t src, size_t wOffset,
                                                        size_t hOffset, size_t count, cudaMemcpyKind kind,
                                                        cudaStream_t stream) {
  return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                        const void* src, size_t spitch, size_t width,
                                                        size_t height, cudaMemcpyKind kind,
                                                        cudaStream_t stream) {
  return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind,
                                  perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void* dst, size_t dpitch, cudaArray_const_t src,
                                                          size_t wOffset, size_t hOffset, size_t width,
                                                          size_t height, cudaMemcpyKind kind,
                                                          cudaStream_t stream) {
  return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                                    perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void* devPtr, size_t pitch, int value, size_t width,
                                                 size_t height, cudaStream_t stream) {
  return cudaMemset2DAsync(devPtr, pitch, value, width, height, perThreadDefault(stream));
}

CUDART_EXPORT cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent,
                                                 cudaStream_t stream) {
  return cudaMemset3DAsync(pitchedDevPtr, value, extent, perThreadDefault(stream));
}
