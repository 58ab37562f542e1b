// Hardware probe for the texture filter weights the first probe (texture_probe.cu) could not pin
// down, run once on an H100; its output is texture_weights_probe_h100.txt, which
// ../texture_sampling_test.cpp and the fits in sim/src/texture/sampling.cpp quote.
// Build: nvcc -arch=sm_90 -O2 -o probe texture_weights_probe.cu
//
// One-hot textures read each corner's weight directly: a float4 texel that is 1 in one channel and
// 0 elsewhere returns, in that channel, the weight the filter gave that texel (exact in float).
//  W3  3D linear: the eight corner weights of a 2x2x2 texture at x, y, z = 0.5 + w/256.
//  WT  trilinear (linear filter, linear mip filter): the four level-0 corner weights and the level-1
//      weight of a 2x2 -> 1x1 mipmapped texture at level of detail `lod`.
//  V3, VT, VC  arbitrary texel values at pseudo-random points (3D, trilinear, cubemap linear), to
//      check the rounding of the weighted sum once the weights are known.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "probe_util.h"


// Deterministic pseudo-random numbers (the same on every run and machine).
struct Lcg {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(s >> 33);
  }
  float unit() { return (next() & 0xffffff) / 16777216.f; }  // [0, 1)
};

__global__ void fetch3(cudaTextureObject_t t, const float4* p, float4* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3D<float4>(t, p[i].x, p[i].y, p[i].z);
}
__global__ void fetchLod(cudaTextureObject_t t, const float4* p, float4* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float4>(t, p[i].x, p[i].y, p[i].z);
}
__global__ void fetchCube(cudaTextureObject_t t, const float4* p, float4* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemapLayered<float4>(t, p[i].x, p[i].y, p[i].z, static_cast<int>(p[i].w));
}

// Runs kernel k over the points; returns the fetched texels.
template <class K>
static int run(K k, cudaTextureObject_t t, const std::vector<float4>& pts, std::vector<float4>& out) {
  const int n = static_cast<int>(pts.size());
  float4 *dp, *dout;
  CK(cudaMalloc(&dp, n * sizeof(float4)));
  CK(cudaMalloc(&dout, n * sizeof(float4)));
  CK(cudaMemcpy(dp, pts.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  k<<<(n + 127) / 128, 128>>>(t, dp, dout, n);
  CK(cudaDeviceSynchronize());
  out.resize(n);
  CK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
  CK(cudaFree(dp));
  CK(cudaFree(dout));
  return 0;
}

static cudaTextureObject_t texture(const cudaResourceDesc& r, bool normalized, bool mipLinear = false) {
  cudaTextureDesc d{};
  for (auto& m : d.addressMode) m = cudaAddressModeClamp;
  d.filterMode = cudaFilterModeLinear;
  d.readMode = cudaReadModeElementType;
  d.normalizedCoords = normalized;
  d.mipmapFilterMode = mipLinear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.maxMipmapLevelClamp = 16.f;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) printf("ERR texture object\n");
  return t;
}

static int array3d(const std::vector<float4>& texels, int w, int h, int d, unsigned flags, cudaArray_t* a) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  CK(cudaMalloc3DArray(a, &cd, make_cudaExtent(w, h, d), flags));
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<float4*>(texels.data()), w * sizeof(float4), w, h);
  p.dstArray = *a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  return 0;
}

static cudaResourceDesc arrayResource(cudaArray_t a) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

static const int kWeights[] = {0, 1, 2, 3, 7, 16, 31, 32, 33, 64, 77, 100, 127, 128, 129, 160, 191, 200, 230, 254, 255, 256};

static int probe3d() {
  // Texture A: texel n (n < 4) is 1 in channel n; texture B: texel 4 + c is 1 in channel c.
  cudaArray_t a, b;
  std::vector<float4> ta(8, make_float4(0, 0, 0, 0)), tb(8, make_float4(0, 0, 0, 0));
  for (int c = 0; c < 4; ++c) {
    reinterpret_cast<float*>(&ta[c])[c] = 1.f;
    reinterpret_cast<float*>(&tb[4 + c])[c] = 1.f;
  }
  if (array3d(ta, 2, 2, 2, 0, &a) || array3d(tb, 2, 2, 2, 0, &b)) return 1;
  std::vector<float4> pts;
  for (int wx : kWeights)
    for (int wy : kWeights)
      for (int wz : kWeights) pts.push_back(make_float4(0.5f + wx / 256.f, 0.5f + wy / 256.f, 0.5f + wz / 256.f, 0));
  std::vector<float4> ra, rb;
  if (run(fetch3, texture(arrayResource(a), false), pts, ra) || run(fetch3, texture(arrayResource(b), false), pts, rb))
    return 1;
  for (size_t i = 0; i < pts.size(); ++i)
    printf("W3 %d %d %d %08x %08x %08x %08x %08x %08x %08x %08x\n", static_cast<int>((pts[i].x - 0.5f) * 256),
           static_cast<int>((pts[i].y - 0.5f) * 256), static_cast<int>((pts[i].z - 0.5f) * 256), fb(ra[i].x),
           fb(ra[i].y), fb(ra[i].z), fb(ra[i].w), fb(rb[i].x), fb(rb[i].y), fb(rb[i].z), fb(rb[i].w));
  // Arbitrary values on a 3x3x3 texture at random points.
  Lcg rng;
  std::vector<float4> tv(27);
  for (auto& t : tv) {
    const float a = rng.unit() * 8 - 4, b = rng.unit() * 100, c = rng.unit() - 0.5f, d = rng.unit() * 1e-3f;
    t = make_float4(a, b, c, d);
  }
  cudaArray_t c;
  if (array3d(tv, 3, 3, 3, 0, &c)) return 1;
  for (auto& t : tv) printf("V3T %08x %08x %08x %08x\n", fb(t.x), fb(t.y), fb(t.z), fb(t.w));
  pts.clear();
  for (int i = 0; i < 400; ++i) {
    const float x = rng.unit() * 3.4f - 0.2f, y = rng.unit() * 3.4f - 0.2f, z = rng.unit() * 3.4f - 0.2f;
    pts.push_back(make_float4(x, y, z, 0));
  }
  std::vector<float4> rc;
  if (run(fetch3, texture(arrayResource(c), false), pts, rc)) return 1;
  for (size_t i = 0; i < pts.size(); ++i)
    printf("V3 %08x %08x %08x %08x %08x %08x %08x\n", fb(pts[i].x), fb(pts[i].y), fb(pts[i].z), fb(rc[i].x),
           fb(rc[i].y), fb(rc[i].z), fb(rc[i].w));
  return 0;
}

// A mipmapped float4 2D texture whose levels are filled by `fill(level, x, y)`.
template <class Fill>
static int mipmapped(int width, int levels, Fill fill, cudaMipmappedArray_t* mm) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  CK(cudaMallocMipmappedArray(mm, &cd, make_cudaExtent(width, width, 0), levels));
  for (int l = 0; l < levels; ++l) {
    cudaArray_t lv;
    CK(cudaGetMipmappedArrayLevel(&lv, *mm, l));
    const int s = width >> l;
    std::vector<float4> v(s * s);
    for (int y = 0; y < s; ++y)
      for (int x = 0; x < s; ++x) v[y * s + x] = fill(l, x, y);
    CK(cudaMemcpy2DToArray(lv, 0, 0, v.data(), s * sizeof(float4), s * sizeof(float4), s, cudaMemcpyHostToDevice));
  }
  return 0;
}

static cudaResourceDesc mipResource(cudaMipmappedArray_t m) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = m;
  return r;
}

static int probeTrilinear() {
  cudaMipmappedArray_t level0, level1;
  auto oneHot = [](int l, int x, int y) {
    float4 v = make_float4(0, 0, 0, 0);
    if (l == 0) reinterpret_cast<float*>(&v)[x + 2 * y] = 1.f;
    return v;
  };
  auto upper = [](int l, int, int) { return l == 1 ? make_float4(1, 1, 1, 1) : make_float4(0, 0, 0, 0); };
  if (mipmapped(2, 2, oneHot, &level0) || mipmapped(2, 2, upper, &level1)) return 1;
  const int ws[] = {0, 1, 31, 32, 33, 77, 128, 129, 200, 255, 256};
  const float lods[] = {1 / 256.f, 2 / 256.f, 13 / 256.f, 51 / 256.f, 64 / 256.f, 100 / 256.f, 127 / 256.f,
                        128 / 256.f, 129 / 256.f, 200 / 256.f, 255 / 256.f, 0.2f, 0.7f, 0.33f};
  std::vector<float4> pts;
  for (int wx : ws)
    for (int wy : ws)
      for (float lod : lods) pts.push_back(make_float4(0.25f + wx / 512.f, 0.25f + wy / 512.f, lod, 0));
  std::vector<float4> r0, r1;
  if (run(fetchLod, texture(mipResource(level0), true, true), pts, r0) ||
      run(fetchLod, texture(mipResource(level1), true, true), pts, r1))
    return 1;
  for (size_t i = 0; i < pts.size(); ++i)
    printf("WT %d %d %08x %08x %08x %08x %08x %08x\n", static_cast<int>((pts[i].x - 0.25f) * 512),
           static_cast<int>((pts[i].y - 0.25f) * 512), fb(pts[i].z), fb(r0[i].x), fb(r0[i].y), fb(r0[i].z),
           fb(r0[i].w), fb(r1[i].x));
  // Arbitrary values on an 8x8 texture with 4 levels, random points and levels of detail.
  Lcg rng;
  auto arbitrary = [&rng](int, int, int) {
    const float a = rng.unit() * 8 - 4, b = rng.unit() * 100, c = rng.unit();  // drawn in this order
    return make_float4(a, b, c, 0);
  };
  cudaMipmappedArray_t values;
  if (mipmapped(8, 4, arbitrary, &values)) return 1;
  pts.clear();
  for (int i = 0; i < 400; ++i) {
    const float x = rng.unit(), y = rng.unit(), lod = rng.unit() * 3.2f - 0.1f;
    pts.push_back(make_float4(x, y, lod, 0));
  }
  std::vector<float4> rv;
  if (run(fetchLod, texture(mipResource(values), true, true), pts, rv)) return 1;
  // The texels, level by level, as the arbitrary fill produced them, for the checker to rebuild.
  Lcg replay;
  for (int l = 0; l < 4; ++l)
    for (int t = 0; t < (8 >> l) * (8 >> l); ++t) {
      const float a = replay.unit() * 8 - 4, b = replay.unit() * 100, c = replay.unit();
      printf("VTT %d %08x %08x %08x\n", l, fb(a), fb(b), fb(c));
    }
  for (size_t i = 0; i < pts.size(); ++i)
    printf("VT %08x %08x %08x %08x %08x %08x\n", fb(pts[i].x), fb(pts[i].y), fb(pts[i].z), fb(rv[i].x),
           fb(rv[i].y), fb(rv[i].z));
  return 0;
}

static int probeCube() {
  // A layered cubemap (2 layers) of width 4: texel (s, t) of face f, layer L = 1000L + 100f + 10t + s.
  std::vector<float4> v(2 * 6 * 16);
  for (int i = 0; i < 2 * 6 * 16; ++i) {
    const int s = i % 4, t = (i / 4) % 4, f = (i / 16) % 6, layer = i / 96;
    const float x = 1000.f * layer + 100.f * f + 10.f * t + s;
    v[i] = make_float4(x, -0.5f * x, 0.001f * x, 1.f);
  }
  cudaArray_t a;
  if (array3d(v, 4, 4, 12, cudaArrayCubemap | cudaArrayLayered, &a)) return 1;
  Lcg rng;
  std::vector<float4> pts;
  for (int i = 0; i < 400; ++i) {
    // Directions near face edges and corners as well as inside faces.
    float d[3] = {rng.unit() * 2 - 1, rng.unit() * 2 - 1, rng.unit() * 2 - 1};
    const int major = rng.next() % 3;
    d[major] = (d[major] < 0 ? -1.f : 1.f) * (i % 2 ? 1.f : 1.f + rng.unit() * 0.05f);
    pts.push_back(make_float4(d[0], d[1], d[2], static_cast<float>(rng.next() % 2)));
  }
  std::vector<float4> r;
  if (run(fetchCube, texture(arrayResource(a), true), pts, r)) return 1;
  for (size_t i = 0; i < pts.size(); ++i)
    printf("VC %08x %08x %08x %d %08x %08x %08x %08x\n", fb(pts[i].x), fb(pts[i].y), fb(pts[i].z),
           static_cast<int>(pts[i].w), fb(r[i].x), fb(r[i].y), fb(r[i].z), fb(r[i].w));
  return 0;
}

int main() {
  if (probe3d() || probeTrilinear() || probeCube()) return 1;
  return 0;
}
