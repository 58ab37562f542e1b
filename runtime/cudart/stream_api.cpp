// Streams: creation with flags and priorities, queries, attributes (hints
// that change no result), synchronisation and host functions in stream order.
// Work completes when it is issued (README, "Functional-mode time"), so a
// host function runs when it is issued: after everything issued before it.

#include <algorithm>
#include <cstdio>

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::issue;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;
using ptxsim::cudart::StreamRecord;

namespace {

// An H100's range: 0 the least priority, -5 the greatest.
constexpr int kLeastPriority = 0;
constexpr int kGreatestPriority = -5;
// The H100's accessPolicyMaxWindowSize (cudaGetDeviceProperties, device_api.cpp).
constexpr size_t kMaxAccessPolicyWindowBytes = 134213632;

StreamRecord* streamOf(cudaStream_t stream, bool perThreadDefault) {
  return shimState().streamOrder().stream(stream, perThreadDefault);
}

cudaError_t createStream(cudaStream_t* stream, unsigned flags, int priority) {
  std::lock_guard lock(shimState().mutex());
  if (stream == nullptr || (flags & ~unsigned{cudaStreamNonBlocking}) != 0) return result(cudaErrorInvalidValue);
  // A priority outside the range is clamped to it, as CUDA does.
  priority = std::min(kLeastPriority, std::max(kGreatestPriority, priority));
  *stream = reinterpret_cast<cudaStream_t>(shimState().streamOrder().createStream(flags, priority));
  return cudaSuccess;
}

cudaError_t synchronize(cudaStream_t stream, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (s->capture != nullptr) {  // a capturing stream's work has not been issued
    state.invalidate(s->capture);
    return result(cudaErrorStreamCaptureUnsupported);
  }
  if (cudaError_t e = state.implicitCaptureDependency(s); e != cudaSuccess) return result(e);
  shimState().device().synchronize();
  state.pools().releaseUnused();
  return shimState().sticky();
}

cudaError_t query(cudaStream_t stream, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (s->capture != nullptr) {
    state.invalidate(s->capture);
    return result(cudaErrorStreamCaptureUnsupported);
  }
  if (cudaError_t e = state.implicitCaptureDependency(s); e != cudaSuccess) return result(e);
  return shimState().sticky();  // everything issued has completed
}

cudaError_t addCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData, unsigned flags,
                        bool perThreadDefault) {
  std::unique_lock lock(shimState().mutex());
  if (callback == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  // Unlike cudaLaunchHostFunc, stream callbacks cannot be captured (cuda_runtime_api.h).
  if (s->capture != nullptr) {
    shimState().streamOrder().invalidate(s->capture);
    return result(cudaErrorStreamCaptureUnsupported);
  }
  if (perThreadDefault) stream = ptxsim::cudart::perThread(stream);
  return result(issue(stream, ptxsim::cudart::HostOperation{nullptr, userData, callback, stream}, lock));
}

cudaError_t launchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData, bool perThreadDefault) {
  std::unique_lock lock(shimState().mutex());
  if (fn == nullptr) return result(cudaErrorInvalidValue);
  if (perThreadDefault) stream = ptxsim::cudart::perThread(stream);
  return result(issue(stream, ptxsim::cudart::HostOperation{fn, userData, nullptr, stream}, lock));
}

cudaError_t getAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value,
                         bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: value->accessPolicyWindow = s->accessPolicyWindow; break;
    case cudaStreamAttributeSynchronizationPolicy: value->syncPolicy = s->synchronizationPolicy; break;
    case cudaStreamAttributePriority: value->priority = s->priority; break;
    default:
      std::fprintf(stderr, "ptxsim: cudaStreamGetAttribute: stream attribute %d is not supported yet\n",
                   static_cast<int>(attr));
      return result(cudaErrorNotSupported);
  }
  return cudaSuccess;
}

cudaError_t setAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value,
                         bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (value == nullptr) return result(cudaErrorInvalidValue);
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  switch (attr) {
    case cudaStreamAttributeAccessPolicyWindow: {
      // A hint for the L2 cache: checked as CUDA checks it, kept for cudaStreamGetAttribute.
      const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
      if (w.hitRatio < 0.0f || w.hitRatio > 1.0f || w.num_bytes > kMaxAccessPolicyWindowBytes) {
        return result(cudaErrorInvalidValue);
      }
      s->accessPolicyWindow = w;
      break;
    }
    case cudaStreamAttributeSynchronizationPolicy:
      if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync) {
        return result(cudaErrorInvalidValue);
      }
      s->synchronizationPolicy = value->syncPolicy;
      break;
    case cudaStreamAttributePriority:
      s->priority = std::min(kLeastPriority, std::max(kGreatestPriority, value->priority));
      break;
    default:
      std::fprintf(stderr, "ptxsim: cudaStreamSetAttribute: stream attribute %d is not supported yet\n",
                   static_cast<int>(attr));
      return result(cudaErrorNotSupported);
  }
  return cudaSuccess;
}

// The simple per-stream queries.
template <class Answer>
cudaError_t queryStream(cudaStream_t stream, bool perThreadDefault, Answer answer) {
  std::lock_guard lock(shimState().mutex());
  StreamRecord* s = streamOf(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  return result(answer(*s));
}

}  // namespace

CUDART_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  return createStream(stream, flags, kLeastPriority);
}

CUDART_EXPORT cudaError_t cudaStreamCreate(cudaStream_t* stream) { return createStream(stream, 0, kLeastPriority); }

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  return createStream(stream, flags, priority);
}

CUDART_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = kLeastPriority;
  if (greatestPriority != nullptr) *greatestPriority = kGreatestPriority;
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream);
  // The default streams cannot be destroyed.
  if (s == nullptr || stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
    return result(cudaErrorInvalidResourceHandle);
  }
  state.destroyStream(s);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return synchronize(stream, false); }
CUDART_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return synchronize(stream, true); }
CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) { return query(stream, false); }
CUDART_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return query(stream, true); }

CUDART_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                                unsigned int flags) {
  return addCallback(stream, callback, userData, flags, false);
}

CUDART_EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                                     void* userData, unsigned int flags) {
  return addCallback(stream, callback, userData, flags, true);
}

CUDART_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return launchHostFunc(stream, fn, userData, false);
}

CUDART_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return launchHostFunc(stream, fn, userData, true);
}

CUDART_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, false, [&](const StreamRecord& s) { return *priority = s.priority, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, true, [&](const StreamRecord& s) { return *priority = s.priority, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, false, [&](const StreamRecord& s) { return *flags = s.flags, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, true, [&](const StreamRecord& s) { return *flags = s.flags, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long* streamId) {
  if (streamId == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, false, [&](const StreamRecord& s) { return *streamId = s.id, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetId_ptsz(cudaStream_t stream, unsigned long long* streamId) {
  if (streamId == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, true, [&](const StreamRecord& s) { return *streamId = s.id, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t stream, int* device) {
  if (device == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, false, [&](const StreamRecord&) { return *device = 0, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t stream, int* device) {
  if (device == nullptr) return result(cudaErrorInvalidValue);
  return queryStream(stream, true, [&](const StreamRecord&) { return *device = 0, cudaSuccess; });
}

CUDART_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                                 cudaStreamAttrValue* value) {
  return getAttribute(stream, attr, value, false);
}

CUDART_EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                      cudaStreamAttrValue* value) {
  return getAttribute(stream, attr, value, true);
}

CUDART_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                                 const cudaStreamAttrValue* value) {
  return setAttribute(stream, attr, value, false);
}

CUDART_EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                      const cudaStreamAttrValue* value) {
  return setAttribute(stream, attr, value, true);
}

namespace {

cudaError_t copyAttributes(cudaStream_t dst, cudaStream_t src, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  StreamRecord* d = streamOf(dst, perThreadDefault);
  StreamRecord* s = streamOf(src, perThreadDefault);
  if (d == nullptr || s == nullptr) return result(cudaErrorInvalidResourceHandle);
  d->accessPolicyWindow = s->accessPolicyWindow;
  d->synchronizationPolicy = s->synchronizationPolicy;
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  return copyAttributes(dst, src, false);
}

CUDART_EXPORT cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) {
  return copyAttributes(dst, src, true);
}
