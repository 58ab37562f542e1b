// Streams and events. Every operation completes when it is issued, so any
// order CUDA allows is honoured: work in one stream runs in issue order,
// and waiting on a stream or event never blocks. Events carry the
// functional model's clock (ShimState::simulatedNanoseconds, see README).

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

bool knownStream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
         shimState().streams().count(stream) != 0;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (stream == nullptr || (flags & ~1u) != 0) return result(cudaErrorInvalidValue);
  *stream = reinterpret_cast<cudaStream_t>(new ptxsim::cudart::StreamRecord{flags});
  shimState().streams().insert(*stream);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  (void)priority;
  return cudaStreamCreateWithFlags(stream, flags);
}

CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().streams().erase(stream) == 0) return result(cudaErrorInvalidResourceHandle);
  delete reinterpret_cast<ptxsim::cudart::StreamRecord*>(stream);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  if (!knownStream(stream)) return result(cudaErrorInvalidResourceHandle);
  shimState().device().synchronize();
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  if (!knownStream(stream)) return result(cudaErrorInvalidResourceHandle);
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  (void)flags;
  if (!knownStream(stream) || shimState().events().count(event) == 0) return result(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  if (event == nullptr || (flags & ~0xfu) != 0) return result(cudaErrorInvalidValue);
  *event = reinterpret_cast<cudaEvent_t>(new char);
  shimState().events()[*event] = ptxsim::cudart::EventRecord{flags, false, 0};
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().erase(event) == 0) return result(cudaErrorInvalidResourceHandle);
  delete reinterpret_cast<char*>(event);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  std::lock_guard lock(shimState().mutex());
  auto it = shimState().events().find(event);
  if (it == shimState().events().end() || !knownStream(stream)) return result(cudaErrorInvalidResourceHandle);
  it->second.recorded = true;
  it->second.simulatedNanoseconds = shimState().simulatedNanoseconds();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  (void)flags;
  return cudaEventRecord(event, stream);
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidResourceHandle);
  shimState().device().synchronize();
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidResourceHandle);
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  std::lock_guard lock(shimState().mutex());
  auto& events = shimState().events();
  auto a = events.find(start), b = events.find(end);
  if (ms == nullptr) return result(cudaErrorInvalidValue);
  if (a == events.end() || b == events.end()) return result(cudaErrorInvalidResourceHandle);
  if ((a->second.flags & cudaEventDisableTiming) != 0 || (b->second.flags & cudaEventDisableTiming) != 0) {
    return result(cudaErrorInvalidResourceHandle);
  }
  if (!a->second.recorded || !b->second.recorded) return result(cudaErrorInvalidResourceHandle);
  *ms = static_cast<float>(static_cast<double>(b->second.simulatedNanoseconds) -
                           static_cast<double>(a->second.simulatedNanoseconds)) /
        1e6f;
  return cudaSuccess;
}
