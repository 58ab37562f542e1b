// Hardware probe for texture sampling details, run once on an H100; its output is texture_probe_h100.txt.
// The unit tests in ../texture_sampling_test.cpp quote values from it. Build: nvcc -arch=sm_90 -O2.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("ERR %s line %d: %s\n", #x, __LINE__, cudaGetErrorString(err_)); } } while (0)

static unsigned fb(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

__global__ void k1(cudaTextureObject_t t, const float* xs, float4* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<float4>(t, xs[i]); }
__global__ void k1f(cudaTextureObject_t t, const float* xs, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1D<float>(t, xs[i]); }
__global__ void k1fetch(cudaTextureObject_t t, const int* xs, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex1Dfetch<float>(t, xs[i]); }
__global__ void k2(cudaTextureObject_t t, const float* xs, const float* ys, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2D<float>(t, xs[i], ys[i]); }
__global__ void k3(cudaTextureObject_t t, const float* xs, const float* ys, const float* zs, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex3D<float>(t, xs[i], ys[i], zs[i]); }
__global__ void kg(cudaTextureObject_t t, const float* xs, const float* ys, float4* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2Dgather<float4>(t, xs[i], ys[i], 0); }
__global__ void klod(cudaTextureObject_t t, const float* xs, const float* ys, const float* ls, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DLod<float>(t, xs[i], ys[i], ls[i]); }
__global__ void kgrad(cudaTextureObject_t t, const float* xs, const float* ys, const float* ls, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DGrad<float>(t, xs[i], ys[i], make_float2(ls[i], 0.f), make_float2(0.f, ls[i])); }
__global__ void kgrad2(cudaTextureObject_t t, const float* xs, const float* ys, const float* ls, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = tex2DGrad<float>(t, xs[i], ys[i], make_float2(ls[i], ls[i]*0.5f), make_float2(0.25f*ls[i], 0.f)); }
__global__ void kc(cudaTextureObject_t t, const float* xs, const float* ys, const float* zs, float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = texCubemap<float>(t, xs[i], ys[i], zs[i]); }

template <class T> T* dev(const std::vector<T>& v) { T* p; CK(cudaMalloc(&p, v.size() * sizeof(T) + 16)); CK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); return p; }

cudaTextureObject_t mk(cudaArray_t a, cudaTextureFilterMode f, cudaTextureAddressMode am, bool norm, cudaTextureReadMode rm, int srgb = 0, float border = 0.f) {
  cudaResourceDesc r{}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaTextureDesc d{}; for (int i = 0; i < 3; ++i) d.addressMode[i] = am; d.filterMode = f; d.readMode = rm; d.normalizedCoords = norm; d.sRGB = srgb;
  for (int i = 0; i < 4; ++i) d.borderColor[i] = border;
  cudaTextureObject_t t = 0; CK(cudaCreateTextureObject(&t, &r, &d, nullptr)); return t;
}
template <class T> cudaArray_t arr1(const std::vector<T>& v, cudaChannelFormatDesc cd) {
  cudaArray_t a; CK(cudaMallocArray(&a, &cd, v.size(), 0)); CK(cudaMemcpy2DToArray(a, 0, 0, v.data(), v.size() * sizeof(T), v.size() * sizeof(T), 1, cudaMemcpyHostToDevice)); return a;
}
template <class T> cudaArray_t arr2(const std::vector<T>& v, int w, int h, cudaChannelFormatDesc cd) {
  cudaArray_t a; CK(cudaMallocArray(&a, &cd, w, h)); CK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * sizeof(T), w * sizeof(T), h, cudaMemcpyHostToDevice)); return a;
}
std::vector<float> run1(cudaTextureObject_t t, const std::vector<float>& xs) {
  int n = xs.size(); float* dx = dev(xs); float* o; CK(cudaMalloc(&o, n * 4)); k1f<<<(n + 127) / 128, 128>>>(t, dx, o, n); CK(cudaDeviceSynchronize());
  std::vector<float> r(n); CK(cudaMemcpy(r.data(), o, n * 4, cudaMemcpyDeviceToHost)); cudaFree(dx); cudaFree(o); return r;
}
std::vector<float> run2(cudaTextureObject_t t, const std::vector<float>& xs, const std::vector<float>& ys) {
  int n = xs.size(); float* dx = dev(xs); float* dy = dev(ys); float* o; CK(cudaMalloc(&o, n * 4)); k2<<<(n + 127) / 128, 128>>>(t, dx, dy, o, n); CK(cudaDeviceSynchronize());
  std::vector<float> r(n); CK(cudaMemcpy(r.data(), o, n * 4, cudaMemcpyDeviceToHost)); return r;
}
template <class K> std::vector<float> run3(K k, cudaTextureObject_t t, const std::vector<float>& xs, const std::vector<float>& ys, const std::vector<float>& zs) {
  int n = xs.size(); float* dx = dev(xs); float* dy = dev(ys); float* dz = dev(zs); float* o; CK(cudaMalloc(&o, n * 4)); k<<<(n + 127) / 128, 128>>>(t, dx, dy, dz, o, n); CK(cudaDeviceSynchronize());
  std::vector<float> r(n); CK(cudaMemcpy(r.data(), o, n * 4, cudaMemcpyDeviceToHost)); return r;
}
void show(const char* tag, const std::vector<float>& xs, const std::vector<float>& r) { for (size_t i = 0; i < r.size(); ++i) printf("%s %.9g %08x %.9g\n", tag, xs[i], fb(r[i]), r[i]); }

int main() {
  auto cf = cudaCreateChannelDesc<float>();
  // A: weight quantisation, T = {0, 1}, x = 0.5 + k/4096
  { cudaArray_t a = arr1(std::vector<float>{0.f, 1.f}, cf); auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType);
    std::vector<float> xs; for (int k = 0; k <= 4096; ++k) xs.push_back(0.5f + k / 4096.f); auto r = run1(t, xs);
    float prev = -1; for (size_t i = 0; i < r.size(); ++i) if (r[i] != prev) { printf("A %d %.9g %.9g\n", (int)i, xs[i], r[i] * 256); prev = r[i]; }
    // fine: around 1/512 boundaries
    xs.clear(); for (int k = 0; k < 64; ++k) xs.push_back(0.5f + 1.f/512 + (k - 32) * (1.f / 65536)); r = run1(t, xs);
    for (size_t i = 0; i < r.size(); ++i) printf("A2 %.9g %.9g\n", xs[i], r[i] * 256);
    // negative side / clamp
    xs.clear(); for (int k = 0; k < 16; ++k) xs.push_back(-0.5f + k * 0.1f); r = run1(t, xs); show("A3", xs, r); }
  // B: large coordinates, T[i] = i, width 4096
  { std::vector<float> v(4096); for (int i = 0; i < 4096; ++i) v[i] = i; cudaArray_t a = arr1(v, cf); auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType);
    std::vector<float> xs; for (int k = 0; k < 40; ++k) xs.push_back(3000.5f + k * 0.0009765625f * 0.37f); auto r = run1(t, xs); show("B", xs, r);
    auto tn = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, true, cudaReadModeElementType);
    xs.clear(); for (int k = 0; k < 40; ++k) xs.push_back(0.7f + k * 1e-6f); r = run1(tn, xs); show("Bn", xs, r); }
  // C: normalized non-power-of-two, width 3, T = {0, 1, 2}
  { cudaArray_t a = arr1(std::vector<float>{0.f, 1.f, 2.f}, cf);
    auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, true, cudaReadModeElementType);
    std::vector<float> xs; for (int k = 0; k <= 60; ++k) xs.push_back(k / 60.f); auto r = run1(t, xs); show("C", xs, r);
    auto tp = mk(a, cudaFilterModePoint, cudaAddressModeClamp, true, cudaReadModeElementType);
    xs.clear(); for (int k = 0; k <= 30; ++k) xs.push_back(1.f / 3 + (k - 15) * 1e-8f); r = run1(tp, xs); show("Cp", xs, r); }
  // D: lerp arithmetic on float pairs
  { float pairs[][2] = {{0.1f, 0.7f}, {1.0f, 1.00000012f}, {-3.3f, 5.5f}, {1e30f, -3e30f}, {3.4e38f, 3.4e38f}, {1e-40f, 3e-40f}, {0.3f, 0.30000001f}, {7.f, -1.f / 3}};
    for (auto& p : pairs) { cudaArray_t a = arr1(std::vector<float>{p[0], p[1]}, cf); auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType);
      std::vector<float> xs; for (int m = 0; m <= 256; m += 1) xs.push_back(0.5f + m / 256.f); auto r = run1(t, xs);
      printf("D %08x %08x", fb(p[0]), fb(p[1])); for (auto v : r) printf(" %08x", fb(v)); printf("\n"); } }
  // E: bilinear 2x2
  { std::vector<float> v = {0.1f, 0.7f, -0.3f, 0.9f}; cudaArray_t a = arr2(v, 2, 2, cf); auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType);
    std::vector<float> xs, ys; for (int i = 0; i <= 256; i += 16) for (int j = 0; j <= 256; j += 16) { xs.push_back(0.5f + i / 256.f); ys.push_back(0.5f + j / 256.f); }
    auto r = run2(t, xs, ys); for (size_t i = 0; i < r.size(); ++i) printf("E %d %d %08x\n", (int)((xs[i] - 0.5f) * 256), (int)((ys[i] - 0.5f) * 256), fb(r[i])); }
  // F: 8/16-bit normalized float, linear
  { auto cu = cudaCreateChannelDesc<unsigned char>(); cudaArray_t a = arr1(std::vector<unsigned char>{3, 200}, cu);
    auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    std::vector<float> xs; for (int m = 0; m <= 256; ++m) xs.push_back(0.5f + m / 256.f); auto r = run1(t, xs);
    printf("Fu8"); for (auto v : r) printf(" %08x", fb(v)); printf("\n");
    auto cs = cudaCreateChannelDesc<signed char>(); cudaArray_t b = arr1(std::vector<signed char>{-128, 127}, cs);
    t = mk(b, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat); r = run1(t, xs);
    printf("Fs8"); for (auto v : r) printf(" %08x", fb(v)); printf("\n");
    auto cus = cudaCreateChannelDesc<unsigned short>(); cudaArray_t c = arr1(std::vector<unsigned short>{1000, 60001}, cus);
    t = mk(c, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat); r = run1(t, xs);
    printf("Fu16"); for (auto v : r) printf(" %08x", fb(v)); printf("\n");
    auto css = cudaCreateChannelDesc<short>(); cudaArray_t d = arr1(std::vector<short>{-32768, 12345}, css);
    t = mk(d, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat); r = run1(t, xs);
    printf("Fs16"); for (auto v : r) printf(" %08x", fb(v)); printf("\n");
    auto ch = cudaCreateChannelDescHalf(); unsigned short hv[2] = {0x3c00, 0x4248};  // 1.0, 3.140625
    cudaArray_t h = arr1(std::vector<unsigned short>{hv[0], hv[1]}, ch);
    t = mk(h, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType); r = run1(t, xs);
    printf("Fh"); for (auto v : r) printf(" %08x", fb(v)); printf("\n"); }
  // G: point-sampled conversions, all 256 / selected 16-bit values
  { std::vector<unsigned char> v(256); for (int i = 0; i < 256; ++i) v[i] = i; std::vector<float> xs; for (int i = 0; i < 256; ++i) xs.push_back(i + 0.5f);
    cudaArray_t a = arr1(v, cudaCreateChannelDesc<unsigned char>());
    auto r = run1(mk(a, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat), xs); printf("Gu8"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    r = run1(mk(a, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat, 1), xs); printf("Gsrgb"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    r = run1(mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat, 1), std::vector<float>{1.0f, 1.25f, 100.75f, 200.3f}); printf("Gsrgblin"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    cudaArray_t b = arr1(v, cudaCreateChannelDesc<signed char>());
    r = run1(mk(b, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat), xs); printf("Gs8"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    r = run1(mk(b, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat, 1), xs); printf("Gs8srgb"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    std::vector<unsigned short> w = {0, 1, 2, 3, 100, 12345, 32767, 32768, 32769, 65534, 65535}; std::vector<float> xw; for (size_t i = 0; i < w.size(); ++i) xw.push_back(i + 0.5f);
    cudaArray_t c = arr1(w, cudaCreateChannelDesc<unsigned short>());
    r = run1(mk(c, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat), xw); printf("Gu16"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    cudaArray_t d = arr1(w, cudaCreateChannelDesc<short>());
    r = run1(mk(d, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat), xw); printf("Gs16"); for (auto x : r) printf(" %08x", fb(x)); printf("\n");
    // uchar4 srgb alpha
    std::vector<uchar4> q = {make_uchar4(10, 100, 200, 128)}; cudaArray_t e; auto c4 = cudaCreateChannelDesc<uchar4>(); CK(cudaMallocArray(&e, &c4, 1, 0)); CK(cudaMemcpy2DToArray(e, 0, 0, q.data(), 4, 4, 1, cudaMemcpyHostToDevice));
    auto te = mk(e, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat, 1); float* dx = dev(std::vector<float>{0.5f}); float4* o4; CK(cudaMalloc(&o4, 16));
    k1<<<1, 1>>>(te, dx, o4, 1); float4 h4; CK(cudaMemcpy(&h4, o4, 16, cudaMemcpyDeviceToHost)); printf("Gsrgb4 %08x %08x %08x %08x\n", fb(h4.x), fb(h4.y), fb(h4.z), fb(h4.w)); }
  // J: address modes
  { std::vector<float> v = {0, 1, 2, 3, 4}; cudaArray_t a = arr1(v, cf);
    cudaTextureAddressMode ms[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
    std::vector<float> xn; for (int k = -50; k <= 50; ++k) xn.push_back(k * 0.05f - 0.013f);
    std::vector<float> xu; for (int k = -12; k <= 30; ++k) xu.push_back(k * 0.25f - 0.01f);
    for (int m = 0; m < 4; ++m) for (int f = 0; f < 2; ++f) {
      auto t = mk(a, f ? cudaFilterModeLinear : cudaFilterModePoint, ms[m], true, cudaReadModeElementType, 0, -7.f);
      auto r = run1(t, xn); printf("Jn m%d f%d", m, f); for (auto x : r) printf(" %.6g", x); printf("\n");
      t = mk(a, f ? cudaFilterModeLinear : cudaFilterModePoint, ms[m], false, cudaReadModeElementType, 0, -7.f);
      r = run1(t, xu); printf("Ju m%d f%d", m, f); for (auto x : r) printf(" %.6g", x); printf("\n"); }
    // exact edges normalized
    std::vector<float> xe = {0.f, -0.f, 1.f, -1.f, 2.f, 0.2f, 0.4f, 0.6f, 0.8f, 0.99999994f, 1.00000012f, -0.99999994f, 1e-9f, -1e-9f, 1e20f, -1e20f};
    for (int m = 0; m < 4; ++m) for (int f = 0; f < 2; ++f) { auto t = mk(a, f ? cudaFilterModeLinear : cudaFilterModePoint, ms[m], true, cudaReadModeElementType, 0, -7.f);
      auto r = run1(t, xe); printf("Je m%d f%d", m, f); for (auto x : r) printf(" %.6g", x); printf("\n"); } }
  // K: gather order
  { std::vector<float> v(16); for (int y = 0; y < 4; ++y) for (int x = 0; x < 4; ++x) v[y * 4 + x] = 10 * y + x; cudaArray_t a = arr2(v, 4, 4, cf);
    auto t = mk(a, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeElementType);
    std::vector<float> xs = {1.3f, 1.7f, 0.2f, 3.9f, 2.0f, 2.5f}, ys = {2.7f, 1.2f, 0.1f, 3.9f, 2.0f, 2.5f}; int n = xs.size();
    float* dx = dev(xs); float* dy = dev(ys); float4* o; CK(cudaMalloc(&o, n * 16)); kg<<<1, 32>>>(t, dx, dy, o, n); std::vector<float4> r(n); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(r.data(), o, n * 16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) printf("K %g %g -> %g %g %g %g\n", xs[i], ys[i], r[i].x, r[i].y, r[i].z, r[i].w); }
  // L: mipmaps, 8x8 -> 4 levels, level L texel = 100L + 10y + x
  { cudaMipmappedArray_t mm; auto cd = cf; CK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(8, 8, 0), 4));
    for (int L = 0; L < 4; ++L) { cudaArray_t lv; CK(cudaGetMipmappedArrayLevel(&lv, mm, L)); int s = 8 >> L; std::vector<float> v(s * s); for (int y = 0; y < s; ++y) for (int x = 0; x < s; ++x) v[y * s + x] = 100 * L + 10 * y + x;
      CK(cudaMemcpy2DToArray(lv, 0, 0, v.data(), s * 4, s * 4, s, cudaMemcpyHostToDevice)); }
    std::vector<float> ls = {-1.f, 0.f, 0.2f, 0.49f, 0.5f, 0.51f, 0.7f, 1.f, 1.3f, 1.5f, 2.5f, 2.99f, 3.f, 3.5f, 10.f, 1.0039f, 1.002f, 1.1f, 1.26f};
    std::vector<float> xs(ls.size(), 0.3f), ys(ls.size(), 0.6f);
    for (int mf = 0; mf < 2; ++mf) for (int f = 0; f < 2; ++f) for (int bias = 0; bias < 2; ++bias) {
      cudaResourceDesc r{}; r.resType = cudaResourceTypeMipmappedArray; r.res.mipmap.mipmap = mm; cudaTextureDesc d{}; for (int i = 0; i < 3; ++i) d.addressMode[i] = cudaAddressModeClamp;
      d.filterMode = f ? cudaFilterModeLinear : cudaFilterModePoint; d.mipmapFilterMode = mf ? cudaFilterModeLinear : cudaFilterModePoint; d.normalizedCoords = 1; d.readMode = cudaReadModeElementType; d.maxMipmapLevelClamp = bias ? 2.2f : 3.f; d.minMipmapLevelClamp = bias ? 0.4f : 0.f; d.mipmapLevelBias = bias ? 0.25f : 0.f;
      cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &r, &d, nullptr));
      auto o = run3(klod, t, xs, ys, ls); printf("L mf%d f%d b%d", mf, f, bias); for (auto x : o) printf(" %.7g", x); printf("\n");
      std::vector<float> gs = {0.f, 0.0625f, 0.125f, 0.13f, 0.17f, 0.2f, 0.25f, 0.3f, 0.5f, 1.f, 2.f, 0.14865f};
      std::vector<float> gx(gs.size(), 0.3f), gy(gs.size(), 0.6f);
      o = run3(kgrad, t, gx, gy, gs); printf("LG mf%d f%d b%d", mf, f, bias); for (auto x : o) printf(" %.7g", x); printf("\n");
      o = run3(kgrad2, t, gx, gy, gs); printf("LG2 mf%d f%d b%d", mf, f, bias); for (auto x : o) printf(" %.7g", x); printf("\n"); } }
  // M: cubemap, width 4, face f texel = 100f + 10t + s
  { cudaArray_t a; auto cd = cf; CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(4, 4, 6), cudaArrayCubemap)); std::vector<float> v(96);
    for (int f = 0; f < 6; ++f) for (int t = 0; t < 4; ++t) for (int s = 0; s < 4; ++s) v[f * 16 + t * 4 + s] = 100 * f + 10 * t + s;
    cudaMemcpy3DParms p{}; p.srcPtr = make_cudaPitchedPtr(v.data(), 16, 4, 4); p.dstArray = a; p.extent = make_cudaExtent(4, 4, 6); p.kind = cudaMemcpyHostToDevice; CK(cudaMemcpy3D(&p));
    std::vector<float> xs = {1, -1, 0.3f, 0.3f, 0.3f, 0.3f, 1, 1, -1, 1, 0.5f, 0.5f, 0, 0.999f, 2, -2}, ys = {0.3f, 0.3f, 1, -1, -0.2f, -0.2f, 1, 1, 1, -1, 0.5f, -0.5f, 0, 0.2f, 0.5f, -0.7f}, zs = {-0.2f, -0.2f, -0.2f, -0.2f, 1, -1, 0, 1, 1, -1, -0.5f, 0.5f, 0, 0.3f, -1.9f, 1.5f};
    for (int f = 0; f < 2; ++f) { auto t = mk(a, f ? cudaFilterModeLinear : cudaFilterModePoint, cudaAddressModeClamp, true, cudaReadModeElementType);
      auto o = run3(kc, t, xs, ys, zs); printf("M f%d", f); for (auto x : o) printf(" %.7g", x); printf("\n"); } }
  // N: 3D trilinear 2x2x2
  { cudaArray_t a; auto cd = cf; CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(2, 2, 2), 0)); std::vector<float> v = {0.1f, 0.7f, -0.3f, 0.9f, 1.3f, -2.1f, 0.55f, 3.3f};
    cudaMemcpy3DParms p{}; p.srcPtr = make_cudaPitchedPtr(v.data(), 8, 2, 2); p.dstArray = a; p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice; CK(cudaMemcpy3D(&p));
    auto t = mk(a, cudaFilterModeLinear, cudaAddressModeClamp, false, cudaReadModeElementType);
    std::vector<float> xs, ys, zs; for (int i = 0; i <= 256; i += 64) for (int j = 0; j <= 256; j += 32) for (int k = 0; k <= 256; k += 48) { xs.push_back(0.5f + i / 256.f); ys.push_back(0.5f + j / 256.f); zs.push_back(0.5f + k / 256.f); }
    auto o = run3(k3, t, xs, ys, zs); for (size_t i = 0; i < o.size(); ++i) printf("N %d %d %d %08x\n", (int)((xs[i] - 0.5f) * 256), (int)((ys[i] - 0.5f) * 256), (int)((zs[i] - 0.5f) * 256), fb(o[i])); }
  // O: tex1Dfetch linear memory out of range
  { std::vector<float> v = {1, 2, 3, 4}; float* dv = dev(v); cudaResourceDesc r{}; r.resType = cudaResourceTypeLinear; r.res.linear.devPtr = dv; r.res.linear.desc = cf; r.res.linear.sizeInBytes = 16;
    for (int m = 0; m < 4; ++m) { cudaTextureDesc d{}; d.addressMode[0] = (cudaTextureAddressMode)m; d.readMode = cudaReadModeElementType; d.borderColor[0] = -7; cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &r, &d, nullptr));
      std::vector<int> xs = {-5, -1, 0, 3, 4, 5, 100, 1 << 30}; int* dx = dev(xs); float* o; CK(cudaMalloc(&o, 64)); k1fetch<<<1, 32>>>(t, dx, o, xs.size()); std::vector<float> res(xs.size()); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(res.data(), o, xs.size() * 4, cudaMemcpyDeviceToHost));
      printf("O m%d", m); for (auto x : res) printf(" %g", x); printf("\n"); } }
  return 0;
}
