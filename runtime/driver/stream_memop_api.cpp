// Stream memory operations: writes of a 32- or 64-bit value in stream
// order, and waits for one. ptxsim runs each stream's work when it is
// issued, so a wait can only be for a value already there: one whose
// condition does not hold when it is issued (a wait for a later write by
// the host or by another stream) is refused with a message, not left to
// hang or to let the stream's later work run too early. Waits and writes
// cannot be captured into graphs yet.

#include <cstdint>
#include <type_traits>
#include <cstdio>

#include "driver_api.h"

using ptxsim::driver::pointer;
using ptxsim::driver::viaRuntime;

namespace {

// Stream memory operations cannot be captured into graphs yet.
cudaError_t notCapturing(CUstream stream) {
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  if (cudaError_t e = cudaStreamIsCapturing(stream, &capturing); e != cudaSuccess) return e;
  return capturing != cudaStreamCaptureStatusNone ? cudaErrorNotSupported : cudaSuccess;
}

template <typename Value>
CUresult writeValue(CUstream stream, CUdeviceptr address, Value value, unsigned flags) {
  if ((flags & ~CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) != 0) return CUDA_ERROR_INVALID_VALUE;
  if (address % sizeof(Value) != 0) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] {
    if (cudaError_t e = notCapturing(stream); e != cudaSuccess) return e;
    return cudaMemcpyAsync(pointer(address), &value, sizeof value, cudaMemcpyDefault, stream);
  });
}

template <typename Value>
bool conditionHolds(Value current, Value value, unsigned condition) {
  using Signed = std::make_signed_t<Value>;
  switch (condition) {
    case CU_STREAM_WAIT_VALUE_GEQ: return static_cast<Signed>(current - value) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return current == value;
    case CU_STREAM_WAIT_VALUE_AND: return (current & value) != 0;
    default: return static_cast<Value>(~(current | value)) != 0;  // NOR
  }
}

template <typename Value>
CUresult waitValue(CUstream stream, CUdeviceptr address, Value value, unsigned flags) {
  unsigned condition = flags & ~static_cast<unsigned>(CU_STREAM_WAIT_VALUE_FLUSH);
  if (condition > CU_STREAM_WAIT_VALUE_NOR || address % sizeof(Value) != 0) return CUDA_ERROR_INVALID_VALUE;
  Value current{};
  CUresult r = viaRuntime([&] {
    if (cudaError_t e = notCapturing(stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess) return e;
    return cudaMemcpy(&current, pointer(address), sizeof current, cudaMemcpyDefault);
  });
  if (r != CUDA_SUCCESS) return r;
  if (conditionHolds(current, value, condition)) return CUDA_SUCCESS;
  std::fprintf(stderr,
               "ptxsim: error: cuStreamWaitValue%zu: the value at 0x%llx (0x%llx) does not meet the wait's condition "
               "when the wait is issued; ptxsim runs each stream's work when it is issued, so a wait for a later "
               "write is not supported\n",
               sizeof(Value) * 8, static_cast<unsigned long long>(address),
               static_cast<unsigned long long>(current));
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult batch(CUstream stream, unsigned count, CUstreamBatchMemOpParams* ops, unsigned flags) {
  if (flags != 0 || (count != 0 && ops == nullptr)) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < count; ++i) {
    const CUstreamBatchMemOpParams& op = ops[i];
    CUresult r = CUDA_SUCCESS;
    switch (op.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        r = waitValue<uint32_t>(stream, op.waitValue.address, op.waitValue.value, op.waitValue.flags);
        break;
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        r = waitValue<uint64_t>(stream, op.waitValue.address, op.waitValue.value64, op.waitValue.flags);
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
        r = writeValue<uint32_t>(stream, op.writeValue.address, op.writeValue.value, op.writeValue.flags);
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_64:
        r = writeValue<uint64_t>(stream, op.writeValue.address, op.writeValue.value64, op.writeValue.flags);
        break;
      case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      case CU_STREAM_MEM_OP_BARRIER: break;  // every write is visible when it completes
      default: r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

}  // namespace

DRIVER_EXPORT CUresult cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                               unsigned int flags) {
  return writeValue<uint32_t>(stream, addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                               unsigned int flags) {
  return writeValue<uint64_t>(stream, addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                              unsigned int flags) {
  return waitValue<uint32_t>(stream, addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                              unsigned int flags) {
  return waitValue<uint64_t>(stream, addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamBatchMemOp_v2(CUstream stream, unsigned int count,
                                             CUstreamBatchMemOpParams* paramArray, unsigned int flags) {
  return batch(stream, count, paramArray, flags);
}

// The per-thread default stream forms, and the names before CUDA 12 (the
// same operations).
DRIVER_EXPORT CUresult cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                                    unsigned int flags) {
  return writeValue<uint32_t>(ptxsim::driver::perThread(stream), addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                                    unsigned int flags) {
  return writeValue<uint64_t>(ptxsim::driver::perThread(stream), addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                                                   unsigned int flags) {
  return waitValue<uint32_t>(ptxsim::driver::perThread(stream), addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                                                   unsigned int flags) {
  return waitValue<uint64_t>(ptxsim::driver::perThread(stream), addr, value, flags);
}
DRIVER_EXPORT CUresult cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count,
                                                  CUstreamBatchMemOpParams* paramArray, unsigned int flags) {
  return batch(ptxsim::driver::perThread(stream), count, paramArray, flags);
}
DRIVER_ALIAS(cuStreamWriteValue32, cuStreamWriteValue32_v2);
DRIVER_ALIAS(cuStreamWriteValue64, cuStreamWriteValue64_v2);
DRIVER_ALIAS(cuStreamWaitValue32, cuStreamWaitValue32_v2);
DRIVER_ALIAS(cuStreamWaitValue64, cuStreamWaitValue64_v2);
DRIVER_ALIAS(cuStreamBatchMemOp, cuStreamBatchMemOp_v2);
DRIVER_ALIAS(cuStreamWriteValue32_ptsz, cuStreamWriteValue32_v2_ptsz);
DRIVER_ALIAS(cuStreamWriteValue64_ptsz, cuStreamWriteValue64_v2_ptsz);
DRIVER_ALIAS(cuStreamWaitValue32_ptsz, cuStreamWaitValue32_v2_ptsz);
DRIVER_ALIAS(cuStreamWaitValue64_ptsz, cuStreamWaitValue64_v2_ptsz);
DRIVER_ALIAS(cuStreamBatchMemOp_ptsz, cuStreamBatchMemOp_v2_ptsz);
