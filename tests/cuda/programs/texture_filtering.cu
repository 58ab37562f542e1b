// Linear filtering where the texture unit's weights are least obvious: 3D
// textures blending along two and three axes (float and 8-bit normalized,
// clamp, wrap, mirror and border), 1D textures whose x and y address modes
// differ (a 1D texture is filtered as 2D of height 1), cubemaps and layered
// cubemaps (inside faces, on their edges and corners), and trilinear
// mipmapping (linear filter with a linear mipmap filter, explicit level of
// detail and axis-aligned gradients). Each result is printed as %.6f and as its bits in hex.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "texel_print.h"

constexpr int kPoints = 32;

struct Points {
  float x[kPoints], y[kPoints], z[kPoints], lod[kPoints];
  int layer[kPoints];
};

enum Fetch { k1D, k1DLayered, k3D, kCube, kCubeLayered, k2DLod, k2DGrad };

__global__ void sample(cudaTextureObject_t tex, Fetch f, Points p, float4* out) {
  const int i = threadIdx.x;
  float4 v;
  switch (f) {
    case k1D: v = tex1D<float4>(tex, p.x[i]); break;
    case k1DLayered: v = tex1DLayered<float4>(tex, p.x[i], p.layer[i]); break;
    case k3D: v = tex3D<float4>(tex, p.x[i], p.y[i], p.z[i]); break;
    case kCube: v = texCubemap<float4>(tex, p.x[i], p.y[i], p.z[i]); break;
    case kCubeLayered: v = texCubemapLayered<float4>(tex, p.x[i], p.y[i], p.z[i], p.layer[i]); break;
    case k2DLod: v = tex2DLod<float4>(tex, p.x[i], p.y[i], p.lod[i]); break;
    default:
      // Axis-aligned gradients (the level of detail of oblique ones is only approximated, see
      // sim/src/texture/lod.h).
      v = tex2DGrad<float4>(tex, p.x[i], p.y[i], make_float2(p.lod[i], 0.f), make_float2(0.f, p.z[i]));
      break;
  }
  out[i] = v;
}

int run(const char* title, cudaTextureObject_t tex, Fetch f, const Points& p, int channels) {
  float4* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(float4) * kPoints));
  sample<<<1, kPoints>>>(tex, f, p, d);
  CHECK(cudaGetLastError());
  std::vector<float4> h(kPoints);
  CHECK(cudaMemcpy(h.data(), d, sizeof(float4) * kPoints, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  printTexels(title, h, kPoints, channels);
  return 0;
}

cudaTextureObject_t makeTexture(const cudaResourceDesc& res, cudaTextureAddressMode mode, bool normalized,
                                cudaTextureReadMode read, cudaTextureFilterMode mipFilter = cudaFilterModePoint,
                                cudaTextureAddressMode yMode = cudaAddressModeClamp, bool ownYMode = false) {
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = mode;
  if (ownYMode) desc.addressMode[1] = yMode;
  desc.filterMode = cudaFilterModeLinear;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  desc.borderColor[0] = -0.5f;
  desc.borderColor[1] = 0.25f;
  desc.borderColor[2] = 0.75f;
  desc.borderColor[3] = 1.0f;
  desc.mipmapFilterMode = mipFilter;
  desc.maxMipmapLevelClamp = 8.f;
  cudaTextureObject_t tex = 0;
  if (cudaCreateTextureObject(&tex, &res, &desc, nullptr) != cudaSuccess) return 0;
  return tex;
}

cudaResourceDesc arrayResource(cudaArray_t array) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  return res;
}

template <class T>
int upload3D(const std::vector<T>& texels, int w, int h, int d, unsigned flags, cudaArray_t* array) {
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<T>();
  CHECK(cudaMalloc3DArray(array, &fmt, make_cudaExtent(w, h, d), flags));
  cudaMemcpy3DParms copy{};
  // A layered 1D array has height 0; its layers are copied as rows of height 1.
  copy.srcPtr = make_cudaPitchedPtr(const_cast<T*>(texels.data()), w * sizeof(T), w, h > 0 ? h : 1);
  copy.dstArray = *array;
  copy.extent = make_cudaExtent(w, h > 0 ? h : 1, d);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  return 0;
}

// Points that blend along two or three axes, inside and outside a w x h x d volume.
Points volumePoints(bool normalized, int w, int h, int d) {
  Points p{};
  for (int i = 0; i < kPoints; ++i) {
    const float x = -0.7f + 0.173f * i, y = 0.3f + 0.211f * (i % 13), z = 2.9f - 0.137f * i;
    p.x[i] = normalized ? x / w : x;
    p.y[i] = normalized ? y / h : y;
    p.z[i] = normalized ? z / d : (i % 4 == 0 ? 1.5f : z);  // every fourth blends along x and y only
  }
  return p;
}

int test3D() {
  const int w = 4, h = 3, d = 3;
  std::vector<float> texels(w * h * d);
  for (int i = 0; i < w * h * d; ++i) texels[i] = 0.37f * i * i - 5.f * i + 0.0625f * (i % 3);
  std::vector<uchar4> bytes(w * h * d);
  for (int i = 0; i < w * h * d; ++i)
    bytes[i] = make_uchar4(i * 7, 255 - i * 5, (i * 97) % 256, i % 2 ? 255 : 3);
  cudaArray_t floats = nullptr, uchars = nullptr;
  if (upload3D(texels, w, h, d, 0, &floats) || upload3D(bytes, w, h, d, 0, &uchars)) return 1;
  const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeWrap, cudaAddressModeMirror,
                                          cudaAddressModeBorder};
  const char* names[] = {"clamp", "wrap", "mirror", "border"};
  for (int m = 0; m < 4; ++m) {
    for (int normalized = 0; normalized < 2; ++normalized) {
      // wrap and mirror need normalized coordinates
      if ((modes[m] == cudaAddressModeWrap || modes[m] == cudaAddressModeMirror) && !normalized) continue;
      char title[96];
      std::snprintf(title, sizeof title, "3D float %s %s linear", normalized ? "normalized" : "unnormalized", names[m]);
      cudaTextureObject_t tex = makeTexture(arrayResource(floats), modes[m], normalized, cudaReadModeElementType);
      if (run(title, tex, k3D, volumePoints(normalized, w, h, d), 1)) return 1;
      CHECK(cudaDestroyTextureObject(tex));
      std::snprintf(title, sizeof title, "3D uchar4 normalized-float %s %s linear",
                    normalized ? "normalized" : "unnormalized", names[m]);
      tex = makeTexture(arrayResource(uchars), modes[m], normalized, cudaReadModeNormalizedFloat);
      if (run(title, tex, k3D, volumePoints(normalized, w, h, d), 4)) return 1;
      CHECK(cudaDestroyTextureObject(tex));
    }
  }
  CHECK(cudaFreeArray(floats));
  CHECK(cudaFreeArray(uchars));
  return 0;
}

// 1D textures whose y address mode differs from x's, linear: does the border
// blend of a 1D texture (filtered as 2D of height 1 at y = 0) follow x's mode or y's?
int test1DAddressModes() {
  const float texels[4] = {1.5f, -2.25f, 3.125f, 10.f};
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr, layered = nullptr;
  CHECK(cudaMallocArray(&array, &fmt, 4));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, texels, sizeof texels, sizeof texels, 1, cudaMemcpyHostToDevice));
  std::vector<float> layers(8);
  for (int i = 0; i < 8; ++i) layers[i] = texels[i % 4] * (i < 4 ? 1.f : -3.f);
  if (upload3D(layers, 4, 0, 2, cudaArrayLayered, &layered)) return 1;
  Points p{};
  for (int i = 0; i < kPoints; ++i) {
    p.x[i] = -1.3f + 0.21f * i;
    p.layer[i] = i % 2;
  }
  Points q = p;
  for (int i = 0; i < kPoints; ++i) q.x[i] = p.x[i] / 4;
  const struct {
    cudaTextureAddressMode x, y;
    const char* name;
  } pairs[] = {{cudaAddressModeBorder, cudaAddressModeClamp, "x border, y clamp"},
               {cudaAddressModeClamp, cudaAddressModeBorder, "x clamp, y border"},
               {cudaAddressModeBorder, cudaAddressModeWrap, "x border, y wrap"},
               {cudaAddressModeWrap, cudaAddressModeBorder, "x wrap, y border"}};
  for (const auto& m : pairs) {
    for (int normalized = 0; normalized < 2; ++normalized) {
      char title[96];
      std::snprintf(title, sizeof title, "1D float %s %s linear", normalized ? "normalized" : "unnormalized", m.name);
      cudaTextureObject_t tex = makeTexture(arrayResource(array), m.x, normalized, cudaReadModeElementType,
                                            cudaFilterModePoint, m.y, true);
      if (run(title, tex, k1D, normalized ? q : p, 1)) return 1;
      CHECK(cudaDestroyTextureObject(tex));
    }
    char title[96];
    std::snprintf(title, sizeof title, "1D layered float unnormalized %s linear", m.name);
    cudaTextureObject_t tex = makeTexture(arrayResource(layered), m.x, false, cudaReadModeElementType,
                                          cudaFilterModePoint, m.y, true);
    if (run(title, tex, k1DLayered, p, 1)) return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeArray(array));
  CHECK(cudaFreeArray(layered));
  return 0;
}

// Directions inside faces, across edges and at corners of the cube.
Points cubeDirections() {
  const float dirs[kPoints][3] = {
      {1, 0.3f, -0.2f},     {-1, -0.6f, 0.45f},  {0.1f, 1, 0.7f},      {-0.9f, -1, 0.2f},
      {0.33f, 0.2f, 1},     {-0.4f, 0.8f, -1},   {1, 0.99f, 0.1f},     {1, 1, 0.5f},
      {1, 1, 1},            {-1, -1, -1},        {0.98f, -1, 0.97f},   {1, -0.9f, -0.995f},
      {0.5f, 0.5f, -0.5f},  {1, 0.874f, 0.126f}, {-1, 0.126f, -0.874f}, {0.2f, -1, 0.999f},
      {1.5f, 0.7f, -1.4f},  {-2, -0.7f, 1.5f},   {0.001f, 1, -0.001f}, {0.625f, 1, -0.375f},
      {1, 0.125f, 0.875f},  {-0.875f, 0.875f, -1}, {0.75f, -0.75f, 1},  {-1, 0.25f, 0.25f},
      {0.3f, 0.9f, 0.95f},  {0.95f, 0.3f, 0.9f}, {0.9f, 0.95f, 0.3f},  {-0.95f, -0.9f, 0.3f},
      {0.12f, -0.34f, 1},   {1, -0.12f, 0.34f},  {-0.34f, 1, 0.12f},   {0.6f, -0.6f, -0.61f},
  };
  Points p{};
  for (int i = 0; i < kPoints; ++i) {
    p.x[i] = dirs[i][0];
    p.y[i] = dirs[i][1];
    p.z[i] = dirs[i][2];
    p.layer[i] = i % 2;
  }
  return p;
}

int testCubemap() {
  // Face f, texel (s, t), layer L: 1000L + 100f + 10t + s; a ushort2 copy in the low bits.
  const int w = 4;
  std::vector<float> texels(2 * 6 * w * w);
  std::vector<ushort2> shorts(texels.size());
  for (size_t i = 0; i < texels.size(); ++i) {
    const int s = i % w, t = (i / w) % w, f = (i / (w * w)) % 6, layer = static_cast<int>(i / (6 * w * w));
    texels[i] = 1000.f * layer + 100.f * f + 10.f * t + s;
    shorts[i] = make_ushort2(static_cast<unsigned short>(i * 1297u % 65536u), static_cast<unsigned short>(65535 - i * 301));
  }
  cudaArray_t cube = nullptr, layered = nullptr, shortCube = nullptr;
  std::vector<float> face0(texels.begin(), texels.begin() + 6 * w * w);
  if (upload3D(face0, w, w, 6, cudaArrayCubemap, &cube) ||
      upload3D(texels, w, w, 12, cudaArrayCubemap | cudaArrayLayered, &layered) ||
      upload3D(shorts, w, w, 12, cudaArrayCubemap | cudaArrayLayered, &shortCube))
    return 1;
  const Points p = cubeDirections();
  cudaTextureObject_t tex = makeTexture(arrayResource(cube), cudaAddressModeClamp, true, cudaReadModeElementType);
  if (run("cubemap float linear", tex, kCube, p, 1)) return 1;
  CHECK(cudaDestroyTextureObject(tex));
  tex = makeTexture(arrayResource(layered), cudaAddressModeClamp, true, cudaReadModeElementType);
  if (run("layered cubemap float linear", tex, kCubeLayered, p, 1)) return 1;
  CHECK(cudaDestroyTextureObject(tex));
  tex = makeTexture(arrayResource(shortCube), cudaAddressModeClamp, true, cudaReadModeNormalizedFloat);
  if (run("layered cubemap ushort2 normalized-float linear", tex, kCubeLayered, p, 2)) return 1;
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(cube));
  CHECK(cudaFreeArray(layered));
  CHECK(cudaFreeArray(shortCube));
  return 0;
}

template <class T, class Fill>
int mipmapped(int width, int levels, Fill fill, cudaMipmappedArray_t* mm) {
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<T>();
  CHECK(cudaMallocMipmappedArray(mm, &fmt, make_cudaExtent(width, width, 0), levels));
  for (int l = 0; l < levels; ++l) {
    cudaArray_t level = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&level, *mm, l));
    const int s = width >> l;
    std::vector<T> v(s * s);
    for (int y = 0; y < s; ++y)
      for (int x = 0; x < s; ++x) v[y * s + x] = fill(l, x, y);
    CHECK(cudaMemcpy2DToArray(level, 0, 0, v.data(), s * sizeof(T), s * sizeof(T), s, cudaMemcpyHostToDevice));
  }
  return 0;
}

int testTrilinear() {
  cudaMipmappedArray_t floats = nullptr, uchars = nullptr;
  auto fillFloat = [](int l, int x, int y) { return 100.f * l + 10.f * y + x + 0.03125f * ((x * 7 + y * 3) % 5); };
  auto fillUchar = [](int l, int x, int y) {
    return make_uchar4(40 * l + 13 * x + 5 * y, 255 - 60 * l - 9 * y, (x * 31 + y * 17 + l * 71) % 256, 128);
  };
  if (mipmapped<float>(16, 5, fillFloat, &floats) || mipmapped<uchar4>(16, 5, fillUchar, &uchars)) return 1;
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeMipmappedArray;
  Points p{};
  for (int i = 0; i < kPoints; ++i) {
    p.x[i] = 0.03f + 0.0297f * i;
    p.y[i] = 0.91f - 0.0251f * i;
    p.lod[i] = -0.3f + 0.1537f * i;  // from below level 0 to past the last level
    p.z[i] = 0.04f * (i % 5);        // dPdy.y of the gradient fetches
  }
  Points g = p;
  for (int i = 0; i < kPoints; ++i) g.lod[i] = 0.04f + 0.009f * i;  // dPdx: levels 0 to 3
  for (cudaTextureAddressMode m : {cudaAddressModeClamp, cudaAddressModeWrap}) {
    const char* mode = m == cudaAddressModeClamp ? "clamp" : "wrap";
    char title[96];
    res.res.mipmap.mipmap = floats;
    cudaTextureObject_t tex = makeTexture(res, m, true, cudaReadModeElementType, cudaFilterModeLinear);
    std::snprintf(title, sizeof title, "mipmapped float %s trilinear, level of detail", mode);
    if (run(title, tex, k2DLod, p, 1)) return 1;
    std::snprintf(title, sizeof title, "mipmapped float %s trilinear, gradients", mode);
    if (run(title, tex, k2DGrad, g, 1)) return 1;
    CHECK(cudaDestroyTextureObject(tex));
    res.res.mipmap.mipmap = uchars;
    tex = makeTexture(res, m, true, cudaReadModeNormalizedFloat, cudaFilterModeLinear);
    std::snprintf(title, sizeof title, "mipmapped uchar4 normalized-float %s trilinear, level of detail", mode);
    if (run(title, tex, k2DLod, p, 4)) return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeMipmappedArray(floats));
  CHECK(cudaFreeMipmappedArray(uchars));
  return 0;
}

int main() {
  if (test3D() || test1DAddressModes() || testCubemap() || testTrilinear()) return 1;
  std::printf("done\n");
  return 0;
}
