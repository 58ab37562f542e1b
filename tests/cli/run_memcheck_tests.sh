#!/usr/bin/env bash
# `ptxsim run --memcheck`: a program whose kernel reads past the end of its
# input (threads 60-63 of 64 read in[i + 4]). strict (the default) fails
# with cudaErrorIllegalAddress; report runs it to the end with those reads
# returning zeros, and stderr has one report for the one bad instruction,
# naming its first bad access, the same with 1 and 4 host threads.
# Usage: run_memcheck_tests.sh PTXSIM WORK_DIR
set -uo pipefail
ptxsim=$1
work=$2
mkdir -p "$work"
source "$(dirname "$0")/check_support.sh" run_memcheck_tests

cat >"$work/read_past.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
constexpr int kCount = 64;
__global__ void sumPairs(const int* in, int* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[i] = in[i] + in[i + 4];
}
int main() {
  int h[kCount];
  for (int i = 0; i < kCount; ++i) h[i] = 10 * i;
  int *in, *sums;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&sums, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sumPairs<<<2, 32>>>(in, sums);
  cudaError_t sync = cudaDeviceSynchronize();
  int got[kCount] = {};
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  // What the kernel gives when reads past the input return zeros.
  int mismatches = 0;
  for (int i = 0; i < kCount; ++i) mismatches += got[i] != h[i] + (i + 4 < kCount ? h[i + 4] : 0);
  std::printf("synchronize: %s, %d mismatches\n", cudaGetErrorName(sync), mismatches);
  return sync == cudaSuccess ? 0 : 1;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/read_past" "$work/read_past.cu" || exit 1

out=$("$ptxsim" run --threads 1 -- "$work/read_past" 2>"$work/strict.err")
status=$?
check "strict: the program fails" [ "$status" -eq 1 ]
check "strict: it sees the fault" grep -q "^synchronize: cudaErrorIllegalAddress" <<<"$out"
check "strict: stderr names the bad read" grep -q \
  "ptxsim: error: invalid global read of 4 bytes at 0x[0-9a-f]* (0 bytes after the end of the 256-byte allocation" \
  "$work/strict.err"

for threads in 1 4; do
  out=$("$ptxsim" run --memcheck=report --threads $threads -- "$work/read_past" 2>"$work/report$threads.err")
  status=$?
  check "report ($threads threads): the program succeeds" [ "$status" -eq 0 ]
  check "report ($threads threads): bad reads gave zeros" [ "$out" = "synchronize: cudaSuccess, 0 mismatches" ]
done
check "report: one line, for the one bad instruction" [ "$(grep -c '^ptxsim: memcheck:' "$work/report1.err")" -eq 1 ]
check "report: its first bad access" grep -q \
  "^ptxsim: memcheck: invalid global read of 4 bytes at 0x[0-9a-f]* (0 bytes after the end of the 256-byte allocation at 0x[0-9a-f]*) in kernel _Z8sumPairsPKiPi, block (1,0,0), thread (28,0,0), PTX line [0-9]*; the read returned zeros$" \
  "$work/report1.err"
same_reports() {  # two files without a report must not count as the same
  grep -q '^ptxsim: memcheck:' "$work/report1.err" && cmp -s "$work/report1.err" "$work/report4.err"
}
check "report: the same with 4 host threads" same_reports

err=$("$ptxsim" run --memcheck=loose -- "$work/read_past" 2>&1)
check "an unknown mode is refused" [ $? -ne 0 ]
check "the refusal names the option" grep -q -- "--memcheck" <<<"$err"

if [ "$failures" -ne 0 ]; then
  echo "run_memcheck_tests: $failures failed; the program's stderr:" >&2
  cat "$work/strict.err" "$work/report1.err" "$work/report4.err" >&2
  exit 1
fi
