// textures.cu - covers: texture objects (tex1Dfetch, tex1D, tex2D, tex3D,
// tex2DLod, tex2DGrad, tex1DLayered, tex2DLayered, texCubemap, tex2Dgather ->
// tld4) with float/int/uchar4/float4 element types, surface objects
// (surf1Dread/surf1Dwrite, surf2Dread/surf2Dwrite with boundary modes,
// surf3Dwrite, surf2DLayeredwrite) -> tex./tld4./suld./sust. instructions,
// and texture/surface queries (txq, suq) through inline PTX.
#include <cuda_runtime.h>

__global__ void sample_textures(cudaTextureObject_t lin, cudaTextureObject_t img, cudaTextureObject_t vol,
                                cudaTextureObject_t layered, cudaTextureObject_t cube, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float a = tex1Dfetch<float>(lin, y * w + x);
  float b = tex2D<float>(img, u, v);
  float c = tex3D<float>(vol, u, v, 0.5f);
  float d = tex2DLod<float>(img, u, v, 1.5f);
  float e = tex2DGrad<float>(img, u, v, make_float2(1.f / w, 0.f), make_float2(0.f, 1.f / h));
  float f = tex2DLayered<float>(layered, u, v, y & 3);
  float g = tex1D<float>(img, u);
  float k = tex1DLayered<float>(layered, u, x & 1);
  float cu = texCubemap<float>(cube, u - 0.5f, v - 0.5f, 1.f);
  float4 q = tex2Dgather<float4>(img, u, v, 0);
  float4 q1 = tex2Dgather<float4>(img, u, v, 2);
  out[y * w + x] = a + b + c + d + e + f + g + k + cu + q.x + q.y + q.z + q.w + q1.x;
}

__global__ void sample_typed(cudaTextureObject_t ti, cudaTextureObject_t tu4, cudaTextureObject_t tf4, int4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = tex1Dfetch<int>(ti, i);
  uchar4 b = tex1Dfetch<uchar4>(tu4, i);
  float4 c = tex2D<float4>(tf4, (float)i, 0.5f);
  int4 d = tex2D<int4>(ti, 0.25f, (float)i);
  unsigned short e = tex1Dfetch<unsigned short>(tu4, i + n);
  int tw, th, nl;
  asm("txq.width.b32 %0, [%1];" : "=r"(tw) : "l"(tf4));
  asm("txq.height.b32 %0, [%1];" : "=r"(th) : "l"(tf4));
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(nl) : "l"(tf4));
  a += tw + th + nl;
  out[i] = make_int4(a + d.x, b.x + b.y + b.z + b.w + e, (int)c.x + d.y, (int)(c.y + c.z + c.w) + d.z + d.w);
}

__global__ void surfaces(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, cudaSurfaceObject_t s3,
                         cudaSurfaceObject_t sl, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float v = surf2Dread<float>(s2, x * (int)sizeof(float), y);
  float left = surf2Dread<float>(s2, (x - 1) * (int)sizeof(float), y, cudaBoundaryModeClamp);
  float up = surf2Dread<float>(s2, x * (int)sizeof(float), y - 1, cudaBoundaryModeZero);
  surf2Dwrite(0.25f * (v + left + up), s2, x * (int)sizeof(float), y);
  uchar4 px;
  surf2Dread(&px, s2, x * 4, y, cudaBoundaryModeTrap);
  surf2Dwrite(make_uchar4(px.w, px.z, px.y, px.x), s2, x * 4, y, cudaBoundaryModeClamp);
  if (y == 0) {
    int old = surf1Dread<int>(s1, x * 4);
    surf1Dwrite(old + 1, s1, x * 4);
    float2 pair = surf1Dread<float2>(s1, x * 8);
    surf1Dwrite(make_float2(pair.y, pair.x), s1, x * 8);
  }
  surf3Dwrite(make_float4(v, left, up, 1.f), s3, x * 16, y, 0);
  float4 t = surf3Dread<float4>(s3, x * 16, y, 1);
  surf2DLayeredwrite(t.x + t.y, sl, x * 4, y, 2);
  short sv = surf2DLayeredread<short>(sl, x * 2, y, 1);
  surf2Dwrite<short>(sv, s2, x * 2, y);
  int sw;
  asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s2));
  if (sw < 0) surf1Dwrite(sw, s1, 0);
}
