// Texture objects over CUDA arrays: every addressing mode with point and
// linear filtering, normalized and unnormalized coordinates, element-type and
// normalized-float reads, on 1D, 2D, 3D and layered arrays. Each result is
// printed as %.6f and as its bits in hex.
// Linear filtering of 3D textures along several axes, of cubemaps and between
// mipmap levels is in texture_filtering.cu.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "texel_print.h"

constexpr int kMaxPoints = 32;

struct Points {
  int count;
  float x[kMaxPoints], y[kMaxPoints], z[kMaxPoints];
  int layer[kMaxPoints];
};

enum Geometry { k1D, k2D, k3D, k1DLayered, k2DLayered };

__global__ void sampleFloat(cudaTextureObject_t tex, Geometry g, Points p, float4* out) {
  int i = threadIdx.x;
  if (i >= p.count) return;
  float4 v;
  switch (g) {
    case k1D: v = tex1D<float4>(tex, p.x[i]); break;
    case k2D: v = tex2D<float4>(tex, p.x[i], p.y[i]); break;
    case k3D: v = tex3D<float4>(tex, p.x[i], p.y[i], p.z[i]); break;
    case k1DLayered: v = tex1DLayered<float4>(tex, p.x[i], p.layer[i]); break;
    default: v = tex2DLayered<float4>(tex, p.x[i], p.y[i], p.layer[i]); break;
  }
  out[i] = v;
}

__global__ void sampleInt(cudaTextureObject_t tex, Points p, int4* out) {
  int i = threadIdx.x;
  if (i < p.count) out[i] = tex2D<int4>(tex, p.x[i], p.y[i]);
}

const char* modeName(cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeWrap: return "wrap";
    case cudaAddressModeClamp: return "clamp";
    case cudaAddressModeMirror: return "mirror";
    default: return "border";
  }
}

cudaTextureObject_t makeTexture(cudaArray_t array, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                bool normalized, cudaTextureReadMode read) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  desc.borderColor[0] = -0.5f;
  desc.borderColor[1] = 0.25f;
  desc.borderColor[2] = 0.75f;
  desc.borderColor[3] = 1.0f;
  cudaTextureObject_t tex = 0;
  if (cudaCreateTextureObject(&tex, &res, &desc, nullptr) != cudaSuccess) return 0;
  return tex;
}

// Samples `tex` at the points and prints `channels` channels per point.
int run(const char* title, cudaTextureObject_t tex, Geometry g, const Points& p, int channels) {
  float4* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(float4) * kMaxPoints));
  sampleFloat<<<1, kMaxPoints>>>(tex, g, p, d);
  CHECK(cudaGetLastError());
  std::vector<float4> h(kMaxPoints);
  CHECK(cudaMemcpy(h.data(), d, sizeof(float4) * kMaxPoints, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  printTexels(title, h, p.count, channels);
  return 0;
}

Points line1D(bool normalized, int width) {
  // Inside, on texel edges and centres, and outside on both sides.
  const float u[] = {-2.3f, -0.6f, -0.2f, 0.f, 0.3f, 0.5f, 0.8f, 1.f, 1.25f, 2.6f, 3.5f, 4.7f, 5.f, 5.4f, 6.9f, 11.2f};
  Points p{};
  p.count = 16;
  for (int i = 0; i < p.count; ++i) p.x[i] = normalized ? u[i] / width : u[i];
  return p;
}

int test1D() {
  const float texels[5] = {1.5f, -2.25f, 3.125f, 0.5f, 10.f};
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &fmt, 5));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, texels, sizeof(texels), sizeof(texels), 1, cudaMemcpyHostToDevice));
  const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                          cudaAddressModeBorder};
  for (int normalized = 0; normalized < 2; ++normalized) {
    for (cudaTextureAddressMode m : modes) {
      for (int linear = 0; linear < 2; ++linear) {
        cudaTextureObject_t tex = makeTexture(array, m, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                              normalized, cudaReadModeElementType);
        if (tex == 0) {
          std::printf("cudaCreateTextureObject failed\n");
          return 1;
        }
        char title[96];
        std::snprintf(title, sizeof title, "1D float %s %s %s", normalized ? "normalized" : "unnormalized",
                      modeName(m), linear ? "linear" : "point");
        if (run(title, tex, k1D, line1D(normalized, 5), 1)) return 1;
        CHECK(cudaDestroyTextureObject(tex));
      }
    }
  }
  CHECK(cudaFreeArray(array));
  return 0;
}

Points grid2D(bool normalized, int width, int height) {
  const float xs[] = {-1.3f, 0.2f, 0.5f, 1.1f, 1.5f, 2.7f, 3.9f, 4.6f};
  const float ys[] = {-0.4f, 0.5f, 1.3f, 2.8f};
  Points p{};
  p.count = 32;
  for (int i = 0; i < 32; ++i) {
    p.x[i] = normalized ? xs[i % 8] / width : xs[i % 8];
    p.y[i] = normalized ? ys[i / 8] / height : ys[i / 8];
  }
  return p;
}

// uchar4 texels read as normalized floats, every mode and filter; and as
// integers (element type, point only).
int test2D() {
  const int w = 4, h = 3;
  std::vector<uchar4> texels(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      texels[y * w + x] = make_uchar4(x * 70 + y * 9, 255 - x * 40 - y * 50, (x * 37 + y * 101) % 256, 17 * (x + y));
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &fmt, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, texels.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                          cudaAddressModeBorder};
  for (int normalized = 0; normalized < 2; ++normalized) {
    for (cudaTextureAddressMode m : modes) {
      for (int linear = 0; linear < 2; ++linear) {
        cudaTextureObject_t tex = makeTexture(array, m, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                              normalized, cudaReadModeNormalizedFloat);
        if (tex == 0) {
          std::printf("cudaCreateTextureObject failed\n");
          return 1;
        }
        char title[96];
        std::snprintf(title, sizeof title, "2D uchar4 normalized-float %s %s %s",
                      normalized ? "normalized" : "unnormalized", modeName(m), linear ? "linear" : "point");
        if (run(title, tex, k2D, grid2D(normalized, w, h), 4)) return 1;
        CHECK(cudaDestroyTextureObject(tex));
      }
    }
  }
  // Element-type reads of the same texels: integers.
  for (cudaTextureAddressMode m : {cudaAddressModeClamp}) {
    cudaTextureObject_t tex = makeTexture(array, m, cudaFilterModePoint, false, cudaReadModeElementType);
    int4* d = nullptr;
    CHECK(cudaMalloc(&d, sizeof(int4) * kMaxPoints));
    Points p = grid2D(false, w, h);
    sampleInt<<<1, kMaxPoints>>>(tex, p, d);
    CHECK(cudaGetLastError());
    std::vector<int4> out(kMaxPoints);
    CHECK(cudaMemcpy(out.data(), d, sizeof(int4) * kMaxPoints, cudaMemcpyDeviceToHost));
    std::printf("2D uchar4 element-type unnormalized %s point\n", modeName(m));
    for (int i = 0; i < p.count; ++i) std::printf("  %2d: %d %d %d %d\n", i, out[i].x, out[i].y, out[i].z, out[i].w);
    CHECK(cudaFree(d));
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeArray(array));
  return 0;
}

// Signed 16-bit pairs read as normalized floats (negative values), linear.
int test2DSigned() {
  const int w = 3, h = 2;
  const short2 texels[w * h] = {{-32768, 32767}, {-100, 200}, {12345, -23456},
                                {0, -1},         {30000, 5},  {-32767, 16384}};
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<short2>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &fmt, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, texels, w * sizeof(short2), w * sizeof(short2), h,
                            cudaMemcpyHostToDevice));
  for (int linear = 0; linear < 2; ++linear) {
    cudaTextureObject_t tex = makeTexture(array, cudaAddressModeClamp,
                                          linear ? cudaFilterModeLinear : cudaFilterModePoint, false,
                                          cudaReadModeNormalizedFloat);
    if (run(linear ? "2D short2 normalized-float clamp linear" : "2D short2 normalized-float clamp point", tex,
            k2D, grid2D(false, w, h), 4))
      return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeArray(array));
  return 0;
}

int test3D() {
  const int w = 3, h = 3, d = 2;
  std::vector<float> texels(w * h * d);
  for (int i = 0; i < w * h * d; ++i) texels[i] = 0.25f * i * i - 3.f * i + 0.125f;
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK(cudaMalloc3DArray(&array, &fmt, make_cudaExtent(w, h, d)));
  cudaMemcpy3DParms copy{};
  copy.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float), w, h);
  copy.dstArray = array;
  copy.extent = make_cudaExtent(w, h, d);
  copy.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&copy));
  // Unnormalized points that blend along one axis at a time (the simulator
  // refuses 3D linear filtering that blends along two or more: the H100
  // quantizes those corner weights in a way it does not model).
  Points p{};
  const float steps[] = {-0.3f, 0.5f, 0.8f, 1.1f, 1.5f, 1.77f, 2.2f, 3.4f};
  p.count = 32;
  for (int i = 0; i < 32; ++i) {
    const float t = steps[i % 8];
    const float c[] = {0.5f, 1.5f, 2.5f, 1.5f};
    const int axis = i / 8 == 3 ? 2 : i / 8;  // x, y, z, then z again at another texel
    p.x[i] = axis == 0 ? t : c[i / 8];
    p.y[i] = axis == 1 ? t : c[(i / 8 + 1) % 4];
    p.z[i] = axis == 2 ? t * (2.f / 3.f) : (i / 8 == 0 ? 1.5f : 0.5f);
  }
  for (int linear = 0; linear < 2; ++linear) {
    cudaTextureObject_t tex = makeTexture(array, cudaAddressModeClamp,
                                          linear ? cudaFilterModeLinear : cudaFilterModePoint, false,
                                          cudaReadModeElementType);
    if (run(linear ? "3D float unnormalized clamp linear" : "3D float unnormalized clamp point", tex, k3D, p, 1))
      return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  // Normalized wrap and border, point sampled.
  Points q{};
  q.count = 16;
  for (int i = 0; i < 16; ++i) {
    q.x[i] = (i * 0.37f - 1.1f) / w;
    q.y[i] = (i * 0.61f - 2.f) / h;
    q.z[i] = (i * 0.29f - 0.7f) / d;
  }
  for (cudaTextureAddressMode m : {cudaAddressModeWrap, cudaAddressModeBorder}) {
    cudaTextureObject_t tex = makeTexture(array, m, cudaFilterModePoint, true, cudaReadModeElementType);
    char title[64];
    std::snprintf(title, sizeof title, "3D float normalized %s point", modeName(m));
    if (run(title, tex, k3D, q, 1)) return 1;
    CHECK(cudaDestroyTextureObject(tex));
  }
  CHECK(cudaFreeArray(array));
  return 0;
}

int testLayered() {
  // 1D layered: 4 texels, 3 layers; layers are selected, never filtered.
  {
    const int w = 4, layers = 3;
    float texels[w * layers];
    for (int i = 0; i < w * layers; ++i) texels[i] = 1.f + i * 0.75f + (i % 2) * 4.f;
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
    cudaArray_t array = nullptr;
    CHECK(cudaMalloc3DArray(&array, &fmt, make_cudaExtent(w, 0, layers), cudaArrayLayered));
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(texels, w * sizeof(float), w, 1);
    copy.dstArray = array;
    copy.extent = make_cudaExtent(w, 1, layers);
    copy.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&copy));
    Points p{};
    p.count = 24;
    for (int i = 0; i < 24; ++i) {
      p.x[i] = (i % 8) * 0.6f - 0.4f;
      p.layer[i] = i / 8;
    }
    for (int linear = 0; linear < 2; ++linear) {
      cudaTextureObject_t tex = makeTexture(array, cudaAddressModeClamp,
                                            linear ? cudaFilterModeLinear : cudaFilterModePoint, false,
                                            cudaReadModeElementType);
      if (run(linear ? "1D layered float clamp linear" : "1D layered float clamp point", tex, k1DLayered, p, 1))
        return 1;
      CHECK(cudaDestroyTextureObject(tex));
    }
    CHECK(cudaFreeArray(array));
  }
  // 2D layered ushort read as normalized floats, 3x2 texels, 2 layers.
  {
    const int w = 3, h = 2, layers = 2;
    unsigned short texels[w * h * layers];
    for (int i = 0; i < w * h * layers; ++i) texels[i] = static_cast<unsigned short>((i * 7919u) % 65536u);
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t array = nullptr;
    CHECK(cudaMalloc3DArray(&array, &fmt, make_cudaExtent(w, h, layers), cudaArrayLayered));
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(texels, w * sizeof(unsigned short), w, h);
    copy.dstArray = array;
    copy.extent = make_cudaExtent(w, h, layers);
    copy.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&copy));
    Points p{};
    p.count = 16;
    for (int i = 0; i < 16; ++i) {
      p.x[i] = ((i % 4) * 0.45f + 0.1f) / w;
      p.y[i] = ((i / 4 % 2) * 0.8f + 0.35f) / h;
      p.layer[i] = i / 8;
    }
    for (cudaTextureAddressMode m : {cudaAddressModeWrap, cudaAddressModeMirror}) {
      cudaTextureObject_t tex = makeTexture(array, m, cudaFilterModeLinear, true, cudaReadModeNormalizedFloat);
      char title[80];
      std::snprintf(title, sizeof title, "2D layered ushort normalized-float normalized %s linear", modeName(m));
      if (run(title, tex, k2DLayered, p, 1)) return 1;
      CHECK(cudaDestroyTextureObject(tex));
    }
    CHECK(cudaFreeArray(array));
  }
  return 0;
}

int main() {
  if (test1D() || test2D() || test2DSigned() || test3D() || testLayered()) return 1;
  std::printf("done\n");
  return 0;
}
