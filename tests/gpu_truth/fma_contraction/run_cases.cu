// Runs every kernel of cases.ptx (built by ptxas into a cubin) on the GPU and
// prints, for each kernel and lane, the inputs it read and the outputs it
// wrote as hexadecimal bit patterns: the ground truth of
// tests/sim/fma_contraction_test.cpp. Lanes 0-15 get random operands; lanes
// 16-31 get operands that cancel (c = -(a*b) rounded, d*e close to -(a*b)),
// where a fused and an unfused multiply-add give different bits.
// Usage: run_cases CASES_PTX CASES_CUBIN
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kLanes = 32;
constexpr int kInputs = 8;
constexpr int kOutputs = 4;

#define DRIVER(call)                                                               \
  do {                                                                             \
    CUresult r_ = (call);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                      \
      const char* name_ = nullptr;                                                 \
      cuGetErrorName(r_, &name_);                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, name_ ? name_ : "?");         \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

uint64_t state = 0x853c49e6748fea9bULL;
double uniform() {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return double(state >> 11) / double(1ULL << 53);
}
double randomOperand() {
  double magnitude = std::ldexp(1.0 + uniform(), int(uniform() * 4) - 2);  // [0.25, 8)
  return uniform() < 0.5 ? -magnitude : magnitude;
}

// One element of a type, as bits, and its value.
struct Scalar {
  int bytes;
  uint64_t (*bits)(double);
  double (*value)(uint64_t);
};

uint64_t f32Bits(double v) {
  float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
double f32Value(uint64_t b) {
  uint32_t u = uint32_t(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t f64Bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return u;
}
double f64Value(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t f16Bits(double v) {
  __half h = __float2half_rn(float(v));
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
double f16Value(uint64_t b) {
  uint16_t u = uint16_t(b);
  __half h;
  std::memcpy(&h, &u, 2);
  return __half2float(h);
}
uint64_t bf16Bits(double v) {
  __nv_bfloat16 h = __float2bfloat16_rn(float(v));
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
double bf16Value(uint64_t b) {
  uint16_t u = uint16_t(b);
  __nv_bfloat16 h;
  std::memcpy(&h, &u, 2);
  return __bfloat162float(h);
}

struct TypeInfo {
  const char* name;
  Scalar scalar;
  int halves;  // 2 for the packed types
};

const TypeInfo kTypes[] = {
    {"f32", {4, f32Bits, f32Value}, 1},       {"f64", {8, f64Bits, f64Value}, 1},
    {"f16", {2, f16Bits, f16Value}, 1},       {"bf16", {2, bf16Bits, bf16Value}, 1},
    {"f16x2", {2, f16Bits, f16Value}, 2},     {"bf16x2", {2, bf16Bits, bf16Value}, 2},
};

// Eight operands of one scalar type for one lane (see the file comment).
void laneOperands(const Scalar& s, int lane, uint64_t out[kInputs]) {
  for (int i = 0; i < kInputs; ++i) out[i] = s.bits(randomOperand());
  if (lane < 16) return;
  double a = s.value(out[0]), b = s.value(out[1]);
  out[2] = s.bits(-(a * b));  // exact in double for every type but f64, where it is a*b rounded
  out[3] = s.bits(-a * (1.0 + std::ldexp(1.0, -(3 + lane % 8))));
  out[4] = out[1];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: run_cases CASES_PTX CASES_CUBIN\n");
    return 2;
  }
  std::ifstream ptx(argv[1]);
  std::vector<std::string> names, types;
  std::vector<int> outputs;
  for (std::string line; std::getline(ptx, line);) {
    std::istringstream words(line);
    std::string slashes, keyword, name, type;
    int count = 0;
    if (words >> slashes >> keyword >> name >> type >> count && slashes == "//" && keyword == "kernel") {
      names.push_back(name);
      types.push_back(type);
      outputs.push_back(count);
    }
  }
  DRIVER(cuInit(0));
  CUdevice device;
  DRIVER(cuDeviceGet(&device, 0));
  CUcontext context;
  DRIVER(cuDevicePrimaryCtxRetain(&context, device));
  DRIVER(cuCtxSetCurrent(context));
  CUmodule module;
  DRIVER(cuModuleLoad(&module, argv[2]));
  CUdeviceptr in, out;
  DRIVER(cuMemAlloc(&in, kLanes * kInputs * 8));
  DRIVER(cuMemAlloc(&out, kLanes * kOutputs * 8));
  for (size_t k = 0; k < names.size(); ++k) {
    const TypeInfo* type = nullptr;
    for (const TypeInfo& t : kTypes) {
      if (types[k] == t.name) type = &t;
    }
    if (!type) {
      std::fprintf(stderr, "unknown type %s\n", types[k].c_str());
      return 1;
    }
    int element = type->scalar.bytes * type->halves;
    std::vector<uint64_t> words(kLanes * kInputs, 0);
    for (int lane = 0; lane < kLanes; ++lane) {
      for (int half = 0; half < type->halves; ++half) {
        uint64_t operands[kInputs];
        laneOperands(type->scalar, lane, operands);
        for (int i = 0; i < kInputs; ++i) words[lane * kInputs + i] |= operands[i] << (16 * half);
      }
    }
    std::vector<unsigned char> bytes(kLanes * kInputs * element);
    for (size_t i = 0; i < words.size(); ++i) std::memcpy(&bytes[i * element], &words[i], element);
    DRIVER(cuMemcpyHtoD(in, bytes.data(), bytes.size()));
    DRIVER(cuMemsetD8(out, 0, kLanes * kOutputs * 8));
    CUfunction function;
    DRIVER(cuModuleGetFunction(&function, module, names[k].c_str()));
    void* params[] = {&in, &out};
    DRIVER(cuLaunchKernel(function, 1, 1, 1, kLanes, 1, 1, 0, nullptr, params, nullptr));
    DRIVER(cuCtxSynchronize());
    std::vector<unsigned char> result(kLanes * kOutputs * element);
    DRIVER(cuMemcpyDtoH(result.data(), out, result.size()));
    for (int lane = 0; lane < kLanes; ++lane) {
      std::printf("%s %d in", names[k].c_str(), lane);
      for (int i = 0; i < kInputs; ++i) std::printf(" %0*llx", element * 2, (unsigned long long)words[lane * kInputs + i]);
      std::printf(" out");
      for (int o = 0; o < outputs[k]; ++o) {
        uint64_t word = 0;
        std::memcpy(&word, &result[(lane * kOutputs + o) * element], element);
        std::printf(" %0*llx", element * 2, (unsigned long long)word);
      }
      std::printf("\n");
    }
  }
  return 0;
}
