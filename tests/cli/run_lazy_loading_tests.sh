#!/usr/bin/env bash
# Lazy module loading under `ptxsim run`: a program whose kernel uses an
# instruction the simulator lacks (multimem.ld_reduce) still runs its other
# kernel; the lacking kernel's attribute query and launch fail with
# cudaErrorInvalidPtx (not sticky), and stderr names the instruction. With
# CUDA_MODULE_LOADING=EAGER the whole module fails at its first use, as
# before. The compute cache: a second run reads the module back from
# CUDA_CACHE_PATH and behaves the same; CUDA_CACHE_DISABLE=1 keeps nothing.
# Usage: run_lazy_loading_tests.sh PTXSIM WORK_DIR
set -uo pipefail
ptxsim=$1
work=$2
mkdir -p "$work"
source "$(dirname "$0")/check_support.sh" run_lazy_loading_tests

cat >"$work/lazy.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
// A multimem reduction (NVLink SHARP): an instruction the simulator lacks.
__global__ void reduceMulticast(float* out, const float* p) {
  float d;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];" : "=f"(d) : "l"(p));
  *out = d;
}
__global__ void square(int* v) { v[threadIdx.x] *= v[threadIdx.x]; }
int main() {
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i;
  int* d;
  float* f;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&f, 2 * sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaFuncAttributes attributes;
  std::printf("attributes of reduceMulticast: %s\n",
              cudaGetErrorName(cudaFuncGetAttributes(&attributes, reduceMulticast)));
  reduceMulticast<<<1, 1>>>(f, f + 1);
  std::printf("launch of reduceMulticast: %s\n", cudaGetErrorName(cudaGetLastError()));
  square<<<1, 32>>>(d);
  std::printf("launch of square: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 32; ++i) wrong += h[i] != i * i;
  std::printf("synchronize: %s, %d wrong squares\n", cudaGetErrorName(sync), wrong);
  return 0;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/lazy" "$work/lazy.cu" || exit 1

out=$("$ptxsim" run --threads 1 -- "$work/lazy" 2>"$work/lazy.err")
check "lazy: the program exits 0" [ $? -eq 0 ]
check "lazy: the lacking kernel's attributes fail" grep -qx "attributes of reduceMulticast: cudaErrorInvalidPtx" <<<"$out"
check "lazy: its launch fails" grep -qx "launch of reduceMulticast: cudaErrorInvalidPtx" <<<"$out"
check "lazy: the other kernel launches" grep -qx "launch of square: cudaSuccess" <<<"$out"
# 0..31 squared, checked by the program itself.
check "lazy: and computes the squares" grep -qx "synchronize: cudaSuccess, 0 wrong squares" <<<"$out"
check "lazy: stderr names the kernel and the instruction" grep -q \
  "ptxsim: error: kernel _Z15reduceMulticastPfPKf cannot be loaded: unsupported instruction multimem.ld_reduce.* at PTX line [0-9]*" \
  "$work/lazy.err"

out=$(CUDA_MODULE_LOADING=EAGER "$ptxsim" run --threads 1 -- "$work/lazy" 2>"$work/eager.err")
check "eager: the program exits 0" [ $? -eq 0 ]
check "eager: the module fails at its first use" grep -qx "attributes of reduceMulticast: cudaErrorInvalidPtx" <<<"$out"
check "eager: so does the other kernel" grep -qx "launch of square: cudaErrorInvalidPtx" <<<"$out"
# Only 0 and 1 are their own squares.
check "eager: which never ran" grep -qx "synchronize: cudaSuccess, 30 wrong squares" <<<"$out"
check "eager: stderr names the instruction" grep -q "unsupported instruction multimem.ld_reduce" "$work/eager.err"

rm -rf "$work/cache" "$work/no_cache"
first=$(CUDA_CACHE_PATH="$work/cache" "$ptxsim" run --threads 1 -- "$work/lazy" 2>"$work/cached.err")
entries=$(find "$work/cache/ptxsim" -name '*.ptxir' 2>/dev/null | wc -l)
check "cache: the first run keeps the module" [ "$entries" -eq 1 ]
entry=$(find "$work/cache/ptxsim" -name '*.ptxir' | head -1)
inode=$(stat -c %i "$entry")
second=$(CUDA_CACHE_PATH="$work/cache" "$ptxsim" run --threads 1 -- "$work/lazy" 2>>"$work/cached.err")
# A miss would write the entry anew (a new file renamed into place).
check "cache: the second run reads the entry, not writes it" [ "$(stat -c %i "$entry")" = "$inode" ]
check "cache: the second run reads it and behaves the same" [ "$second" = "$first" ]
check "cache: lazily still" grep -qx "launch of reduceMulticast: cudaErrorInvalidPtx" <<<"$second"
check "cache: the squares still right" grep -qx "synchronize: cudaSuccess, 0 wrong squares" <<<"$second"
CUDA_CACHE_DISABLE=1 CUDA_CACHE_PATH="$work/no_cache" "$ptxsim" run --threads 1 -- "$work/lazy" >/dev/null 2>&1
check "cache: CUDA_CACHE_DISABLE=1 keeps nothing" [ ! -e "$work/no_cache" ]

if [ "$failures" -ne 0 ]; then
  echo "run_lazy_loading_tests: $failures failed; the program's stderr:" >&2
  cat "$work/lazy.err" "$work/eager.err" >&2
  exit 1
fi
