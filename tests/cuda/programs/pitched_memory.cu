// Pitched device memory: cudaMallocPitch and cudaMalloc3D pitches, 2D and 3D
// fills (cudaMemset2D/3D, also async) of whole and partial boxes, 3D copies
// between pitched pointers on the device and the host, a kernel that walks a
// pitched volume, and the error codes of wrong uses (a fill wider than the
// pitch is not one: CUDA 13 accepts it).
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

__global__ void label(cudaPitchedPtr p, int width, int height, int depth) {
  const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x >= width || y >= height || z >= depth) return;
  char* slice = static_cast<char*>(p.ptr) + z * p.pitch * p.ysize;
  reinterpret_cast<int*>(slice + y * p.pitch)[x] += 1000 * z + 100 * y + x;
}

// Sum of bytes and a hash over a packed host box.
void summarize(const char* what, const std::vector<unsigned char>& box) {
  unsigned long long sum = 0;
  unsigned hash = 2166136261u;
  for (unsigned char b : box) {
    sum += b;
    hash = (hash ^ b) * 16777619u;
  }
  std::printf("%s: %zu bytes, sum %llu, hash %08x\n", what, box.size(), sum, hash);
}

int pitches() {
  for (size_t width : {1, 100, 512, 513, 4000}) {
    void* p = nullptr;
    size_t pitch = 0;
    CHECK(cudaMallocPitch(&p, &pitch, width, 3));
    std::printf("cudaMallocPitch width %zu: pitch %zu\n", width, pitch);
    CHECK(cudaFree(p));
  }
  for (cudaExtent e : {make_cudaExtent(100, 3, 2), make_cudaExtent(1, 1, 1), make_cudaExtent(600, 2, 3)}) {
    cudaPitchedPtr p{};
    CHECK(cudaMalloc3D(&p, e));
    std::printf("cudaMalloc3D %zux%zux%zu: pitch %zu xsize %zu ysize %zu\n", e.width, e.height, e.depth, p.pitch,
                p.xsize, p.ysize);
    CHECK(cudaFree(p.ptr));
  }
  return 0;
}

int fills() {
  const cudaExtent e = make_cudaExtent(40, 5, 3);  // bytes, rows, slices
  cudaPitchedPtr p{};
  CHECK(cudaMalloc3D(&p, e));
  CHECK(cudaMemset3D(p, 0x11, e));
  // A 10x2x2 box at (5, 1, 1), then row 4 of slice 0 from byte 30, then a 2D
  // fill of slice 2's first three rows, asynchronously.
  cudaPitchedPtr box = p;
  box.ptr = static_cast<char*>(p.ptr) + 1 * p.pitch * p.ysize + 1 * p.pitch + 5;
  CHECK(cudaMemset3D(box, 0x22, make_cudaExtent(10, 2, 2)));
  CHECK(cudaMemset2D(static_cast<char*>(p.ptr) + 4 * p.pitch + 30, p.pitch, 0x33, 10, 1));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemset2DAsync(static_cast<char*>(p.ptr) + 2 * p.pitch * p.ysize, p.pitch, 0x44, 7, 3, s));
  CHECK(cudaMemset3DAsync(box, 0x55, make_cudaExtent(1, 1, 1), s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamDestroy(s));
  // Back to a packed host box through cudaMemcpy3D.
  std::vector<unsigned char> host(e.width * e.height * e.depth);
  cudaMemcpy3DParms copy{};
  copy.srcPtr = p;
  copy.dstPtr = make_cudaPitchedPtr(host.data(), e.width, e.width, e.height);
  copy.extent = e;
  copy.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&copy));
  summarize("filled volume", host);
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y) {
      std::printf("  z%zu y%zu:", z, y);
      for (size_t x = 0; x < e.width; x += 3) std::printf(" %02x", host[(z * e.height + y) * e.width + x]);
      std::printf("\n");
    }
  CHECK(cudaFree(p.ptr));
  return 0;
}

int kernelAndDeviceCopies() {
  const int w = 20, h = 6, d = 4;
  const cudaExtent e = make_cudaExtent(w * sizeof(int), h, d);
  cudaPitchedPtr a{}, b{};
  CHECK(cudaMalloc3D(&a, e));
  CHECK(cudaMalloc3D(&b, e));
  CHECK(cudaMemset3D(a, 0, e));
  label<<<dim3(h, d), 32>>>(a, w, h, d);
  CHECK(cudaGetLastError());
  // Device to device: a 12x4x3 box of a at (4, 1, 1) into b at (0, 0, 0).
  CHECK(cudaMemset3D(b, 0xff, e));
  cudaMemcpy3DParms copy{};
  copy.srcPtr = a;
  copy.srcPos = make_cudaPos(4 * sizeof(int), 1, 1);
  copy.dstPtr = b;
  copy.extent = make_cudaExtent(12 * sizeof(int), 4, 3);
  copy.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3D(&copy));
  std::vector<int> host(w * h * d);
  cudaMemcpy3DParms back{};
  back.srcPtr = b;
  back.dstPtr = make_cudaPitchedPtr(host.data(), w * sizeof(int), w, h);
  back.extent = e;
  back.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&back));
  for (int z = 0; z < d; ++z) {
    std::printf("b slice %d row 1:", z);
    for (int x = 0; x < 14; ++x) std::printf(" %d", host[(z * h + 1) * w + x]);
    std::printf("\n");
  }
  CHECK(cudaFree(a.ptr));
  CHECK(cudaFree(b.ptr));
  return 0;
}

int wrongUses() {
  cudaPitchedPtr p{};
  CHECK(cudaMalloc3D(&p, make_cudaExtent(64, 2, 2)));
  std::printf("cudaMemset2D wider than the pitch: %s\n",
              cudaGetErrorName(cudaMemset2D(p.ptr, p.pitch, 0, p.pitch + 1, 1)));
  cudaGetLastError();
  std::printf("cudaMemset3D wider than the pitch: %s\n",
              cudaGetErrorName(cudaMemset3D(p, 0, make_cudaExtent(p.pitch + 1, 1, 1))));
  cudaGetLastError();
  std::printf("cudaMalloc3D to null: %s\n", cudaGetErrorName(cudaMalloc3D(nullptr, make_cudaExtent(4, 4, 4))));
  cudaGetLastError();
  size_t pitch = 0;
  std::printf("cudaMallocPitch to null: %s\n", cudaGetErrorName(cudaMallocPitch(nullptr, &pitch, 4, 4)));
  cudaGetLastError();
  CHECK(cudaFree(p.ptr));
  return 0;
}

int main() {
  if (pitches() || fills() || kernelAndDeviceCopies() || wrongUses()) return 1;
  std::printf("done\n");
  return 0;
}
