// Hardware probe for the level of detail the texture unit derives from gradients (tex*Grad), run
// once on an H100; its output is texture_lod_probe_h100.txt, which sim/src/texture/lod.cpp's
// fit and ../texture_sampling_test.cpp quote.  Build: nvcc -arch=sm_90 -O2 -o probe texture_lod_probe.cu
//
// Every level L of the mipmapped textures holds the value L, and they are read with point
// filtering and a linear mipmap filter, so a fetch returns floor(lod) + (8-bit lod fraction)/256:
// the level of detail itself.  Gradients are given in texels (divided by the level-0 size).
//  I   isotropic 2D gradients dPdx = (r, 0), dPdy = (0, r): the hardware's log2, r in [1, 2) densely
//      and sparser in higher octaves;
//  A   2D gradients (a, b), (c, d): how the two vectors' lengths are measured and combined;
//  G1  1D gradients a, c;   G3  3D gradients (a, b, c), (d, e, f);
//  GC  cubemap gradients of the direction (x, y, z) at that direction (64-texel faces).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "probe_util.h"

struct Lcg {
  uint64_t s = 0x2545f4914f6cdd1dull;
  float unit() {  // [0, 1)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>((s >> 40) & 0xffffff) / 16777216.f;
  }
};

struct Grad {
  float dx[3], dy[3];
};

__global__ void lod1(cudaTextureObject_t t, const Grad* g, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DGrad<float>(t, 0.5f, g[i].dx[0], g[i].dy[0]);
}
__global__ void lod2(cudaTextureObject_t t, const Grad* g, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].dx[0], g[i].dx[1]),
                            make_float2(g[i].dy[0], g[i].dy[1]));
}
__global__ void lod3(cudaTextureObject_t t, const Grad* g, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(g[i].dx[0], g[i].dx[1], g[i].dx[2], 0.f),
                            make_float4(g[i].dy[0], g[i].dy[1], g[i].dy[2], 0.f));
}

__global__ void lodCube(cudaTextureObject_t t, const float4* dir, const Grad* g, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = texCubemapGrad<float>(t, dir[i].x, dir[i].y, dir[i].z,
                                 make_float4(g[i].dx[0], g[i].dx[1], g[i].dx[2], 0.f),
                                 make_float4(g[i].dy[0], g[i].dy[1], g[i].dy[2], 0.f));
}

// A mipmapped float texture of `dims` dimensions (a cubemap: 2 with 6 faces), `size` texels a side,
// whose level L holds L.
static int levelTexture(int dims, int size, int levels, cudaTextureObject_t* tex, bool cubemap = false) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mm;
  auto depthAt = [&](int s) { return cubemap ? 6 : (dims > 2 ? s : 1); };
  const cudaExtent e = make_cudaExtent(size, dims > 1 ? size : 0, cubemap ? 6 : (dims > 2 ? size : 0));
  CK(cudaMallocMipmappedArray(&mm, &cd, e, levels, cubemap ? cudaArrayCubemap : 0));
  for (int l = 0; l < levels; ++l) {
    cudaArray_t lv;
    CK(cudaGetMipmappedArrayLevel(&lv, mm, l));
    const int s = size >> l;
    const size_t count = static_cast<size_t>(s) * (dims > 1 ? s : 1) * depthAt(s);
    std::vector<float> v(count, static_cast<float>(l));
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(v.data(), s * sizeof(float), s, dims > 1 ? s : 1);
    p.dstArray = lv;
    p.extent = make_cudaExtent(s, dims > 1 ? s : 1, depthAt(s));
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
  }
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = mm;
  cudaTextureDesc d{};
  for (auto& m : d.addressMode) m = cudaAddressModeClamp;
  d.filterMode = cudaFilterModePoint;
  d.mipmapFilterMode = cudaFilterModeLinear;
  d.normalizedCoords = 1;
  d.maxMipmapLevelClamp = 16.f;
  CK(cudaCreateTextureObject(tex, &r, &d, nullptr));
  return 0;
}

template <class K>
static int run(K kernel, cudaTextureObject_t t, const char* tag, int size, const std::vector<Grad>& texels) {
  // Gradients arrive in texels; the texture takes them normalized.
  std::vector<Grad> g = texels;
  for (auto& x : g)
    for (int k = 0; k < 3; ++k) {
      x.dx[k] /= size;
      x.dy[k] /= size;
    }
  const int n = static_cast<int>(g.size());
  Grad* dg;
  float* dout;
  CK(cudaMalloc(&dg, n * sizeof(Grad)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  CK(cudaMemcpy(dg, g.data(), n * sizeof(Grad), cudaMemcpyHostToDevice));
  kernel<<<(n + 127) / 128, 128>>>(t, dg, dout, n);
  CK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  CK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    printf("%s %08x %08x %08x %08x %08x %08x %08x\n", tag, fb(g[i].dx[0]), fb(g[i].dx[1]), fb(g[i].dx[2]),
           fb(g[i].dy[0]), fb(g[i].dy[1]), fb(g[i].dy[2]), fb(out[i]));
  CK(cudaFree(dg));
  CK(cudaFree(dout));
  return 0;
}

// Cubemap gradients: a mipmapped cubemap of 64-texel faces whose level L holds L, at directions
// inside faces and near their edges, with gradients of the direction (unscaled: they are not texels).
static int probeCube(Lcg& rng) {
  cudaTextureObject_t t;
  if (levelTexture(2, 64, 7, &t, true)) return 1;
  const int n = 1500;
  std::vector<float4> dirs(n);
  std::vector<Grad> g(n);
  for (int i = 0; i < n; ++i) {
    float dir[3] = {rng.unit() * 2 - 1, rng.unit() * 2 - 1, rng.unit() * 2 - 1};
    const int major = i % 3;
    dir[major] = (i % 6 < 3 ? 1.f : -1.f) * (0.5f + rng.unit());
    dirs[i] = make_float4(dir[0], dir[1], dir[2], 0.f);
    const float scale = 0.002f + 0.2f * rng.unit();
    for (int c = 0; c < 3; ++c) {
      const float a = rng.unit() * 2 - 1, b = rng.unit() * 2 - 1;
      g[i].dx[c] = scale * a;
      g[i].dy[c] = scale * b;
    }
  }
  float4* dd;
  Grad* dg;
  float* dout;
  CK(cudaMalloc(&dd, n * sizeof(float4)));
  CK(cudaMalloc(&dg, n * sizeof(Grad)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  CK(cudaMemcpy(dd, dirs.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dg, g.data(), n * sizeof(Grad), cudaMemcpyHostToDevice));
  lodCube<<<(n + 127) / 128, 128>>>(t, dd, dg, dout, n);
  CK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  CK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    printf("GC %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n", fb(dirs[i].x), fb(dirs[i].y),
           fb(dirs[i].z), fb(g[i].dx[0]), fb(g[i].dx[1]), fb(g[i].dx[2]), fb(g[i].dy[0]), fb(g[i].dy[1]),
           fb(g[i].dy[2]), fb(out[i]));
  return 0;
}

int main() {
  cudaTextureObject_t t1, t2, t3;
  if (levelTexture(1, 256, 9, &t1) || levelTexture(2, 256, 9, &t2) || levelTexture(3, 64, 7, &t3)) return 1;
  std::vector<Grad> iso;
  for (int k = 0; k < 8192; ++k) {
    const float r = 1.f + k / 8192.f;
    iso.push_back({{r, 0, 0}, {0, r, 0}});
  }
  for (int octave = 1; octave < 8; ++octave)
    for (int k = 0; k < 512; ++k) {
      const float r = static_cast<float>(1 << octave) * (1.f + k / 512.f);
      iso.push_back({{r, 0, 0}, {0, r, 0}});
    }
  if (run(lod2, t2, "I", 256, iso)) return 1;
  Lcg rng;
  std::vector<Grad> aniso;
  for (int k = 0; k <= 256; ++k) {  // one vector at angles, the other zero; then both on the axes
    const float t = k / 256.f;
    aniso.push_back({{1.5f, 1.5f * t, 0}, {0, 0, 0}});
    aniso.push_back({{0, 0, 0}, {1.5f * t, 1.5f, 0}});
    aniso.push_back({{1.5f, 0, 0}, {0, 1.5f * t, 0}});
    aniso.push_back({{1.5f * t, 0, 0}, {0, 1.5f, 0}});
  }
  for (int k = 0; k < 3000; ++k) {
    const float s = 1.f + 15.f * rng.unit();
    const float a = rng.unit() * 2 - 1, b = rng.unit() * 2 - 1, c = rng.unit() * 2 - 1,
                d = rng.unit() * 2 - 1;
    aniso.push_back({{s * a, s * b, 0}, {s * c, s * d, 0}});
  }
  if (run(lod2, t2, "A", 256, aniso)) return 1;
  std::vector<Grad> g1;
  for (int k = 0; k < 1000; ++k) {
    const float s = 1.f + 15.f * rng.unit();
    const float a = rng.unit() * 2 - 1, c = rng.unit() * 2 - 1;
    g1.push_back({{s * a, 0, 0}, {s * c, 0, 0}});
  }
  if (run(lod1, t1, "G1", 256, g1)) return 1;
  std::vector<Grad> g3;
  for (int k = 0; k < 2000; ++k) {
    const float s = 1.f + 7.f * rng.unit();
    Grad g;
    for (int c = 0; c < 3; ++c) {
      g.dx[c] = s * (rng.unit() * 2 - 1);
      g.dy[c] = s * (rng.unit() * 2 - 1);
    }
    g3.push_back(g);
  }
  if (run(lod3, t3, "G3", 64, g3)) return 1;
  return probeCube(rng);
}
