// Stream capture: the runtime's (the capture modes and statuses, and the
// edge data of CUDA 12.3 on, are numbered and laid out alike).

#include "driver_api.h"
#include "graph_handles.h"

using ptxsim::driver::edges;
using ptxsim::driver::nodes;
using ptxsim::driver::perThread;
using ptxsim::driver::viaRuntime;

namespace {

CUresult beginCapture(CUstream hStream, CUstreamCaptureMode mode) {
  return viaRuntime([&] { return cudaStreamBeginCapture(hStream, static_cast<cudaStreamCaptureMode>(mode)); });
}

CUresult beginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode* dependencies,
                             const CUgraphEdgeData* dependencyData, size_t numDependencies, CUstreamCaptureMode mode) {
  return viaRuntime([&] {
    return cudaStreamBeginCaptureToGraph(hStream, reinterpret_cast<cudaGraph_t>(hGraph),
                                         reinterpret_cast<const cudaGraphNode_t*>(dependencies), edges(dependencyData),
                                         numDependencies, static_cast<cudaStreamCaptureMode>(mode));
  });
}

CUresult captureInfo(CUstream hStream, CUstreamCaptureStatus* captureStatus_out, cuuint64_t* id_out,
                     CUgraph* graph_out, const CUgraphNode** dependencies_out, const CUgraphEdgeData** edgeData_out,
                     size_t* numDependencies_out) {
  return viaRuntime([&] {
    return cudaStreamGetCaptureInfo(hStream, reinterpret_cast<cudaStreamCaptureStatus*>(captureStatus_out),
                                    reinterpret_cast<unsigned long long*>(id_out),
                                    reinterpret_cast<cudaGraph_t*>(graph_out),
                                    reinterpret_cast<const cudaGraphNode_t**>(dependencies_out),
                                    reinterpret_cast<const cudaGraphEdgeData**>(edgeData_out), numDependencies_out);
  });
}

CUresult updateDependencies(CUstream hStream, CUgraphNode* dependencies, const CUgraphEdgeData* dependencyData,
                            size_t numDependencies, unsigned flags) {
  return viaRuntime([&] {
    return cudaStreamUpdateCaptureDependencies(hStream, nodes(dependencies), edges(dependencyData), numDependencies,
                                               flags);
  });
}

}  // namespace

DRIVER_EXPORT CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode) {
  return beginCapture(hStream, mode);
}
DRIVER_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode) {
  return beginCapture(perThread(hStream), mode);
}
DRIVER_EXPORT CUresult cuStreamBeginCapture(CUstream hStream) {
  return beginCapture(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}
DRIVER_EXPORT CUresult cuStreamBeginCapture_ptsz(CUstream hStream) {
  return beginCapture(perThread(hStream), CU_STREAM_CAPTURE_MODE_GLOBAL);
}

DRIVER_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode* dependencies,
                                                   const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                                   CUstreamCaptureMode mode) {
  return beginCaptureToGraph(hStream, hGraph, dependencies, dependencyData, numDependencies, mode);
}
DRIVER_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
                                                        const CUgraphNode* dependencies,
                                                        const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                                        CUstreamCaptureMode mode) {
  return beginCaptureToGraph(perThread(hStream), hGraph, dependencies, dependencyData, numDependencies, mode);
}

DRIVER_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  return viaRuntime(
      [&] { return cudaThreadExchangeStreamCaptureMode(reinterpret_cast<cudaStreamCaptureMode*>(mode)); });
}

DRIVER_EXPORT CUresult cuStreamEndCapture(CUstream hStream, CUgraph* phGraph) {
  return viaRuntime([&] { return cudaStreamEndCapture(hStream, reinterpret_cast<cudaGraph_t*>(phGraph)); });
}
DRIVER_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph* phGraph) {
  return cuStreamEndCapture(perThread(hStream), phGraph);
}

DRIVER_EXPORT CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return viaRuntime(
      [&] { return cudaStreamIsCapturing(hStream, reinterpret_cast<cudaStreamCaptureStatus*>(captureStatus)); });
}
DRIVER_EXPORT CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return cuStreamIsCapturing(perThread(hStream), captureStatus);
}

DRIVER_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                 cuuint64_t* id_out, CUgraph* graph_out,
                                                 const CUgraphNode** dependencies_out,
                                                 const CUgraphEdgeData** edgeData_out, size_t* numDependencies_out) {
  return captureInfo(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                     numDependencies_out);
}
DRIVER_EXPORT CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                      cuuint64_t* id_out, CUgraph* graph_out,
                                                      const CUgraphNode** dependencies_out,
                                                      const CUgraphEdgeData** edgeData_out,
                                                      size_t* numDependencies_out) {
  return captureInfo(perThread(hStream), captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                     numDependencies_out);
}
DRIVER_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                 cuuint64_t* id_out, CUgraph* graph_out,
                                                 const CUgraphNode** dependencies_out, size_t* numDependencies_out) {
  return captureInfo(hStream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr, numDependencies_out);
}
DRIVER_EXPORT CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                              cuuint64_t* id_out) {
  return captureInfo(hStream, captureStatus_out, id_out, nullptr, nullptr, nullptr, nullptr);
}

DRIVER_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode* dependencies,
                                                            const CUgraphEdgeData* dependencyData,
                                                            size_t numDependencies, unsigned int flags) {
  return updateDependencies(hStream, dependencies, dependencyData, numDependencies, flags);
}
DRIVER_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode* dependencies,
                                                                 const CUgraphEdgeData* dependencyData,
                                                                 size_t numDependencies, unsigned int flags) {
  return updateDependencies(perThread(hStream), dependencies, dependencyData, numDependencies, flags);
}
DRIVER_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode* dependencies,
                                                         size_t numDependencies, unsigned int flags) {
  return updateDependencies(hStream, dependencies, nullptr, numDependencies, flags);
}
DRIVER_EXPORT CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode* dependencies,
                                                              size_t numDependencies, unsigned int flags) {
  return updateDependencies(perThread(hStream), dependencies, nullptr, numDependencies, flags);
}
DRIVER_EXPORT CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                      cuuint64_t* id_out, CUgraph* graph_out,
                                                      const CUgraphNode** dependencies_out,
                                                      size_t* numDependencies_out) {
  return captureInfo(perThread(hStream), captureStatus_out, id_out, graph_out, dependencies_out, nullptr,
                     numDependencies_out);
}
DRIVER_EXPORT CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                   cuuint64_t* id_out) {
  return captureInfo(perThread(hStream), captureStatus_out, id_out, nullptr, nullptr, nullptr, nullptr);
}
