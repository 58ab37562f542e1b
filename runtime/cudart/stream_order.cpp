#include "stream_order.h"

#include <algorithm>

#include "shim_state.h"

namespace ptxsim::cudart {

StreamOrderState::StreamOrderState() { legacyStream_.id = 1; }

StreamOrderState::~StreamOrderState() {
  for (StreamRecord* s : createdStreams_) delete s;
}

StreamRecord* StreamOrderState::stream(cudaStream_t handle, bool perThreadDefault) {
  if (handle == nullptr) handle = perThreadDefault ? cudaStreamPerThread : cudaStreamLegacy;
  if (handle == cudaStreamLegacy) return &legacyStream_;
  if (handle == cudaStreamPerThread) {
    auto [it, inserted] = perThreadStreams_.try_emplace(std::this_thread::get_id());
    if (inserted) it->second.id = 2;
    return &it->second;
  }
  auto* record = reinterpret_cast<StreamRecord*>(handle);
  return createdStreams_.count(record) != 0 ? record : nullptr;
}

StreamRecord* StreamOrderState::createStream(unsigned flags, int priority) {
  auto* record = new StreamRecord;
  record->flags = flags;
  record->priority = priority;
  record->id = nextStreamId_++;
  createdStreams_.insert(record);
  return record;
}

void StreamOrderState::destroyStream(StreamRecord* stream) {
  if (CaptureSequence* seq = stream->capture) {
    invalidate(seq);
    if (seq->origin == stream) {
      finishCapture(seq);
    } else {
      seq->streams.erase(std::find(seq->streams.begin(), seq->streams.end(), stream));
    }
  }
  createdStreams_.erase(stream);
  delete stream;
}

cudaError_t StreamOrderState::beginCapture(StreamRecord* stream, cudaStreamCaptureMode mode, Graph* intoGraph,
                                           const std::vector<GraphNode*>& dependencies) {
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed) {
    return cudaErrorInvalidValue;
  }
  if (isLegacy(stream)) return cudaErrorStreamCaptureUnsupported;
  if (stream->capture != nullptr) return cudaErrorIllegalState;
  auto seq = std::make_unique<CaptureSequence>();
  seq->id = nextCaptureId_++;
  seq->mode = mode;
  seq->thread = std::this_thread::get_id();
  if (intoGraph == nullptr) seq->ownedGraph = std::make_unique<Graph>();
  seq->graph = intoGraph != nullptr ? intoGraph : seq->ownedGraph.get();
  seq->origin = stream;
  seq->streams.push_back(stream);
  stream->capture = seq.get();
  stream->captureDependencies = dependencies;
  captures_[seq->id] = std::move(seq);
  return cudaSuccess;
}

cudaError_t StreamOrderState::endCapture(StreamRecord* stream, Graph*& graph) {
  graph = nullptr;
  CaptureSequence* seq = stream->capture;
  if (seq == nullptr) return cudaErrorIllegalState;
  if (seq->origin != stream) {
    invalidate(seq);
    return cudaErrorStreamCaptureUnmatched;
  }
  if (seq->mode != cudaStreamCaptureModeRelaxed && seq->thread != std::this_thread::get_id()) {
    return cudaErrorStreamCaptureWrongThread;
  }
  cudaError_t error = seq->invalidated ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
  if (error == cudaSuccess) {
    // Every captured node must lead to the origin stream's last work: a
    // stream forked through an event must have been joined back.
    std::set<GraphNode*> reached;
    std::vector<GraphNode*> pending = stream->captureDependencies;
    while (!pending.empty()) {
      GraphNode* n = pending.back();
      pending.pop_back();
      if (!reached.insert(n).second) continue;
      for (GraphNode* d : n->dependencies) pending.push_back(d);
    }
    for (GraphNode* n : seq->capturedNodes) {
      if (nodes_.count(n) != 0 && reached.count(n) == 0) error = cudaErrorStreamCaptureUnjoined;
    }
  }
  if (error == cudaSuccess) graph = seq->ownedGraph != nullptr ? seq->ownedGraph.release() : seq->graph;
  finishCapture(seq);
  return error;
}

cudaError_t StreamOrderState::capture(StreamRecord* stream, StreamOperation operation) {
  CaptureSequence* seq = stream->capture;
  if (seq->invalidated) return cudaErrorStreamCaptureInvalidated;
  // The graph owns what it records: a launched graph is copied, not shared.
  GraphNode* node = seq->graph->addNode(deepCopy(operation), stream->captureDependencies);
  seq->capturedNodes.insert(node);
  stream->captureDependencies = {node};
  return cudaSuccess;
}

void StreamOrderState::invalidate(CaptureSequence* sequence) { sequence->invalidated = true; }

static bool hasBlockingStream(const CaptureSequence& seq) {
  return std::any_of(seq.streams.begin(), seq.streams.end(),
                     [](const StreamRecord* s) { return (s->flags & cudaStreamNonBlocking) == 0; });
}

bool StreamOrderState::legacyStreamBlockedByCapture() const {
  return std::any_of(captures_.begin(), captures_.end(), [](const auto& c) { return hasBlockingStream(*c.second); });
}

cudaError_t StreamOrderState::implicitCaptureDependency(const StreamRecord* stream) {
  if (!isLegacy(stream)) return cudaSuccess;
  bool found = false;
  for (auto& [id, seq] : captures_) {
    if (!hasBlockingStream(*seq)) continue;
    invalidate(seq.get());
    found = true;
  }
  return found ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

cudaStreamCaptureMode& StreamOrderState::threadCaptureMode() {
  return threadCaptureModes_.try_emplace(std::this_thread::get_id(), cudaStreamCaptureModeGlobal).first->second;
}

cudaError_t StreamOrderState::unsafeCallDuringCapture() {
  cudaStreamCaptureMode mode = threadCaptureMode();
  bool prohibited = false;
  for (auto& [id, seq] : captures_) {
    if (seq->mode == cudaStreamCaptureModeRelaxed) continue;
    bool local = seq->thread == std::this_thread::get_id();
    if ((local && mode != cudaStreamCaptureModeRelaxed) ||
        (!local && seq->mode == cudaStreamCaptureModeGlobal && mode == cudaStreamCaptureModeGlobal)) {
      invalidate(seq.get());
      prohibited = true;
    }
  }
  return prohibited ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

void StreamOrderState::finishCapture(CaptureSequence* sequence) {
  for (StreamRecord* s : sequence->streams) {
    s->capture = nullptr;
    s->captureDependencies.clear();
  }
  for (auto it = eventCaptures_.begin(); it != eventCaptures_.end();) {
    it = it->second.sequence == sequence ? eventCaptures_.erase(it) : std::next(it);
  }
  captures_.erase(sequence->id);
}

cudaError_t issue(cudaStream_t stream, StreamOperation operation, std::unique_lock<std::mutex>& lock) {
  StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream);
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  if (cudaError_t e = state.implicitCaptureDependency(s); e != cudaSuccess) return e;
  if (s->capture != nullptr) return state.capture(s, std::move(operation));
  return execute(operation, stream, lock);
}

cudaError_t recordEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags, std::unique_lock<std::mutex>& lock) {
  StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream);
  if (s == nullptr || shimState().events().count(event) == 0) return cudaErrorInvalidResourceHandle;
  if ((flags & ~unsigned{cudaEventRecordExternal}) != 0) return cudaErrorInvalidValue;
  if (cudaError_t e = state.implicitCaptureDependency(s); e != cudaSuccess) return e;
  CaptureSequence* seq = s->capture;
  if (seq == nullptr || (flags & cudaEventRecordExternal) != 0) {
    state.eventCaptures().erase(event);
    return issue(stream, EventRecordOperation{event}, lock);
  }
  if (seq->invalidated) return cudaErrorStreamCaptureInvalidated;
  state.eventCaptures()[event] = EventCapture{seq, s->captureDependencies};
  return cudaSuccess;
}

cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags, std::unique_lock<std::mutex>& lock) {
  StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream);
  if (s == nullptr || shimState().events().count(event) == 0) return cudaErrorInvalidResourceHandle;
  if ((flags & ~unsigned{cudaEventWaitExternal}) != 0) return cudaErrorInvalidValue;
  if (cudaError_t e = state.implicitCaptureDependency(s); e != cudaSuccess) return e;
  auto captured = state.eventCaptures().find(event);
  if (captured == state.eventCaptures().end() || (flags & cudaEventWaitExternal) != 0) {
    if (s->capture == nullptr || (flags & cudaEventWaitExternal) != 0) return issue(stream, EventWaitOperation{event}, lock);
    // Waiting inside a capture for work outside it would cross the capture's boundary.
    state.invalidate(s->capture);
    return cudaErrorStreamCaptureIsolation;
  }
  CaptureSequence* seq = captured->second.sequence;
  if (s->capture == nullptr) {  // the stream joins the capture (a fork)
    s->capture = seq;
    seq->streams.push_back(s);
    s->captureDependencies = captured->second.nodes;
    return cudaSuccess;
  }
  if (s->capture != seq) {
    state.invalidate(s->capture);
    state.invalidate(seq);
    return cudaErrorStreamCaptureMerge;
  }
  if (seq->invalidated) return cudaErrorStreamCaptureInvalidated;
  for (GraphNode* n : captured->second.nodes) {
    auto& deps = s->captureDependencies;
    if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
  }
  return cudaSuccess;
}

}  // namespace ptxsim::cudart
