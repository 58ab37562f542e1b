// The H100's multi-function unit (MUFU) read in full, and the rule that
// extends each table to every input checked over all 2^32 inputs.
//
// Tables (each a result of ex2/lg2/rcp/sqrt/rsqrt.approx.ftz.f32, which
// ptxas compiles to one MUFU instruction on sm_90):
//   ex2_pos[i]   = ex2(i * 2^-23)        i < 2^23
//   ex2_neg[i]   = ex2(-i * 2^-23)
//   lg2_e0[m]    = lg2(1.m)              m < 2^23 (1.m: 1 + m * 2^-23)
//   lg2_em1[m]   = lg2(0.5 * 1.m)
//   rcp[m]       = rcp(1.m)
//   sqrt_e0/e1[m]  = sqrt(1.m), sqrt(2 * 1.m); rsqrt_e0/e1 the same
// Rules checked (sim/src/semantics/mufu_tables.h models them):
//   ex2: |x| = n + f; x >= 0: 2^n * ex2_pos[trunc(f * 2^23)],
//        x < 0: 2^-n * ex2_neg[trunc(f * 2^23)]; flushed below 2^-126
//   lg2: x = 2^e * 1.m: e >= 0: rz(e + lg2_e0[m]), e < 0: rz(e + 1 + lg2_em1[m])
//   rcp, sqrt, rsqrt: the table of the mantissa (and exponent parity),
//        scaled by the exponent.
// Subnormal inputs are checked to act as zero of their sign.
//
// Run on the GPU machine (tests/gpu_truth/mufu_tables.sh); writes its
// findings to stdout and each table, as differences between consecutive
// result bit patterns (int32, little endian), to DIR/NAME.diff.
//
// Usage: mufu_tables_probe DIR
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "exit_on_error.h"

__device__ float ex2(float x) { float r; asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2(float x) { float r; asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rcp(float x) { float r; asm volatile("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float sqt(float x) { float r; asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rsq(float x) { float r; asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

constexpr uint32_t kTable = 1u << 23;
constexpr int kExamples = 6;
enum Table { kEx2Pos, kEx2Neg, kLg2E0, kLg2Em1, kRcp, kSqrtE0, kSqrtE1, kRsqrtE0, kRsqrtE1, kTables };
const char* kTableNames[kTables] = {"ex2_pos", "ex2_neg", "lg2_e0", "lg2_em1", "rcp",
                                    "sqrt_e0", "sqrt_e1", "rsqrt_e0", "rsqrt_e1"};
uint32_t tableSize(int) { return kTable; }

enum Function { kEx2, kLg2, kRcpF, kSqrtF, kRsqrtF, kFunctions };
const char* kFunctionNames[kFunctions] = {"ex2", "lg2", "rcp", "sqrt", "rsqrt"};

struct Findings {
  unsigned long long compared[kFunctions];
  unsigned long long differ[kFunctions];
  unsigned long long differByExponent[kFunctions][256];
  uint32_t example[kFunctions][kExamples][3];  // input, hardware, rule
};

struct Tables {
  const uint32_t* t[kTables];
};

__device__ float at(const Tables& tables, int t, uint32_t i) { return __uint_as_float(tables.t[t][i]); }
__device__ float flush(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }

__global__ void dumpTables(Tables tables) {
  uint32_t** out = const_cast<uint32_t**>(tables.t);
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < kTable; i += gridDim.x * blockDim.x) {
    out[kEx2Neg][i] = __float_as_uint(ex2(-ldexpf(static_cast<float>(i), -23)));
    float one = __uint_as_float(0x3f800000u | i), two = __uint_as_float(0x40000000u | i);
    float half = __uint_as_float(0x3f000000u | i);
    out[kEx2Pos][i] = __float_as_uint(ex2(ldexpf(static_cast<float>(i), -23)));
    out[kLg2E0][i] = __float_as_uint(lg2(one));
    out[kLg2Em1][i] = __float_as_uint(lg2(half));
    out[kRcp][i] = __float_as_uint(rcp(one));
    out[kSqrtE0][i] = __float_as_uint(sqt(one));
    out[kSqrtE1][i] = __float_as_uint(sqt(two));
    out[kRsqrtE0][i] = __float_as_uint(rsq(one));
    out[kRsqrtE1][i] = __float_as_uint(rsq(two));
  }
}

__device__ float ruleEx2(const Tables& tables, float x) {
  if (x >= 128.0f) return INFINITY;
  if (x <= -127.0f) return 0.0f;
  float a = fabsf(x), n = floorf(a), f = a - n;  // exact
  int whole = static_cast<int>(n);
  if (x >= 0) return ldexpf(at(tables, kEx2Pos, static_cast<uint32_t>(ldexpf(f, 23))), whole);
  return flush(ldexpf(at(tables, kEx2Neg, static_cast<uint32_t>(ldexpf(f, 23))), -whole));
}
__device__ float ruleLg2(const Tables& tables, int e, uint32_t m) {
  if (e >= 0) return __double2float_rz(e + static_cast<double>(at(tables, kLg2E0, m)));
  return __double2float_rz(e + 1 + static_cast<double>(at(tables, kLg2Em1, m)));
}

__device__ void compare(Findings* f, int fn, uint32_t input, float hw, float rule) {
  atomicAdd(&f->compared[fn], 1ull);
  if (__float_as_uint(hw) == __float_as_uint(rule)) return;
  unsigned long long n = atomicAdd(&f->differ[fn], 1ull);
  atomicAdd(&f->differByExponent[fn][(input >> 23) & 0xff], 1ull);
  if (n < kExamples) {
    f->example[fn][n][0] = input;
    f->example[fn][n][1] = __float_as_uint(hw);
    f->example[fn][n][2] = __float_as_uint(rule);
  }
}

__global__ void checkAll(Findings* f, Tables tables) {
  uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < (1ull << 32); i += stride) {
    uint32_t bits = static_cast<uint32_t>(i);
    float x = __uint_as_float(bits);
    if (isnan(x) || isinf(x)) continue;
    int biased = (bits >> 23) & 0xff;
    uint32_t m = bits & 0x7fffff;
    bool negative = bits >> 31;
    if (biased == 0) {  // subnormal inputs act as a zero of their sign
      float zero = negative ? -0.0f : 0.0f;
      compare(f, kEx2, bits, ex2(x), ex2(zero));
      compare(f, kLg2, bits, lg2(x), lg2(zero));
      compare(f, kRcpF, bits, rcp(x), rcp(zero));
      compare(f, kSqrtF, bits, sqt(x), sqt(zero));
      compare(f, kRsqrtF, bits, rsq(x), rsq(zero));
      continue;
    }
    int e = biased - 127;
    compare(f, kEx2, bits, ex2(x), ruleEx2(tables, x));
    float r = flush(ldexpf(at(tables, kRcp, m), -e));
    compare(f, kRcpF, bits, rcp(x), negative ? -r : r);
    if (negative) continue;
    compare(f, kLg2, bits, lg2(x), ruleLg2(tables, e, m));
    int odd = e & 1, half = (e - odd) / 2;
    compare(f, kSqrtF, bits, sqt(x), ldexpf(at(tables, odd ? kSqrtE1 : kSqrtE0, m), half));
    compare(f, kRsqrtF, bits, rsq(x), ldexpf(at(tables, odd ? kRsqrtE1 : kRsqrtE0, m), -half));
  }
}

void writeDiff(const std::string& path, const std::vector<uint32_t>& table) {
  std::vector<int32_t> diff(table.size());
  uint32_t previous = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    diff[i] = static_cast<int32_t>(table[i] - previous);
    previous = table[i];
  }
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out || std::fwrite(diff.data(), 4, diff.size(), out) != diff.size()) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(out);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  Tables tables;
  for (int t = 0; t < kTables; ++t) {
    uint32_t* p;
    CHECK(cudaMalloc(&p, tableSize(t) * 4));
    tables.t[t] = p;
  }
  dumpTables<<<4096, 256>>>(tables);
  CHECK(cudaGetLastError());
  Findings* findings;
  CHECK(cudaMallocManaged(&findings, sizeof(Findings)));
  CHECK(cudaMemset(findings, 0, sizeof(Findings)));
  checkAll<<<8192, 256>>>(findings, tables);
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < kTables; ++t) {
    std::vector<uint32_t> host(tableSize(t));
    CHECK(cudaMemcpy(host.data(), tables.t[t], host.size() * 4, cudaMemcpyDeviceToHost));
    writeDiff(dir + "/" + kTableNames[t] + ".diff", host);
  }
  for (int fn = 0; fn < kFunctions; ++fn) {
    std::printf("%s: %llu of %llu inputs differ from the rule\n", kFunctionNames[fn], findings->differ[fn],
                findings->compared[fn]);
    for (unsigned long long k = 0; k < findings->differ[fn] && k < kExamples; ++k)
      std::printf("  input %08x hardware %08x rule %08x\n", findings->example[fn][k][0],
                  findings->example[fn][k][1], findings->example[fn][k][2]);
    for (int b = 0; b < 256; ++b)
      if (findings->differByExponent[fn][b])
        std::printf("  biased exponent %d (either sign): %llu\n", b, findings->differByExponent[fn][b]);
  }
  return 0;
}
