// cudaLaunchKernelEx as programs use it: the C++ template with typed
// arguments and launch attributes (priority, programmatic stream
// serialization, memory synchronisation domain, a cluster of one block,
// cooperative), the C form with an argument array, a kernel handle, a
// launch-completion event, and the attribute values CUDA refuses. Each
// launch is checked against the host.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

__global__ void affine(float* data, int n, float scale, float offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * scale + offset;
}

// Checks data against the values affine launches applied in turn, from i.
int countMismatches(const float* device, int n, const std::vector<float>& scales,
                    const std::vector<float>& offsets) {
  std::vector<float> host(n);
  if (cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) return n;
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    float expected = static_cast<float>(i);
    for (size_t k = 0; k < scales.size(); ++k) expected = expected * scales[k] + offsets[k];
    if (host[i] != expected) ++mismatches;
  }
  return mismatches;
}

int main() {
  const int n = 3000, threads = 256;
  const unsigned blocks = (n + threads - 1) / threads;  // 12
  std::vector<float> initial(n);
  for (int i = 0; i < n; ++i) initial[i] = static_cast<float>(i);
  float* data = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(float)));
  CHECK(cudaMemcpy(data, initial.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  std::vector<float> scales, offsets;

  cudaLaunchAttribute attributes[5] = {};
  attributes[0].id = cudaLaunchAttributePriority;
  attributes[0].val.priority = 0;
  attributes[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[1].val.programmaticStreamSerializationAllowed = 1;
  attributes[2].id = cudaLaunchAttributeMemSyncDomain;
  attributes[2].val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  attributes[3].id = cudaLaunchAttributeClusterDimension;
  attributes[3].val.clusterDim.x = 1;
  attributes[3].val.clusterDim.y = 1;
  attributes[3].val.clusterDim.z = 1;
  attributes[4].id = cudaLaunchAttributeIgnore;

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = 5;
  CHECK(cudaLaunchKernelEx(&config, affine, data, n, 2.0f, 1.0f));
  scales.push_back(2.0f), offsets.push_back(1.0f);
  CHECK(cudaStreamSynchronize(stream));
  std::printf("template with attributes: %d mismatches\n", countMismatches(data, n, scales, offsets));

  // The C form, without attributes, on the default stream.
  cudaLaunchConfig_t plain = {};
  plain.gridDim = dim3(blocks);
  plain.blockDim = dim3(threads);
  int count = n;
  float scale = 0.5f, offset = -3.0f;
  void* args[] = {&data, &count, &scale, &offset};
  CHECK(cudaLaunchKernelExC(&plain, reinterpret_cast<const void*>(affine), args));
  scales.push_back(scale), offsets.push_back(offset);
  std::printf("C form: %d mismatches\n", countMismatches(data, n, scales, offsets));

  // A kernel handle, and a cooperative launch of a grid that fits.
  cudaKernel_t handle = nullptr;
  CHECK(cudaGetKernel(&handle, affine));
  cudaLaunchAttribute cooperative = {};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  plain.attrs = &cooperative;
  plain.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&plain, handle, data, count, 3.0f, 0.25f));
  scales.push_back(3.0f), offsets.push_back(0.25f);
  std::printf("kernel handle, cooperative: %d mismatches\n", countMismatches(data, n, scales, offsets));

  // A launch-completion event (which must not record timing).
  cudaEvent_t launched;
  CHECK(cudaEventCreateWithFlags(&launched, cudaEventDisableTiming));
  cudaLaunchAttribute completion = {};
  completion.id = cudaLaunchAttributeLaunchCompletionEvent;
  completion.val.launchCompletionEvent.event = launched;
  completion.val.launchCompletionEvent.flags = 0;
  config.attrs = &completion;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, affine, data, n, 1.0f, 10.0f));
  scales.push_back(1.0f), offsets.push_back(10.0f);
  CHECK(cudaEventSynchronize(launched));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("completion event: %d mismatches\n", countMismatches(data, n, scales, offsets));

  // Refused: a cluster that does not divide the grid, and an unknown attribute.
  cudaLaunchAttribute bad = {};
  bad.id = cudaLaunchAttributeClusterDimension;
  bad.val.clusterDim.x = 5;
  bad.val.clusterDim.y = 1;
  bad.val.clusterDim.z = 1;
  config.attrs = &bad;
  std::printf("cluster of 5 in a grid of %u: %s\n", blocks,
              cudaGetErrorName(cudaLaunchKernelEx(&config, affine, data, n, 0.0f, 0.0f)));
  cudaGetLastError();
  bad = {};
  bad.id = static_cast<cudaLaunchAttributeID>(99);
  std::printf("attribute id 99: %s\n",
              cudaGetErrorName(cudaLaunchKernelEx(&config, affine, data, n, 0.0f, 0.0f)));
  cudaGetLastError();
  CHECK(cudaStreamSynchronize(stream));
  int mismatches = countMismatches(data, n, scales, offsets);
  std::printf("after the refused launches: %d mismatches\n", mismatches);

  CHECK(cudaEventDestroy(launched));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(data));
  return mismatches == 0 ? 0 : 1;
}
