#pragma once

// Stream order: streams (created, the legacy default stream and each host
// thread's per-thread default stream), stream capture, graphs and memory
// pools. Functional mode completes all work when it is issued, so work in
// a stream runs after everything issued before it and streams are ordered
// trivially; what needs care is capture, where issue() records the work
// into a graph instead of running it.

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "graph.h"
#include "graph_memory.h"
#include "memory_pool.h"
#include "stream_operation.h"
#include "user_object.h"

namespace ptxsim::cudart {

struct CaptureSequence;

struct StreamRecord {
  unsigned flags = 0;
  int priority = 0;
  unsigned long long id = 0;
  // cudaStreamSetAttribute values (hints: they change no result).
  cudaAccessPolicyWindow accessPolicyWindow{};
  cudaSynchronizationPolicy synchronizationPolicy = cudaSyncPolicyAuto;
  // While capturing: the sequence, and the nodes the next captured node depends on.
  CaptureSequence* capture = nullptr;
  std::vector<GraphNode*> captureDependencies;
};

struct CaptureSequence {
  unsigned long long id = 0;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread;
  Graph* graph = nullptr;
  std::unique_ptr<Graph> ownedGraph;  // null for cudaStreamBeginCaptureToGraph
  StreamRecord* origin = nullptr;
  bool invalidated = false;
  std::vector<StreamRecord*> streams;  // the origin and every stream joined through an event
  std::set<GraphNode*> capturedNodes;  // must all reach the origin again at the end (else Unjoined)
};

// What an event last recorded in a capturing stream holds.
struct EventCapture {
  CaptureSequence* sequence = nullptr;
  std::vector<GraphNode*> nodes;
};

class StreamOrderState {
 public:
  StreamOrderState();
  ~StreamOrderState();

  // The stream a handle names (null, cudaStreamLegacy and cudaStreamPerThread
  // included); null if it names none. `perThreadDefault`: a null handle
  // means the per-thread default stream (the _ptsz entry points).
  StreamRecord* stream(cudaStream_t handle, bool perThreadDefault = false);
  StreamRecord* createStream(unsigned flags, int priority);
  void destroyStream(StreamRecord* stream);
  bool isLegacy(const StreamRecord* stream) const { return stream == &legacyStream_; }

  std::set<Graph*>& graphs() { return graphs_; }
  std::set<GraphNode*>& nodes() { return nodes_; }
  std::map<GraphExec*, std::unique_ptr<GraphExec>>& execs() { return execs_; }
  std::map<cudaEvent_t, EventCapture>& eventCaptures() { return eventCaptures_; }
  MemoryPools& pools() { return pools_; }
  GraphMemory& graphMemory() { return graphMemory_; }
  UserObjects& userObjects() { return userObjects_; }

  // Capture.
  cudaError_t beginCapture(StreamRecord* stream, cudaStreamCaptureMode mode, Graph* intoGraph,
                           const std::vector<GraphNode*>& dependencies);
  // The captured graph (owned by the caller from then on; the program's own
  // graph for cudaStreamBeginCaptureToGraph) or the error ending the capture.
  cudaError_t endCapture(StreamRecord* stream, Graph*& graph);
  // Records `operation` as a node of the stream's capture graph.
  cudaError_t capture(StreamRecord* stream, StreamOperation operation);
  void invalidate(CaptureSequence* sequence);
  // cudaErrorStreamCaptureImplicit (and the captures invalidated) when work
  // in `stream` would wait for a capturing blocking stream: work in the
  // legacy default stream does.
  cudaError_t implicitCaptureDependency(const StreamRecord* stream);
  // Whether the legacy default stream may be used without an implicit
  // dependency on a capture (the check, without invalidating).
  bool legacyStreamBlockedByCapture() const;
  // cudaErrorStreamCaptureUnsupported (and the captures concerned
  // invalidated) when the calling thread may not make a potentially unsafe
  // call (cudaMalloc, device synchronisation...): see
  // cudaThreadExchangeStreamCaptureMode in cuda_runtime_api.h.
  cudaError_t unsafeCallDuringCapture();
  cudaStreamCaptureMode& threadCaptureMode();

  // Ends a sequence: every stream leaves it, every event recorded in it forgets it.
  void finishCapture(CaptureSequence* sequence);

 private:
  StreamRecord legacyStream_;
  std::map<std::thread::id, StreamRecord> perThreadStreams_;
  std::set<StreamRecord*> createdStreams_;
  unsigned long long nextStreamId_ = 3;  // 0-2: the default streams
  std::set<Graph*> graphs_;
  std::set<GraphNode*> nodes_;
  std::map<GraphExec*, std::unique_ptr<GraphExec>> execs_;
  std::map<unsigned long long, std::unique_ptr<CaptureSequence>> captures_;
  unsigned long long nextCaptureId_ = 1;
  std::map<cudaEvent_t, EventCapture> eventCaptures_;
  std::map<std::thread::id, cudaStreamCaptureMode> threadCaptureModes_;
  MemoryPools pools_;
  GraphMemory graphMemory_;
  UserObjects userObjects_;
};

// Issues one operation in stream order: recorded into the graph while the
// stream captures, run now otherwise. `stream` is the handle the program
// passed (a null handle already mapped to cudaStreamPerThread by _ptsz
// entry points). `lock` holds the shim's mutex.
cudaError_t issue(cudaStream_t stream, StreamOperation operation, std::unique_lock<std::mutex>& lock);

// cudaEventRecord(WithFlags) and cudaStreamWaitEvent. During capture an
// event carries the capturing stream's dependencies to the waiting stream
// (joining it to the capture); cudaEventRecordExternal and
// cudaEventWaitExternal make event nodes instead.
cudaError_t recordEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags, std::unique_lock<std::mutex>& lock);
cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags, std::unique_lock<std::mutex>& lock);

// Maps the null stream of a _ptsz entry point to cudaStreamPerThread.
inline cudaStream_t perThread(cudaStream_t stream) { return stream == nullptr ? cudaStreamPerThread : stream; }

}  // namespace ptxsim::cudart
