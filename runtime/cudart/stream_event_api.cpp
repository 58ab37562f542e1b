// Events. Every operation completes when it is issued, so any order CUDA
// allows is honoured and waiting on an event never blocks; during stream
// capture, records and waits carry dependencies (stream_order.h). Events carry the
// simulated device's clock (ShimState::simulatedNanoseconds, see README).

#include "export.h"
#include "shim_state.h"

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

namespace {

// An event last recorded in a capturing stream has no completion to wait
// for or query.
bool capturedEvent(cudaEvent_t event) { return shimState().streamOrder().eventCaptures().count(event) != 0; }

}  // namespace

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::waitEvent(stream, event, flags, lock));
}

CUDART_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::waitEvent(ptxsim::cudart::perThread(stream), event, flags, lock));
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
  shimState().streamOrder().eventCaptures().erase(event);
  delete reinterpret_cast<char*>(event);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::recordEvent(stream, event, 0, lock));
}

CUDART_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::recordEvent(ptxsim::cudart::perThread(stream), event, 0, lock));
}

CUDART_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::recordEvent(stream, event, flags, lock));
}

CUDART_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  std::unique_lock lock(shimState().mutex());
  return result(ptxsim::cudart::recordEvent(ptxsim::cudart::perThread(stream), event, flags, lock));
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidResourceHandle);
  if (capturedEvent(event)) return result(cudaErrorCapturedEvent);
  shimState().device().synchronize();
  shimState().streamOrder().pools().releaseUnused();
  return shimState().sticky();
}

CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) {
  std::lock_guard lock(shimState().mutex());
  if (shimState().events().count(event) == 0) return result(cudaErrorInvalidResourceHandle);
  if (capturedEvent(event)) return result(cudaErrorCapturedEvent);
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
