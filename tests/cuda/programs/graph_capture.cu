// Stream capture: work issued to a capturing stream (memsets, <<<>>> and
// cudaLaunchKernel launches, async copies, host functions) is recorded, with
// a fork and join across streams through events, then replayed by graph
// launches; capture queries; the errors of illegal calls during capture.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

__global__ void affine(int* data, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offset;
}

__global__ void combine(int* out, const int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] - b[i];
}

void CUDART_CB countRun(void* userData) { ++*static_cast<int*>(userData); }

const char* statusName(cudaStreamCaptureStatus s) {
  return s == cudaStreamCaptureStatusNone ? "none" : s == cudaStreamCaptureStatusActive ? "active" : "invalidated";
}

int main() {
  const int n = 4096;
  const size_t bytes = n * sizeof(int);
  int *input = nullptr, *output = nullptr;
  CHECK(cudaMallocHost(&input, bytes));
  CHECK(cudaMallocHost(&output, bytes));
  int *a = nullptr, *b = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&out, bytes));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  cudaEvent_t forked, joined;
  CHECK(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
  for (int i = 0; i < n; ++i) input[i] = 5 * i - 3000;
  CHECK(cudaMemset(out, 0x7f, bytes));

  int runs = 0;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  std::printf("s1 while capturing: %s\n", statusName(status));
  CHECK(cudaStreamIsCapturing(s2, &status));
  std::printf("s2 before the fork: %s\n", statusName(status));
  unsigned long long id = 0;
  size_t deps = 99;
  cudaGraph_t capturing = nullptr;
  CHECK(cudaStreamGetCaptureInfo(s1, &status, &id, &capturing, nullptr, nullptr, &deps));
  std::printf("capture info: %s, id nonzero %s, graph %s, %zu dependencies\n", statusName(status), id != 0 ? "yes" : "no",
              capturing != nullptr ? "given" : "null", deps);
  CHECK(cudaMemcpyAsync(a, input, bytes, cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemsetAsync(b, 0, bytes, s1));
  CHECK(cudaEventRecord(forked, s1));
  CHECK(cudaStreamWaitEvent(s2, forked, 0));  // s2 joins the capture
  CHECK(cudaStreamIsCapturing(s2, &status));
  std::printf("s2 after the fork: %s\n", statusName(status));
  int n_ = n, factor = 3, offset = 11;
  affine<<<n / 256, 256, 0, s1>>>(a, n, factor, offset);  // a = in * 3 + 11
  factor = 100;  // captured launches keep the values they had
  CHECK(cudaMemcpyAsync(b, input, bytes, cudaMemcpyHostToDevice, s2));
  int f2 = -1, o2 = 4;
  void* args[] = {&b, &n_, &f2, &o2};
  CHECK(cudaLaunchKernel(reinterpret_cast<void*>(affine), dim3(n / 128), dim3(128), args, 0, s2));  // b = -in + 4
  f2 = 50;
  CHECK(cudaEventRecord(joined, s2));
  CHECK(cudaStreamWaitEvent(s1, joined, 0));  // join back
  CHECK(cudaStreamGetCaptureInfo(s1, &status, nullptr, nullptr, nullptr, nullptr, &deps));
  std::printf("s1 dependencies after the join: %zu\n", deps);
  combine<<<n / 256, 256, 0, s1>>>(out, a, b, n);  // out = 4 * in + 7
  CHECK(cudaMemcpyAsync(output, out, bytes, cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, countRun, &runs));
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s1, &graph));
  CHECK(cudaStreamIsCapturing(s2, &status));
  std::printf("s2 after the end: %s\n", statusName(status));

  // Nothing ran during capture.
  int out0 = 0;
  CHECK(cudaMemcpy(&out0, out, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("after capture: host function ran %d times, out[0] still 0x%08x\n", runs, out0);
  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::printf("captured nodes: %zu\n", count);
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count));
  std::printf("captured edges: %zu\n", count);
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &count));
  std::printf("captured roots: %zu\n", count);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {
    for (int i = 0; i < n; ++i) input[i] = (launch + 1) * i - 1234;
    CHECK(cudaGraphLaunch(exec, s2));
    CHECK(cudaStreamSynchronize(s2));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += output[i] != (input[i] * 3 + 11) - (-input[i] + 4);
    std::printf("graph launch %d: %d wrong, host function ran %d times\n", launch, bad, runs);
  }

  // Illegal calls during capture.
  cudaGraph_t none = nullptr;
  std::printf("capture of the legacy stream: %s\n",
              cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
  std::printf("end without capture: %s\n", cudaGetErrorName(cudaStreamEndCapture(s1, &none)));
  cudaGetLastError();

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  std::printf("capture twice: %s\n", cudaGetErrorName(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)));
  affine<<<1, 32, 0, s1>>>(a, 32, 1, 1);
  std::printf("synchronize the capturing stream: %s\n", cudaGetErrorName(cudaStreamSynchronize(s1)));
  CHECK(cudaStreamIsCapturing(s1, &status));
  std::printf("then the capture is %s\n", statusName(status));
  std::printf("launch into it: %s\n", cudaGetErrorName(cudaMemsetAsync(a, 0, 4, s1)));
  cudaError_t e = cudaStreamEndCapture(s1, &none);
  std::printf("end: %s, graph %s\n", cudaGetErrorName(e), none == nullptr ? "null" : "given");
  cudaGetLastError();

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  void* p = nullptr;
  std::printf("cudaMalloc in global capture: %s\n", cudaGetErrorName(cudaMalloc(&p, 256)));
  e = cudaStreamEndCapture(s1, &none);
  std::printf("end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  std::printf("cudaMalloc in relaxed capture: %s\n", cudaGetErrorName(cudaMalloc(&p, 256)));
  CHECK(cudaFree(p));
  affine<<<1, 32, 0, s1>>>(a, 32, 1, 1);
  CHECK(cudaStreamEndCapture(s1, &none));
  CHECK(cudaGraphGetNodes(none, nullptr, &count));
  std::printf("relaxed capture nodes: %zu\n", count);
  CHECK(cudaGraphDestroy(none));

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(forked, s1));
  CHECK(cudaStreamWaitEvent(s2, forked, 0));
  affine<<<1, 32, 0, s2>>>(b, 32, 1, 1);  // never joined back
  e = cudaStreamEndCapture(s1, &none);
  std::printf("fork without join: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaStreamIsCapturing(s2, &status));
  std::printf("s2 afterwards: %s\n", statusName(status));

  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  std::printf("legacy stream query while a blocking stream captures: %s\n",
              cudaGetErrorName(cudaStreamIsCapturing(0, &status)));
  std::printf("stream callback in capture: %s\n",
              cudaGetErrorName(cudaStreamAddCallback(
                  s1, [](cudaStream_t, cudaError_t, void*) {}, nullptr, 0)));
  e = cudaStreamEndCapture(s1, &none);
  std::printf("end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(forked));
  CHECK(cudaEventDestroy(joined));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFreeHost(input));
  CHECK(cudaFreeHost(output));
  return 0;
}
