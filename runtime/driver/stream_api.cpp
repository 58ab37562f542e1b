// Streams and events: the runtime's (a CUstream is a cudaStream_t, a
// CUevent a cudaEvent_t). The _ptsz forms take the per-thread default
// stream for a null stream, as the runtime's do.

#include "driver_api.h"

using ptxsim::driver::viaRuntime;

DRIVER_EXPORT CUresult cuStreamCreate(CUstream* phStream, unsigned int Flags) {
  if (phStream == nullptr || (Flags & ~CU_STREAM_NON_BLOCKING) != 0) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaStreamCreateWithFlags(phStream, Flags); });
}

DRIVER_EXPORT CUresult cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  if (phStream == nullptr || (flags & ~CU_STREAM_NON_BLOCKING) != 0) return CUDA_ERROR_INVALID_VALUE;
  return viaRuntime([&] { return cudaStreamCreateWithPriority(phStream, flags, priority); });
}

DRIVER_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream) {
  return viaRuntime([&] { return cudaStreamDestroy(hStream); });
}

DRIVER_EXPORT CUresult cuStreamSynchronize(CUstream hStream) {
  return viaRuntime([&] { return cudaStreamSynchronize(hStream); });
}
DRIVER_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream hStream) {
  return viaRuntime([&] { return cudaStreamSynchronize_ptsz(hStream); });
}

DRIVER_EXPORT CUresult cuStreamQuery(CUstream hStream) { return viaRuntime([&] { return cudaStreamQuery(hStream); }); }
DRIVER_EXPORT CUresult cuStreamQuery_ptsz(CUstream hStream) {
  return viaRuntime([&] { return cudaStreamQuery_ptsz(hStream); });
}

DRIVER_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return viaRuntime([&] { return cudaStreamWaitEvent(hStream, hEvent, Flags); });
}
DRIVER_EXPORT CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return viaRuntime([&] { return cudaStreamWaitEvent_ptsz(hStream, hEvent, Flags); });
}

DRIVER_EXPORT CUresult cuStreamGetFlags(CUstream hStream, unsigned int* flags) {
  return viaRuntime([&] { return cudaStreamGetFlags(hStream, flags); });
}
DRIVER_EXPORT CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int* flags) {
  return viaRuntime([&] { return cudaStreamGetFlags_ptsz(hStream, flags); });
}

DRIVER_EXPORT CUresult cuStreamGetPriority(CUstream hStream, int* priority) {
  return viaRuntime([&] { return cudaStreamGetPriority(hStream, priority); });
}
DRIVER_EXPORT CUresult cuStreamGetPriority_ptsz(CUstream hStream, int* priority) {
  return viaRuntime([&] { return cudaStreamGetPriority_ptsz(hStream, priority); });
}

DRIVER_EXPORT CUresult cuStreamGetId(CUstream hStream, unsigned long long* streamId) {
  return viaRuntime([&] { return cudaStreamGetId(hStream, streamId); });
}
DRIVER_EXPORT CUresult cuStreamGetId_ptsz(CUstream hStream, unsigned long long* streamId) {
  return viaRuntime([&] { return cudaStreamGetId_ptsz(hStream, streamId); });
}

DRIVER_EXPORT CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void* userData,
                                           unsigned int flags) {
  // The runtime calls back with a cudaError_t where the driver passes a
  // CUresult: the same values and size, and the stream handle is the same.
  return viaRuntime([&] {
    return cudaStreamAddCallback(hStream, reinterpret_cast<cudaStreamCallback_t>(callback), userData, flags);
  });
}
DRIVER_EXPORT CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void* userData,
                                                unsigned int flags) {
  return viaRuntime([&] {
    return cudaStreamAddCallback_ptsz(hStream, reinterpret_cast<cudaStreamCallback_t>(callback), userData, flags);
  });
}

DRIVER_EXPORT CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData) {
  return viaRuntime([&] { return cudaLaunchHostFunc(hStream, fn, userData); });
}
DRIVER_EXPORT CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void* userData) {
  return viaRuntime([&] { return cudaLaunchHostFunc_ptsz(hStream, fn, userData); });
}

// Events.

DRIVER_EXPORT CUresult cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  // CU_EVENT_* and cudaEvent* flags have the same values.
  return viaRuntime([&] { return cudaEventCreateWithFlags(phEvent, Flags); });
}

DRIVER_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent) {
  return viaRuntime([&] { return cudaEventDestroy(hEvent); });
}

DRIVER_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  return viaRuntime([&] { return cudaEventRecord(hEvent, hStream); });
}
DRIVER_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) {
  return viaRuntime([&] { return cudaEventRecord_ptsz(hEvent, hStream); });
}

DRIVER_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return viaRuntime([&] { return cudaEventRecordWithFlags(hEvent, hStream, flags); });
}
DRIVER_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return viaRuntime([&] { return cudaEventRecordWithFlags_ptsz(hEvent, hStream, flags); });
}

DRIVER_EXPORT CUresult cuEventQuery(CUevent hEvent) { return viaRuntime([&] { return cudaEventQuery(hEvent); }); }

DRIVER_EXPORT CUresult cuEventSynchronize(CUevent hEvent) {
  return viaRuntime([&] { return cudaEventSynchronize(hEvent); });
}

DRIVER_EXPORT CUresult cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return viaRuntime([&] { return cudaEventElapsedTime(pMilliseconds, hStart, hEnd); });
}

DRIVER_EXPORT CUresult cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

// Stream attributes: CUstreamAttrValue is the runtime's
// cudaStreamAttrValue, ids numbered alike.

DRIVER_EXPORT CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out) {
  return viaRuntime([&] {
    return cudaStreamGetAttribute(hStream, static_cast<cudaStreamAttrID>(attr),
                                  reinterpret_cast<cudaStreamAttrValue*>(value_out));
  });
}
DRIVER_EXPORT CUresult cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out) {
  return cuStreamGetAttribute(ptxsim::driver::perThread(hStream), attr, value_out);
}

DRIVER_EXPORT CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue* value) {
  return viaRuntime([&] {
    return cudaStreamSetAttribute(hStream, static_cast<cudaStreamAttrID>(attr),
                                  reinterpret_cast<const cudaStreamAttrValue*>(value));
  });
}
DRIVER_EXPORT CUresult cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue* value) {
  return cuStreamSetAttribute(ptxsim::driver::perThread(hStream), attr, value);
}

DRIVER_EXPORT CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  return viaRuntime([&] { return cudaStreamCopyAttributes(dst, src); });
}
DRIVER_EXPORT CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src) {
  return cuStreamCopyAttributes(ptxsim::driver::perThread(dst), ptxsim::driver::perThread(src));
}

DRIVER_ALIAS(cuStreamDestroy, cuStreamDestroy_v2);
DRIVER_ALIAS(cuEventDestroy, cuEventDestroy_v2);
