// Stream capture: cudaStreamBeginCapture to cudaStreamEndCapture records the
// stream's work (and that of streams joined to it through events) into a
// graph instead of running it (stream_order.h).

#include <algorithm>

#include "export.h"
#include "graph_handles.h"
#include "shim_state.h"

using ptxsim::cudart::Graph;
using ptxsim::cudart::graphOf;
using ptxsim::cudart::GraphNode;
using ptxsim::cudart::result;
using ptxsim::cudart::shimState;
using ptxsim::cudart::StreamRecord;

namespace {

cudaError_t beginCapture(cudaStream_t stream, Graph* graph, const cudaGraphNode_t* dependencies,
                         size_t numDependencies, cudaStreamCaptureMode mode, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  std::vector<GraphNode*> deps;
  for (size_t i = 0; i < numDependencies; ++i) {
    auto* n = reinterpret_cast<GraphNode*>(dependencies[i]);
    if (state.nodes().count(n) == 0 || n->graph != graph) return result(cudaErrorInvalidValue);
    deps.push_back(n);
  }
  return result(state.beginCapture(s, mode, graph, deps));
}

cudaError_t beginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                size_t numDependencies, cudaStreamCaptureMode mode, bool perThreadDefault) {
  Graph* g = nullptr;
  {
    std::lock_guard lock(shimState().mutex());
    g = graphOf(graph);
  }
  if (g == nullptr) {
    std::lock_guard lock(shimState().mutex());
    return result(cudaErrorInvalidValue);
  }
  return beginCapture(stream, g, dependencies, numDependencies, mode, perThreadDefault);
}

cudaError_t endCapture(cudaStream_t stream, cudaGraph_t* graph, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (graph == nullptr) return result(cudaErrorInvalidValue);
  StreamRecord* s = shimState().streamOrder().stream(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  Graph* captured = nullptr;
  cudaError_t e = shimState().streamOrder().endCapture(s, captured);
  *graph = reinterpret_cast<cudaGraph_t>(captured);
  return result(e);
}

cudaStreamCaptureStatus statusOf(const StreamRecord& s) {
  if (s.capture == nullptr) return cudaStreamCaptureStatusNone;
  return s.capture->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
}

cudaError_t isCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (status == nullptr) return result(cudaErrorInvalidValue);
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  // The legacy stream cannot be used while a blocking stream captures; asking does not invalidate.
  if (state.isLegacy(s) && state.legacyStreamBlockedByCapture()) return result(cudaErrorStreamCaptureImplicit);
  *status = statusOf(*s);
  return cudaSuccess;
}

cudaError_t captureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id,
                        cudaGraph_t* graph, const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edgeData,
                        size_t* numDependencies, bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  if (status == nullptr || (edgeData != nullptr && dependencies == nullptr)) return result(cudaErrorInvalidValue);
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (state.isLegacy(s) && state.legacyStreamBlockedByCapture()) return result(cudaErrorStreamCaptureImplicit);
  *status = statusOf(*s);
  if (*status != cudaStreamCaptureStatusActive) return cudaSuccess;
  if (id != nullptr) *id = s->capture->id;
  if (graph != nullptr) *graph = reinterpret_cast<cudaGraph_t>(s->capture->graph);
  // The stream's own array: valid until the next call that changes the stream, as CUDA says.
  if (dependencies != nullptr) *dependencies = reinterpret_cast<const cudaGraphNode_t*>(s->captureDependencies.data());
  if (edgeData != nullptr) *edgeData = nullptr;  // every edge is a default edge: no data
  if (numDependencies != nullptr) *numDependencies = s->captureDependencies.size();
  return cudaSuccess;
}

cudaError_t updateDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies, size_t count, unsigned flags,
                               bool perThreadDefault) {
  std::lock_guard lock(shimState().mutex());
  ptxsim::cudart::StreamOrderState& state = shimState().streamOrder();
  StreamRecord* s = state.stream(stream, perThreadDefault);
  if (s == nullptr) return result(cudaErrorInvalidResourceHandle);
  if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) {
    return result(cudaErrorInvalidValue);
  }
  if (s->capture == nullptr) return result(cudaErrorIllegalState);
  std::vector<GraphNode*> nodes;
  for (size_t i = 0; i < count; ++i) {
    auto* n = reinterpret_cast<GraphNode*>(dependencies[i]);
    if (state.nodes().count(n) == 0 || n->graph != s->capture->graph) return result(cudaErrorInvalidValue);
    nodes.push_back(n);
  }
  if (flags == cudaStreamSetCaptureDependencies) s->captureDependencies.clear();
  for (GraphNode* n : nodes) {
    auto& deps = s->captureDependencies;
    if (std::find(deps.begin(), deps.end(), n) == deps.end()) deps.push_back(n);
  }
  return cudaSuccess;
}

}  // namespace

CUDART_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return beginCapture(stream, nullptr, nullptr, 0, mode, false);
}

CUDART_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return beginCapture(stream, nullptr, nullptr, 0, mode, true);
}

CUDART_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                        const cudaGraphNode_t* dependencies,
                                                        const cudaGraphEdgeData* dependencyData,
                                                        size_t numDependencies, cudaStreamCaptureMode mode) {
  (void)dependencyData;  // default edges only: the data says nothing for them
  return beginCaptureToGraph(stream, graph, dependencies, numDependencies, mode, false);
}

CUDART_EXPORT cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                             const cudaGraphNode_t* dependencies,
                                                             const cudaGraphEdgeData* dependencyData,
                                                             size_t numDependencies, cudaStreamCaptureMode mode) {
  (void)dependencyData;
  return beginCaptureToGraph(stream, graph, dependencies, numDependencies, mode, true);
}

CUDART_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  return endCapture(stream, graph, false);
}

CUDART_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph) {
  return endCapture(stream, graph, true);
}

CUDART_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  return isCapturing(stream, status, false);
}

CUDART_EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  return isCapturing(stream, status, true);
}

CUDART_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                                   unsigned long long* id, cudaGraph_t* graph,
                                                   const cudaGraphNode_t** dependencies,
                                                   const cudaGraphEdgeData** edgeData, size_t* numDependencies) {
  return captureInfo(stream, status, id, graph, dependencies, edgeData, numDependencies, false);
}

CUDART_EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                                        unsigned long long* id, cudaGraph_t* graph,
                                                        const cudaGraphNode_t** dependencies,
                                                        const cudaGraphEdgeData** edgeData,
                                                        size_t* numDependencies) {
  return captureInfo(stream, status, id, graph, dependencies, edgeData, numDependencies, true);
}

CUDART_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                              const cudaGraphEdgeData* dependencyData,
                                                              size_t numDependencies, unsigned int flags) {
  (void)dependencyData;
  return updateDependencies(stream, dependencies, numDependencies, flags, false);
}

CUDART_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                   cudaGraphNode_t* dependencies,
                                                                   const cudaGraphEdgeData* dependencyData,
                                                                   size_t numDependencies, unsigned int flags) {
  (void)dependencyData;
  return updateDependencies(stream, dependencies, numDependencies, flags, true);
}

CUDART_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  std::lock_guard lock(shimState().mutex());
  if (mode == nullptr || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed) {
    return result(cudaErrorInvalidValue);
  }
  std::swap(*mode, shimState().streamOrder().threadCaptureMode());
  return cudaSuccess;
}
