// Managed (unified) memory: cudaMallocManaged with both attach flags,
// host and kernels alternating on the same data, __managed__ variables,
// prefetch and advice hints, and the pointer attributes of managed memory.
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

struct Node {
  int value;
  Node* next;
};

__managed__ int managedCounter = 10;
__managed__ float managedTable[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};

__global__ void step(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + managedTable[i % 8];
  if (i == 0) atomicAdd(&managedCounter, 1);
}

// Follows a linked list the host built in managed memory.
__global__ void walk(const Node* head, int* sum, int* length) {
  int s = 0, l = 0;
  for (const Node* p = head; p != nullptr; p = p->next) {
    s += p->value;
    ++l;
  }
  *sum = s;
  *length = l;
}

int main() {
  const int n = 2048;
  float* data = nullptr;
  CHECK(cudaMallocManaged(&data, n * sizeof(float)));
  for (int i = 0; i < n; ++i) data[i] = static_cast<float>(i) * 0.25f;

  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaMemLocation onDevice{cudaMemLocationTypeDevice, device};
  cudaMemLocation onHost{cudaMemLocationTypeHost, 0};
  CHECK(cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, onDevice));
  CHECK(cudaMemPrefetchAsync(data, n * sizeof(float), onDevice, 0, 0));
  for (int round = 0; round < 3; ++round) {
    step<<<(n + 255) / 256, 256>>>(data, n, 0.5f + round);
    CHECK(cudaDeviceSynchronize());
    // The host reads and changes the data between kernels.
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += data[i];
    std::printf("round %d: data[1] %.4f data[2047] %.4f sum %.3f counter %d\n", round, data[1], data[n - 1], sum,
                managedCounter);
    data[0] = -1.0f;
  }
  CHECK(cudaMemPrefetchAsync(data, n * sizeof(float), onHost, 0, 0));
  CHECK(cudaDeviceSynchronize());

  // The host changes a __managed__ variable; the kernel sees it.
  managedTable[3] = 100.0f;
  managedCounter = 0;
  step<<<1, 8>>>(data, 8, 1.0f);
  CHECK(cudaDeviceSynchronize());
  std::printf("after changing managedTable[3]: data[3] %.4f counter %d\n", data[3], managedCounter);

  // A linked list built by the host, walked by the device.
  Node* nodes = nullptr;
  CHECK(cudaMallocManaged(&nodes, 5 * sizeof(Node), cudaMemAttachHost));
  for (int i = 0; i < 5; ++i) nodes[i] = Node{(i + 1) * (i + 1), i + 1 < 5 ? &nodes[i + 1] : nullptr};
  int* results = nullptr;
  CHECK(cudaMallocManaged(&results, 2 * sizeof(int)));
  walk<<<1, 1>>>(nodes, &results[0], &results[1]);
  CHECK(cudaDeviceSynchronize());
  std::printf("list: sum %d length %d\n", results[0], results[1]);

  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, data + 100));
  std::printf("managed pointer: type %s, device %d, host pointer %s, device pointer %s\n",
              a.type == cudaMemoryTypeManaged ? "managed" : "other", a.device,
              a.hostPointer == data + 100 ? "same" : "other", a.devicePointer == data + 100 ? "same" : "other");
  CHECK(cudaPointerGetAttributes(&a, &managedCounter));
  std::printf("__managed__ variable: type %s\n", a.type == cudaMemoryTypeManaged ? "managed" : "other");
  void* symbolAddress = nullptr;
  CHECK(cudaGetSymbolAddress(&symbolAddress, managedCounter));
  std::printf("symbol address of the __managed__ variable is its host address: %s\n",
              symbolAddress == &managedCounter ? "yes" : "no");

  std::printf("cudaMallocManaged with flags 7: %s\n", cudaGetErrorName(cudaMallocManaged(&results, 16, 7)));
  cudaGetLastError();

  // Attaching managed memory to a stream, as the unified-memory stream
  // samples do, and the uses CUDA refuses.
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  std::printf("attach with its size, host flag: %s\n",
              cudaGetErrorName(cudaStreamAttachMemAsync(stream, nodes, 5 * sizeof(Node), cudaMemAttachHost)));
  std::printf("attach whole allocation to a stream: %s\n",
              cudaGetErrorName(cudaStreamAttachMemAsync(stream, nodes, 0, cudaMemAttachSingle)));
  std::printf("attach part of it: %s\n",
              cudaGetErrorName(cudaStreamAttachMemAsync(stream, nodes, sizeof(Node), cudaMemAttachSingle)));
  cudaGetLastError();
  int* plain = nullptr;
  CHECK(cudaMalloc(&plain, 64));
  std::printf("attach device memory: %s\n",
              cudaGetErrorName(cudaStreamAttachMemAsync(stream, plain, 0, cudaMemAttachSingle)));
  cudaGetLastError();
  std::printf("attach with flags 8: %s\n", cudaGetErrorName(cudaStreamAttachMemAsync(stream, nodes, 0, 8)));
  cudaGetLastError();
  // (A kernel walking the list on that stream after these calls faulted
  // on the H100 with cudaErrorIllegalAddress; why is not understood, and
  // ptxsim does not model attachments, so the program stops short of it.)
  std::printf("cudaCtxResetPersistingL2Cache: %s\n", cudaGetErrorName(cudaCtxResetPersistingL2Cache()));
  CHECK(cudaFree(plain));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(data));
  CHECK(cudaFree(nodes));
  CHECK(cudaFree(results));
  std::printf("done\n");
  return 0;
}
