// The explicit graph API: memset, memcpy (1D and 3D-parameter forms),
// kernel, host, empty, event-record and child-graph nodes with dependencies;
// queries of nodes and edges; instantiate and launch several times;
// per-node parameter changes on the executable graph; whole-graph update;
// clone; disabled nodes.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

__global__ void affine(int* data, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offset;
}

__global__ void addInto(int* out, const int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += a[i] + b[i];
}

void CUDART_CB countLaunch(void* userData) { ++*static_cast<int*>(userData); }

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
    default: return "other";
  }
}

// out[i] = (in[i] * f1 + o1) + (in[i] * f2 + o2) + 0 (out zeroed by the memset)
int wrongValues(const int* host, const int* input, int n, int f1, int o1, int f2, int o2) {
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != (input[i] * f1 + o1) + (input[i] * f2 + o2);
  return bad;
}

int main() {
  const int n = 2048;
  const size_t bytes = n * sizeof(int);
  int *input = nullptr, *output = nullptr;
  CHECK(cudaMallocHost(&input, bytes));
  CHECK(cudaMallocHost(&output, bytes));
  int *x = nullptr, *y = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&x, bytes));
  CHECK(cudaMalloc(&y, bytes));
  CHECK(cudaMalloc(&out, bytes));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  // Copy the input to x and y; zero out.
  cudaGraphNode_t copyX, copyY, zeroOut, scaleX, scaleY, join, sum, copyBack, host, record, child;
  CHECK(cudaGraphAddMemcpyNode1D(&copyX, graph, nullptr, 0, x, input, bytes, cudaMemcpyHostToDevice));
  cudaMemcpy3DParms toY{};
  toY.srcPtr = make_cudaPitchedPtr(input, bytes, bytes, 1);
  toY.dstPtr = make_cudaPitchedPtr(y, bytes, bytes, 1);
  toY.extent = make_cudaExtent(bytes, 1, 1);
  toY.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddMemcpyNode(&copyY, graph, nullptr, 0, &toY));
  cudaMemsetParams zero{};
  zero.dst = out;
  zero.value = 0;
  zero.elementSize = 4;
  zero.width = n;
  zero.height = 1;
  CHECK(cudaGraphAddMemsetNode(&zeroOut, graph, nullptr, 0, &zero));
  // x = x * 3 + 1 and y = y * -2 + 5, each after its copy.
  int n_ = n, f1 = 3, o1 = 1, f2 = -2, o2 = 5;
  void* argsX[] = {&x, &n_, &f1, &o1};
  void* argsY[] = {&y, &n_, &f2, &o2};
  cudaKernelNodeParams kx{};
  kx.func = reinterpret_cast<void*>(affine);
  kx.gridDim = dim3(n / 128);
  kx.blockDim = dim3(128);
  kx.kernelParams = argsX;
  CHECK(cudaGraphAddKernelNode(&scaleX, graph, &copyX, 1, &kx));
  cudaKernelNodeParams ky = kx;
  ky.kernelParams = argsY;
  CHECK(cudaGraphAddKernelNode(&scaleY, graph, &copyY, 1, &ky));
  // Arguments are copied when the node is made: changing them now changes nothing.
  f1 = 1000;
  cudaGraphNode_t joinDeps[] = {scaleX, scaleY, zeroOut};
  CHECK(cudaGraphAddEmptyNode(&join, graph, joinDeps, 3));
  void* sumArgs[] = {&out, &x, &y, &n_};
  cudaKernelNodeParams ks{};
  ks.func = reinterpret_cast<void*>(addInto);
  ks.gridDim = dim3(n / 256);
  ks.blockDim = dim3(256);
  ks.kernelParams = sumArgs;
  CHECK(cudaGraphAddKernelNode(&sum, graph, &join, 1, &ks));
  CHECK(cudaGraphAddMemcpyNode1D(&copyBack, graph, &sum, 1, output, out, bytes, cudaMemcpyDeviceToHost));
  int launches = 0;
  cudaHostNodeParams hp{};
  hp.fn = countLaunch;
  hp.userData = &launches;
  CHECK(cudaGraphAddHostNode(&host, graph, &copyBack, 1, &hp));
  CHECK(cudaGraphAddEventRecordNode(&record, graph, &host, 1, done));
  // A child graph after the copy back: out = out * 1 + 0, which leaves the result as it is.
  cudaGraph_t inner;
  CHECK(cudaGraphCreate(&inner, 0));
  cudaGraphNode_t innerKernel;
  int one = 1, zeroOffset = 0;
  void* innerArgs[] = {&out, &n_, &one, &zeroOffset};
  cudaKernelNodeParams ki = kx;
  ki.kernelParams = innerArgs;
  CHECK(cudaGraphAddKernelNode(&innerKernel, inner, nullptr, 0, &ki));
  CHECK(cudaGraphAddChildGraphNode(&child, graph, &copyBack, 1, inner));
  CHECK(cudaGraphDestroy(inner));  // the node keeps its own copy

  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::printf("nodes: %zu\n", count);
  cudaGraphNode_t nodes[16];
  CHECK(cudaGraphGetNodes(graph, nodes, &count));
  int perType[16] = {};
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nodes[i], &t));
    ++perType[t];
  }
  for (int t = 0; t < 16; ++t) {
    if (perType[t] != 0) std::printf("  %s nodes: %d\n", typeName(static_cast<cudaGraphNodeType>(t)), perType[t]);
  }
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &count));
  std::printf("root nodes: %zu\n", count);
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count));
  std::printf("edges: %zu\n", count);
  CHECK(cudaGraphNodeGetDependencies(join, nullptr, nullptr, &count));
  std::printf("join depends on %zu nodes\n", count);
  CHECK(cudaGraphNodeGetDependentNodes(copyBack, nullptr, nullptr, &count));
  std::printf("copy back has %zu dependents\n", count);
  cudaKernelNodeParams readBack{};
  CHECK(cudaGraphKernelNodeGetParams(scaleX, &readBack));
  std::printf("scaleX: grid %u, block %u, factor %d, offset %d\n", readBack.gridDim.x, readBack.blockDim.x,
              *static_cast<int*>(readBack.kernelParams[2]), *static_cast<int*>(readBack.kernelParams[3]));
  cudaMemcpy3DParms copyParams{};
  CHECK(cudaGraphMemcpyNodeGetParams(copyX, &copyParams));
  std::printf("copyX: %zu bytes, host to device %s\n", copyParams.extent.width,
              copyParams.kind == cudaMemcpyHostToDevice ? "yes" : "no");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  // Three launches with different inputs: the graph reads the input each time.
  for (int launch = 0; launch < 3; ++launch) {
    for (int i = 0; i < n; ++i) input[i] = i * (launch + 1) - 700;
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("launch %d: %d wrong, host node ran %d times, event %s\n", launch,
                wrongValues(output, input, n, 3, 1, -2, 5), launches,
                cudaEventQuery(done) == cudaSuccess ? "complete" : "pending");
  }

  // Change the scale of x in the executable graph only.
  int f3 = 4, o3 = -9;
  void* argsX2[] = {&x, &n_, &f3, &o3};
  cudaKernelNodeParams kx2 = kx;
  kx2.kernelParams = argsX2;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, scaleX, &kx2));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after exec kernel params: %d wrong\n", wrongValues(output, input, n, 4, -9, -2, 5));

  // Disable the scale of y: y stays the input.
  CHECK(cudaGraphNodeSetEnabled(exec, scaleY, 0));
  unsigned enabled = 1;
  CHECK(cudaGraphNodeGetEnabled(exec, scaleY, &enabled));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("scaleY disabled (enabled %u): %d wrong\n", enabled, wrongValues(output, input, n, 4, -9, 1, 0));
  CHECK(cudaGraphNodeSetEnabled(exec, scaleY, 1));

  // Whole-graph update from a clone with other parameters.
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, graph));
  cudaGraphNode_t cloneScaleY;
  CHECK(cudaGraphNodeFindInClone(&cloneScaleY, scaleY, clone));
  int f4 = 6, o4 = 2;
  void* argsY2[] = {&y, &n_, &f4, &o4};
  cudaKernelNodeParams ky2 = ky;
  ky2.kernelParams = argsY2;
  CHECK(cudaGraphKernelNodeSetParams(cloneScaleY, &ky2));
  cudaGraphExecUpdateResultInfo info{};
  CHECK(cudaGraphExecUpdate(exec, clone, &info));
  std::printf("update from clone: result %d\n", static_cast<int>(info.result));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  // The update takes the clone's parameters for every node (x back to 3, 1).
  std::printf("after update: %d wrong\n", wrongValues(output, input, n, 3, 1, 6, 2));

  // An update from a graph of another shape fails.
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, clone, nullptr, 0));
  cudaError_t e = cudaGraphExecUpdate(exec, clone, &info);
  std::printf("update with another topology: %s, result %d\n", cudaGetErrorName(e), static_cast<int>(info.result));
  cudaGetLastError();

  // Errors.
  std::printf("node of another graph as dependency: %s\n",
              cudaGetErrorName(cudaGraphAddEmptyNode(&extra, graph, &cloneScaleY, 1)));
  std::printf("memset element size 3: %s\n", cudaGetErrorName([&] {
                cudaMemsetParams bad = zero;
                bad.elementSize = 3;
                return cudaGraphAddMemsetNode(&extra, graph, nullptr, 0, &bad);
              }()));
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(out));
  CHECK(cudaFreeHost(input));
  CHECK(cudaFreeHost(output));
  return 0;
}
