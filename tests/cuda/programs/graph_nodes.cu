// The graph API beyond the per-type node functions: the generic node API
// (cudaGraphAddNode, cudaGraphNodeSetParams, cudaGraphExecNodeSetParams),
// graph memory (allocation and free nodes, cudaMallocAsync/cudaFreeAsync
// captured, the graph memory attributes and trim), memcpy nodes to and
// from device variables, kernel node attributes, user objects owned by
// graphs and executable graphs, and the _ptsz entry points of graph calls.
// Each part checks its results against host computations.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "check.h"

// The per-thread default stream variants, as a program built with
// --default-stream per-thread calls them.
extern "C" {
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t*, cudaGraph_t, cudaGraphInstantiateParams*);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t, cudaGraph_t, const cudaGraphNode_t*,
                                               const cudaGraphEdgeData*, size_t, cudaStreamCaptureMode);
cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t, cudaStream_t);
}

__device__ int table[64];

__global__ void affine(int* data, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offset;
}

__global__ void fill(int* data, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = base + i;
}

__global__ void doubleTable(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) table[i] *= 2;
}

void CUDART_CB addOne(void* counter) { ++*static_cast<int*>(counter); }

std::atomic<int> destroyed{0};
void CUDART_CB destroyResource(void* value) { destroyed += *static_cast<int*>(value); }

// User object destructors run asynchronously on a GPU: wait (boundedly) for
// the count to reach `expected`, then report it.
int destroyedAfterWait(int expected) {
  for (int i = 0; i < 200 && destroyed.load() < expected; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return destroyed.load();
}

const char* typeName(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeGraph: return "graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeEventRecord: return "event record";
    case cudaGraphNodeTypeWaitEvent: return "event wait";
    case cudaGraphNodeTypeMemAlloc: return "mem alloc";
    case cudaGraphNodeTypeMemFree: return "mem free";
    default: return "other";
  }
}

void printNodeTypes(const char* what, cudaGraph_t graph) {
  cudaGraphNode_t nodes[16];
  size_t count = 16;
  cudaGraphGetNodes(graph, nodes, &count);
  std::printf("%s: %zu nodes:", what, count);
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    std::printf(" %s", typeName(t));
  }
  std::printf("\n");
}

int wrongAffine(const int* host, int n, int factor, int offset) {
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != (i + 1) * factor + offset;
  return bad;
}

int wrongFill(const int* host, int n, int base) {
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != base + i;
  return bad;
}

unsigned long long graphMem(cudaGraphMemAttributeType attr) {
  unsigned long long value = 0;
  cudaDeviceGetGraphMemAttribute(0, attr, &value);
  return value;
}

// cudaGraphAddNode with every node type the generic API builds, then the
// generic setters on the graph and on its executable graph.
int genericNodes(cudaStream_t stream) {
  const int n = 1024;
  int *input = nullptr, *output = nullptr, *device = nullptr;
  CHECK(cudaMallocHost(&input, n * sizeof(int)));
  CHECK(cudaMallocHost(&output, n * sizeof(int)));
  CHECK(cudaMalloc(&device, n * sizeof(int)));
  for (int i = 0; i < n; ++i) input[i] = i + 1;
  cudaEvent_t event;
  CHECK(cudaEventCreate(&event));
  int hostCalls = 0;

  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t memset, upload, kernel, host, empty, record, childNode, download, wait, childEmpty;

  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeEmpty;
  CHECK(cudaGraphAddNode(&childEmpty, child, nullptr, nullptr, 0, &p));

  p = {};
  p.type = cudaGraphNodeTypeMemset;
  p.memset.dst = device;
  p.memset.value = 0x7f;
  p.memset.elementSize = 1;
  p.memset.width = n * sizeof(int);
  p.memset.height = 1;
  CHECK(cudaGraphAddNode(&memset, graph, nullptr, nullptr, 0, &p));

  p = {};
  p.type = cudaGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(input, n * sizeof(int), n * sizeof(int), 1);
  p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(device, n * sizeof(int), n * sizeof(int), 1);
  p.memcpy.copyParams.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  p.memcpy.copyParams.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddNode(&upload, graph, &memset, nullptr, 1, &p));

  int count = n, factor = 3, offset = 7;
  void* args[] = {&device, &count, &factor, &offset};
  p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = (void*)affine;
  p.kernel.gridDim = dim3(n / 256);
  p.kernel.blockDim = dim3(256);
  p.kernel.kernelParams = args;
  CHECK(cudaGraphAddNode(&kernel, graph, &upload, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeHost;
  p.host.fn = addOne;
  p.host.userData = &hostCalls;
  CHECK(cudaGraphAddNode(&host, graph, &kernel, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeEventRecord;
  p.eventRecord.event = event;
  CHECK(cudaGraphAddNode(&record, graph, &host, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeWaitEvent;
  p.eventWait.event = event;
  CHECK(cudaGraphAddNode(&wait, graph, &record, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  CHECK(cudaGraphAddNode(&childNode, graph, &wait, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeEmpty;
  CHECK(cudaGraphAddNode(&empty, graph, &childNode, nullptr, 1, &p));

  p = {};
  p.type = cudaGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(device, n * sizeof(int), n * sizeof(int), 1);
  p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(output, n * sizeof(int), n * sizeof(int), 1);
  p.memcpy.copyParams.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  p.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddNode(&download, graph, &empty, nullptr, 1, &p));
  printNodeTypes("generic graph", graph);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("generic graph: %d wrong, host calls %d, event recorded %s\n", wrongAffine(output, n, 3, 7), hostCalls,
              cudaEventQuery(event) == cudaSuccess ? "yes" : "no");

  // The executable graph's kernel changes; the graph's own does not.
  factor = 5;
  offset = -2;
  p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = (void*)affine;
  p.kernel.gridDim = dim3(n / 256);
  p.kernel.blockDim = dim3(256);
  p.kernel.kernelParams = args;
  CHECK(cudaGraphExecNodeSetParams(exec, kernel, &p));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("exec kernel set: %d wrong, host calls %d\n", wrongAffine(output, n, 5, -2), hostCalls);

  // The graph's kernel changes with cudaGraphNodeSetParams; a new instance runs it.
  factor = 2;
  offset = 100;
  CHECK(cudaGraphNodeSetParams(kernel, &p));
  cudaKernelNodeParams read = {};
  CHECK(cudaGraphKernelNodeGetParams(kernel, &read));
  std::printf("graph kernel set: factor %d offset %d\n", *static_cast<int*>(read.kernelParams[2]),
              *static_cast<int*>(read.kernelParams[3]));
  cudaGraphExec_t second;
  CHECK(cudaGraphInstantiate(&second, graph, 0));
  CHECK(cudaGraphLaunch(second, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("new instance: %d wrong\n", wrongAffine(output, n, 2, 100));

  // A node's type cannot change, and the generic memset checks its element size.
  p = {};
  p.type = cudaGraphNodeTypeHost;
  p.host.fn = addOne;
  p.host.userData = &hostCalls;
  std::printf("set host params on a kernel node: %s\n", cudaGetErrorName(cudaGraphNodeSetParams(kernel, &p)));
  p = {};
  p.type = cudaGraphNodeTypeMemset;
  p.memset.dst = device;
  p.memset.elementSize = 3;
  p.memset.width = 4;
  p.memset.height = 1;
  cudaGraphNode_t bad;
  std::printf("memset node of 3-byte elements: %s\n",
              cudaGetErrorName(cudaGraphAddNode(&bad, graph, nullptr, nullptr, 0, &p)));
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(second));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaEventDestroy(event));
  CHECK(cudaFree(device));
  CHECK(cudaFreeHost(input));
  CHECK(cudaFreeHost(output));
  return 0;
}

// An allocation node, a kernel using the memory, a copy out and a free
// node: the memory exists while the graph runs.
int memoryNodes(cudaStream_t stream) {
  const int n = 1 << 20;  // 4 MiB of ints
  const size_t bytes = n * sizeof(int);
  int* output = nullptr;
  CHECK(cudaMallocHost(&output, bytes));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = bytes;
  cudaGraphNode_t allocNode, kernelNode, copyNode, freeNode;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &alloc));
  int* memory = static_cast<int*>(alloc.dptr);
  int count = n, base = 11;
  void* args[] = {&memory, &count, &base};
  cudaKernelNodeParams k = {};
  k.func = (void*)fill;
  k.gridDim = dim3(n / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kernelNode, graph, &allocNode, 1, &k));
  CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, &kernelNode, 1, output, memory, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &copyNode, 1, memory));
  printNodeTypes("memory graph", graph);

  cudaMemAllocNodeParams readAlloc = {};
  CHECK(cudaGraphMemAllocNodeGetParams(allocNode, &readAlloc));
  void* freed = nullptr;
  CHECK(cudaGraphMemFreeNodeGetParams(freeNode, &freed));
  std::printf("alloc node: %zu bytes on device %d, same address %s; free node frees it: %s\n", readAlloc.bytesize,
              readAlloc.poolProps.location.id, readAlloc.dptr == memory ? "yes" : "no",
              freed == memory ? "yes" : "no");

  // A second free of the same allocation in one graph, and a free of memory
  // no allocation node returned, are refused.
  cudaGraphNode_t bad;
  std::printf("second free node: %s\n", cudaGetErrorName(cudaGraphAddMemFreeNode(&bad, graph, &freeNode, 1, memory)));
  std::printf("free node of host memory: %s\n",
              cudaGetErrorName(cudaGraphAddMemFreeNode(&bad, graph, nullptr, 0, output)));
  cudaGraph_t clone;
  std::printf("clone of a graph with memory nodes: %s\n", cudaGetErrorName(cudaGraphClone(&clone, graph)));
  cudaGetLastError();

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("memory graph launch %d: %d wrong\n", launch, wrongFill(output, n, 11));
  }
  std::printf("graph memory used high at least 4 MiB: %s\n",
              graphMem(cudaGraphMemAttrUsedMemHigh) >= bytes ? "yes" : "no");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFreeHost(output));
  return 0;
}

// An allocation the graph does not free outlives the launch: the program
// uses it, and must free it before the next launch (or instantiate with
// cudaGraphInstantiateFlagAutoFreeOnLaunch).
int unfreedAllocation(cudaStream_t stream) {
  const int n = 1 << 19;  // 2 MiB of ints
  const size_t bytes = n * sizeof(int);
  int* output = nullptr;
  CHECK(cudaMallocHost(&output, bytes));

  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  int* memory = nullptr;
  CHECK(cudaMallocAsync(&memory, bytes, stream));
  fill<<<n / 256, 256, 0, stream>>>(memory, n, 1000);
  CHECK(cudaStreamEndCapture(stream, &graph));
  printNodeTypes("captured allocation", graph);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaMemcpyAsync(output, memory, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after the launch: %d wrong\n", wrongFill(output, n, 1000));
  std::printf("graph memory in use: %llu\n", graphMem(cudaGraphMemAttrUsedMemCurrent));
  std::printf("launch again before the free: %s\n", cudaGetErrorName(cudaGraphLaunch(exec, stream)));
  cudaGetLastError();
  CHECK(cudaFreeAsync(memory, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("graph memory in use after cudaFreeAsync: %llu\n", graphMem(cudaGraphMemAttrUsedMemCurrent));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(memory));  // cudaFree frees graph memory too
  std::printf("relaunched after the free and freed with cudaFree: ok\n");
  CHECK(cudaGraphExecDestroy(exec));

  CHECK(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int launch = 0; launch < 3; ++launch) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaMemcpyAsync(output, memory, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("auto free on launch, 3 launches: %d wrong\n", wrongFill(output, n, 1000));
  CHECK(cudaFreeAsync(memory, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  // Captured allocation and free, with the memory used in between.
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&memory, bytes, stream));
  fill<<<n / 256, 256, 0, stream>>>(memory, n, -5);
  CHECK(cudaMemcpyAsync(output, memory, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaFreeAsync(memory, stream));
  CHECK(cudaStreamEndCapture(stream, &graph));
  printNodeTypes("captured allocation and free", graph);
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("captured allocation and free, 2 launches: %d wrong\n", wrongFill(output, n, -5));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  CHECK(cudaDeviceGraphMemTrim(0));
  std::printf("after trim: used %llu, reserved %llu\n", graphMem(cudaGraphMemAttrUsedMemCurrent),
              graphMem(cudaGraphMemAttrReservedMemCurrent));
  unsigned long long zero = 0, one = 1;
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
  std::printf("high watermarks reset: used high %llu, reserved high %llu\n", graphMem(cudaGraphMemAttrUsedMemHigh),
              graphMem(cudaGraphMemAttrReservedMemHigh));
  std::printf("set used high to 1: %s\n",
              cudaGetErrorName(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one)));
  std::printf("set used current: %s\n",
              cudaGetErrorName(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero)));
  unsigned long long value = 0;
  std::printf("graph memory of device 7: %s\n",
              cudaGetErrorName(cudaDeviceGetGraphMemAttribute(7, cudaGraphMemAttrUsedMemCurrent, &value)));
  cudaGetLastError();
  CHECK(cudaFreeHost(output));
  return 0;
}

// Memcpy nodes to and from a device variable.
int symbolNodes(cudaStream_t stream) {
  int source[16], other[16], result[64], second[16];
  for (int i = 0; i < 16; ++i) source[i] = i * i, other[i] = 1000 - i;
  int zeros[64] = {};
  CHECK(cudaMemcpyToSymbol(table, zeros, sizeof zeros));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t to, kernel, from;
  CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, graph, nullptr, 0, table, source, sizeof source, 16 * sizeof(int),
                                       cudaMemcpyHostToDevice));
  cudaKernelNodeParams k = {};
  int n = 64;
  void* args[] = {&n};
  k.func = (void*)doubleTable;
  k.gridDim = dim3(1);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kernel, graph, &to, 1, &k));
  CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, graph, &kernel, 1, result, table, sizeof result, 0,
                                         cudaMemcpyDeviceToHost));
  cudaMemcpy3DParms copy = {};
  CHECK(cudaGraphMemcpyNodeGetParams(to, &copy));
  std::printf("to-symbol node: %zu bytes, kind %d\n", copy.extent.width, (int)copy.kind);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += result[i] != (i >= 16 && i < 32 ? 2 * (i - 16) * (i - 16) : 0);
  std::printf("symbol graph: %d wrong\n", bad);

  // The executable graph copies other values into the variable's start and
  // reads 16 values back from offset 0 into another array.
  CHECK(cudaMemcpyToSymbol(table, zeros, sizeof zeros));
  CHECK(cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, to, table, other, sizeof other, 0, cudaMemcpyHostToDevice));
  CHECK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, from, second, table, sizeof second, 0,
                                                   cudaMemcpyDeviceToHost));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  bad = 0;
  for (int i = 0; i < 16; ++i) bad += second[i] != 2 * (1000 - i);
  std::printf("exec symbol nodes changed: %d wrong\n", bad);

  // The graph's own nodes change the same way.
  CHECK(cudaMemcpyToSymbol(table, zeros, sizeof zeros));
  CHECK(cudaGraphMemcpyNodeSetParamsToSymbol(to, table, other, sizeof other, 48 * sizeof(int), cudaMemcpyDefault));
  CHECK(cudaGraphMemcpyNodeSetParamsFromSymbol(from, second, table, sizeof second, 48 * sizeof(int),
                                               cudaMemcpyDefault));
  cudaGraphExec_t again;
  CHECK(cudaGraphInstantiate(&again, graph, 0));
  CHECK(cudaGraphLaunch(again, stream));
  CHECK(cudaStreamSynchronize(stream));
  bad = 0;
  for (int i = 0; i < 16; ++i) bad += second[i] != 2 * (1000 - i);
  std::printf("graph symbol nodes changed: %d wrong\n", bad);

  std::printf("copy past the variable's end: %s\n",
              cudaGetErrorName(cudaGraphMemcpyNodeSetParamsToSymbol(to, table, other, sizeof other, 56 * sizeof(int),
                                                                    cudaMemcpyHostToDevice)));
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(again));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return 0;
}

// Kernel node attributes: set, read back, copied to another node.
int kernelAttributes() {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  int* data = nullptr;
  CHECK(cudaMalloc(&data, 256 * sizeof(int)));
  int n = 256, base = 0;
  void* args[] = {&data, &n, &base};
  cudaKernelNodeParams k = {};
  k.func = (void*)fill;
  k.gridDim = dim3(1);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  cudaGraphNode_t first, second;
  CHECK(cudaGraphAddKernelNode(&first, graph, nullptr, 0, &k));
  CHECK(cudaGraphAddKernelNode(&second, graph, &first, 1, &k));

  cudaLaunchAttributeValue value = {};
  CHECK(cudaGraphKernelNodeGetAttribute(first, cudaLaunchAttributeCooperative, &value));
  std::printf("cooperative before: %d\n", value.cooperative);
  value = {};
  value.cooperative = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(first, cudaLaunchAttributeCooperative, &value));
  value = {};
  value.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  CHECK(cudaGraphKernelNodeSetAttribute(first, cudaLaunchAttributeMemSyncDomain, &value));
  CHECK(cudaGraphKernelNodeCopyAttributes(second, first));
  value = {};
  CHECK(cudaGraphKernelNodeGetAttribute(second, cudaLaunchAttributeCooperative, &value));
  std::printf("copied cooperative: %d\n", value.cooperative);
  value = {};
  CHECK(cudaGraphKernelNodeGetAttribute(second, cudaLaunchAttributeMemSyncDomain, &value));
  std::printf("copied mem sync domain: %d\n", (int)value.memSyncDomain);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  int host[256];
  CHECK(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("cooperative kernel nodes ran: %d wrong\n", wrongFill(host, 256, 0));

  cudaGraphNode_t empty;
  CHECK(cudaGraphAddEmptyNode(&empty, graph, nullptr, 0));
  std::printf("attribute of an empty node: %s\n",
              cudaGetErrorName(cudaGraphKernelNodeGetAttribute(empty, cudaLaunchAttributeCooperative, &value)));
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(data));
  return 0;
}

// User objects: the destructor runs once the last reference, the
// program's or a graph's, is gone.
int userObjects() {
  static int weight = 1;
  cudaUserObject_t object;
  CHECK(cudaUserObjectCreate(&object, &weight, destroyResource, 1, cudaUserObjectNoDestructorSync));
  CHECK(cudaUserObjectRetain(object, 2));
  CHECK(cudaUserObjectRelease(object, 2));
  std::printf("program references released to 1: destroyed %d\n", destroyed.load());

  cudaGraph_t graph, clone;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t empty;
  CHECK(cudaGraphAddEmptyNode(&empty, graph, nullptr, 0));
  CHECK(cudaGraphRetainUserObject(graph, object, 2, 0));
  CHECK(cudaGraphReleaseUserObject(graph, object, 1));
  CHECK(cudaUserObjectRelease(object, 1));  // the graph's reference keeps it
  CHECK(cudaGraphClone(&clone, graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGraphDestroy(graph));
  std::printf("graph destroyed, clone and executable graph remain: destroyed %d\n", destroyed.load());
  CHECK(cudaGraphDestroy(clone));
  std::printf("clone destroyed, executable graph remains: destroyed %d\n", destroyed.load());
  CHECK(cudaGraphExecDestroy(exec));
  std::printf("executable graph destroyed: destroyed %d\n", destroyedAfterWait(1));

  // A reference moved to a graph: the graph's destruction ends the object.
  static int heavier = 10;
  CHECK(cudaUserObjectCreate(&object, &heavier, destroyResource, 1, cudaUserObjectNoDestructorSync));
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphRetainUserObject(graph, object, 1, cudaGraphUserObjectMove));
  std::printf("moved to the graph: destroyed %d\n", destroyed.load());
  std::printf("release more than the graph holds: %s\n",
              cudaGetErrorName(cudaGraphReleaseUserObject(graph, object, 2)));
  cudaGetLastError();
  CHECK(cudaGraphDestroy(graph));
  std::printf("graph destroyed: destroyed %d\n", destroyedAfterWait(11));
  std::printf("object without the required flag: %s\n",
              cudaGetErrorName(cudaUserObjectCreate(&object, &weight, destroyResource, 1, 0)));
  cudaGetLastError();
  return 0;
}

// The _ptsz entry points: a null stream is the per-thread default stream.
int perThreadEntryPoints(cudaStream_t stream) {
  const int n = 512;
  int* data = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaStreamBeginCaptureToGraph_ptsz(stream, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  fill<<<n / 256, 256, 0, stream>>>(data, n, 42);
  CHECK(cudaStreamEndCapture(stream, &graph));
  printNodeTypes("captured to graph (ptsz)", graph);
  cudaGraphInstantiateParams params = {};
  params.uploadStream = nullptr;
  params.flags = cudaGraphInstantiateFlagUpload;
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithParams_ptsz(&exec, graph, &params));
  std::printf("instantiate with params (ptsz): result %d\n", (int)params.result_out);
  CHECK(cudaGraphUpload_ptsz(exec, nullptr));
  CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  int host[n];
  CHECK(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("per-thread launch: %d wrong\n", wrongFill(host, n, 42));
  CHECK(cudaStreamCopyAttributes_ptsz(stream, nullptr));
  std::printf("copy attributes from the per-thread stream (ptsz): ok\n");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(data));
  return 0;
}

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  if (genericNodes(stream) != 0) return 1;
  if (memoryNodes(stream) != 0) return 1;
  if (unfreedAllocation(stream) != 0) return 1;
  if (symbolNodes(stream) != 0) return 1;
  if (kernelAttributes() != 0) return 1;
  if (userObjects() != 0) return 1;
  if (perThreadEntryPoints(stream) != 0) return 1;
  CHECK(cudaStreamDestroy(stream));
  std::printf("done\n");
  return 0;
}
