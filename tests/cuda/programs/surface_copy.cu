// Surface objects over CUDA arrays: copies of 2D uchar4 and float arrays
// through surf2Dread/surf2Dwrite, a layered float array, every boundary mode
// (.zero and .clamp values; .trap as a launch error at the very end), suq
// sizes through inline PTX, the array API's descriptors, and its error codes
// for bad arguments.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

void show(const char* what, cudaError_t e) { std::printf("%-52s %s\n", what, cudaGetErrorName(e)); }

__global__ void copyUchar4(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 v = surf2Dread<uchar4>(src, x * 4, y);
  // Swap red and blue on the way, so the copy is visibly the kernel's.
  surf2Dwrite(make_uchar4(v.z, v.y, v.x, v.w), dst, x * 4, y);
}

__global__ void copyFloat(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  surf2Dwrite(surf2Dread<float>(src, x * 4, y) * 2.0f + 1.0f, dst, x * 4, y);
}

// Reads at coordinates around and outside a w x h float array with the
// zero and clamp boundary modes.
__global__ void boundaryReads(cudaSurfaceObject_t s, const int2* at, int n, float* zero, float* clamp) {
  int i = threadIdx.x;
  if (i >= n) return;
  zero[i] = surf2Dread<float>(s, at[i].x * 4, at[i].y, cudaBoundaryModeZero);
  clamp[i] = surf2Dread<float>(s, at[i].x * 4, at[i].y, cudaBoundaryModeClamp);
}

// Out-of-bounds writes: dropped with .zero, to the nearest texel with .clamp.
__global__ void boundaryWrites(cudaSurfaceObject_t s) {
  surf2Dwrite(-1.0f, s, -4, 0, cudaBoundaryModeZero);
  surf2Dwrite(-2.0f, s, 400, 1, cudaBoundaryModeZero);
  surf2Dwrite(-3.0f, s, 400, 1, cudaBoundaryModeClamp);   // -> (w-1, 1)
  surf2Dwrite(-4.0f, s, -8, -3, cudaBoundaryModeClamp);   // -> (0, 0)
}

__global__ void queries(cudaSurfaceObject_t s, unsigned* out) {
  unsigned w, h;
  asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s));
  asm("suq.height.b32 %0, [%1];" : "=r"(h) : "l"(s));
  out[0] = w;
  out[1] = h;
}

__global__ void layered(cudaSurfaceObject_t s, int w, int h, int layers) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x < w && y < h && l < layers) surf2DLayeredwrite(float(l * 100 + y * 10 + x), s, x * 4, y, l);
}

__global__ void trapRead(cudaSurfaceObject_t s, float* out) {
  out[0] = surf2Dread<float>(s, 4 * 1000, 0, cudaBoundaryModeTrap);
}

void info(const char* name, cudaArray_t a) {
  cudaChannelFormatDesc d;
  cudaExtent e;
  unsigned flags = 0;
  cudaError_t r = cudaArrayGetInfo(&d, &e, &flags, a);
  std::printf("%s: %s desc {%d,%d,%d,%d kind %d} extent %zux%zux%zu flags 0x%x\n", name, cudaGetErrorName(r), d.x,
              d.y, d.z, d.w, static_cast<int>(d.f), e.width, e.height, e.depth, flags);
  cudaChannelFormatDesc c;
  r = cudaGetChannelDesc(&c, a);
  std::printf("%s: cudaGetChannelDesc %s {%d,%d,%d,%d kind %d}\n", name, cudaGetErrorName(r), c.x, c.y, c.z, c.w,
              static_cast<int>(c.f));
}

cudaSurfaceObject_t surfaceOf(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  show("cudaCreateSurfaceObject", cudaCreateSurfaceObject(&s, &r));
  return s;
}

int main() {
  // --- uchar4 copy.
  const int W = 19, H = 7;
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a = nullptr, b = nullptr;
  show("cudaMallocArray uchar4 src", cudaMallocArray(&a, &u4, W, H, cudaArraySurfaceLoadStore));
  show("cudaMallocArray uchar4 dst", cudaMallocArray(&b, &u4, W, H, cudaArraySurfaceLoadStore));
  static uchar4 in[H][W], out[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      in[y][x] = make_uchar4(x * 13 + y, y * 29 + 3, (x * y) & 255, 255 - x);
  show("cudaMemcpy2DToArray", cudaMemcpy2DToArray(a, 0, 0, in, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t sa = surfaceOf(a), sb = surfaceOf(b);
  copyUchar4<<<dim3(3, 2), dim3(8, 4)>>>(sa, sb, W, H);
  show("copyUchar4", cudaDeviceSynchronize());
  show("cudaMemcpy2DFromArray", cudaMemcpy2DFromArray(out, W * 4, b, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      uchar4 i = in[y][x], o = out[y][x];
      bad += o.x != i.z || o.y != i.y || o.z != i.x || o.w != i.w;
    }
  std::printf("uchar4 copy: %d mismatches; out[6][18] = %d %d %d %d\n", bad, out[6][18].x, out[6][18].y,
              out[6][18].z, out[6][18].w);

  // --- float copy, through cudaMemcpyToArray/FromArray and cudaMemcpy3D.
  const int FW = 6, FH = 5;
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaArray_t fa = nullptr, fb = nullptr;
  show("cudaMallocArray float src", cudaMallocArray(&fa, &f1, FW, FH, cudaArraySurfaceLoadStore));
  show("cudaMalloc3DArray float dst", cudaMalloc3DArray(&fb, &f1, make_cudaExtent(FW, FH, 0),
                                                        cudaArraySurfaceLoadStore));
  float fin[FH * FW], fout[FH * FW];
  for (int i = 0; i < FH * FW; ++i) fin[i] = 0.25f * i - 3.0f;
  show("cudaMemcpyToArray", cudaMemcpyToArray(fa, 0, 0, fin, sizeof fin, cudaMemcpyHostToDevice));
  cudaSurfaceObject_t sfa = surfaceOf(fa), sfb = surfaceOf(fb);
  copyFloat<<<1, dim3(8, 8)>>>(sfa, sfb, FW, FH);
  show("copyFloat", cudaDeviceSynchronize());
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcArray = fb;
  p.dstPtr = make_cudaPitchedPtr(fout, FW * sizeof(float), FW, FH);
  p.extent = make_cudaExtent(FW, FH, 1);
  p.kind = cudaMemcpyDeviceToHost;
  show("cudaMemcpy3D array to host", cudaMemcpy3D(&p));
  bad = 0;
  for (int i = 0; i < FH * FW; ++i) bad += fout[i] != fin[i] * 2.0f + 1.0f;
  std::printf("float copy: %d mismatches; out[29] = %g\n", bad, fout[29]);
  float row[FW];
  show("cudaMemcpyFromArray row 2", cudaMemcpyFromArray(row, fb, 0, 2, sizeof row, cudaMemcpyDeviceToHost));
  std::printf("row 2:");
  for (float v : row) std::printf(" %g", v);
  std::printf("\n");

  // --- boundary modes on the float source (6 x 5, values 0.25 i - 3).
  const int n = 6;
  int2 at[n] = {{0, 0}, {5, 4}, {-1, 0}, {6, 2}, {3, -2}, {9, 9}};
  int2* dAt;
  float *dZero, *dClamp;
  cudaMalloc(&dAt, sizeof at);
  cudaMalloc(&dZero, n * sizeof(float));
  cudaMalloc(&dClamp, n * sizeof(float));
  cudaMemcpy(dAt, at, sizeof at, cudaMemcpyHostToDevice);
  boundaryReads<<<1, 32>>>(sfa, dAt, n, dZero, dClamp);
  show("boundaryReads", cudaDeviceSynchronize());
  float zero[n], clamp[n];
  cudaMemcpy(zero, dZero, sizeof zero, cudaMemcpyDeviceToHost);
  cudaMemcpy(clamp, dClamp, sizeof clamp, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    std::printf("read (%d,%d): zero %g clamp %g\n", at[i].x, at[i].y, zero[i], clamp[i]);
  boundaryWrites<<<1, 1>>>(sfa);
  show("boundaryWrites", cudaDeviceSynchronize());
  cudaMemcpy2DFromArray(fout, FW * 4, fa, 0, 0, FW * 4, FH, cudaMemcpyDeviceToHost);
  std::printf("after writes: (0,0) %g (5,1) %g (0,1) %g (5,0) %g\n", fout[0], fout[FW + 5], fout[FW], fout[5]);

  // --- suq.
  unsigned* dq;
  unsigned q[2];
  cudaMalloc(&dq, sizeof q);
  queries<<<1, 1>>>(sa, dq);
  show("queries", cudaDeviceSynchronize());
  cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost);
  std::printf("suq: width %u height %u\n", q[0], q[1]);

  // --- layered float array, read back with cudaMemcpy3D into pitched memory.
  cudaArray_t la = nullptr;
  show("cudaMalloc3DArray layered", cudaMalloc3DArray(&la, &f1, make_cudaExtent(4, 3, 2),
                                                      cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sl = surfaceOf(la);
  layered<<<2, dim3(4, 3)>>>(sl, 4, 3, 2);
  show("layered", cudaDeviceSynchronize());
  void* rows = nullptr;
  size_t pitch = 0;
  show("cudaMallocPitch", cudaMallocPitch(&rows, &pitch, 4 * sizeof(float), 6));
  cudaPitchedPtr pitched = make_cudaPitchedPtr(rows, pitch, 4, 3);
  std::memset(&p, 0, sizeof p);
  p.srcArray = la;
  p.dstPtr = pitched;
  p.extent = make_cudaExtent(4, 3, 2);
  p.kind = cudaMemcpyDeviceToDevice;
  show("cudaMemcpy3D layered array to pitched", cudaMemcpy3D(&p));
  float lout[2][3][4];
  show("cudaMemcpy2D pitched to host",
       cudaMemcpy2D(lout, 4 * sizeof(float), pitched.ptr, pitched.pitch, 4 * sizeof(float), 6, cudaMemcpyDeviceToHost));
  std::printf("layered: [0][0][0] %g [0][2][3] %g [1][1][2] %g [1][2][3] %g\n", lout[0][0][0], lout[0][2][3],
              lout[1][1][2], lout[1][2][3]);

  // --- descriptors.
  info("uchar4 array", a);
  info("float array", fb);
  info("layered array", la);
  cudaArray_t cube = nullptr;
  show("cudaMalloc3DArray cubemap", cudaMalloc3DArray(&cube, &u4, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
  info("cubemap", cube);
  cudaArray_t vol = nullptr;
  cudaChannelFormatDesc s2 = cudaCreateChannelDesc<short2>();
  show("cudaMalloc3DArray 3D short2", cudaMalloc3DArray(&vol, &s2, make_cudaExtent(5, 4, 3), 0));
  info("3D short2", vol);
  cudaArray_t one = nullptr;
  cudaChannelFormatDesc h4 = cudaCreateChannelDescHalf4();
  show("cudaMallocArray 1D half4", cudaMallocArray(&one, &h4, 100, 0, 0));
  info("1D half4", one);

  // --- error codes.
  cudaArray_t e = nullptr;
  cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  show("cudaMallocArray 3 channels", cudaMallocArray(&e, &three, 4, 4, 0));
  cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
  show("cudaMallocArray mixed widths", cudaMallocArray(&e, &mixed, 4, 4, 0));
  cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
  show("cudaMallocArray 8-bit float", cudaMallocArray(&e, &f8, 4, 4, 0));
  show("cudaMallocArray width 0", cudaMallocArray(&e, &f1, 0, 4, 0));
  show("cudaMallocArray null array", cudaMallocArray(nullptr, &f1, 4, 4, 0));
  show("cudaMallocArray layered flag", cudaMallocArray(&e, &f1, 4, 4, cudaArrayLayered));
  show("cudaMalloc3DArray cubemap 8x4", cudaMalloc3DArray(&e, &f1, make_cudaExtent(8, 4, 6), cudaArrayCubemap));
  show("cudaMalloc3DArray cubemap depth 5", cudaMalloc3DArray(&e, &f1, make_cudaExtent(8, 8, 5), cudaArrayCubemap));
  show("cudaMalloc3DArray 3D 20000 wide", cudaMalloc3DArray(&e, &f1, make_cudaExtent(20000, 4, 4), 0));
  cudaArray_t plain = nullptr;
  show("cudaMallocArray without surface flag", cudaMallocArray(&plain, &f1, 4, 4, 0));
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = plain;
  cudaSurfaceObject_t bogus = 0;
  show("cudaCreateSurfaceObject without surface flag", cudaCreateSurfaceObject(&bogus, &r));
  show("cudaMemcpy2DToArray past the width",
       cudaMemcpy2DToArray(fa, 8, 0, fin, FW * 4, FW * 4, 1, cudaMemcpyHostToDevice));
  show("cudaMemcpy2DToArray past the height",
       cudaMemcpy2DToArray(fa, 0, 3, fin, FW * 4, FW * 4, 3, cudaMemcpyHostToDevice));
  show("cudaMemcpy2DToArray spitch < width",
       cudaMemcpy2DToArray(fa, 0, 0, fin, 8, FW * 4, 2, cudaMemcpyHostToDevice));
  show("cudaGetChannelDesc null desc", cudaGetChannelDesc(nullptr, fa));
  show("cudaGetLastError", cudaGetLastError());
  show("cudaDestroySurfaceObject", cudaDestroySurfaceObject(sb));
  show("cudaFreeArray", cudaFreeArray(b));
  show("cudaFreeArray null", cudaFreeArray(nullptr));

  // --- .trap: an out-of-bounds read is a launch fault.
  float* dOut;
  cudaMalloc(&dOut, sizeof(float));
  trapRead<<<1, 1>>>(sfa, dOut);
  show("trapRead", cudaDeviceSynchronize());
  show("after trap", cudaGetLastError());
  return 0;
}
