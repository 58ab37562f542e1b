#!/usr/bin/env bash
# `ptxsim run` end to end: the bundled example built with nvcc -cudart
# shared runs and its output, exit status, statistics file and summary are
# right; a statically linked build, a program without the CUDA runtime, a
# missing program, a bad preset and a program's own exit status are
# reported as documented. Usage: run_cli_tests.sh PTXSIM SOURCE_DIR WORK_DIR
set -uo pipefail
ptxsim=$1
src=$2
work=$3
mkdir -p "$work"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
if [ ! -x "$nvcc" ]; then
  echo "run_cli_tests: nvcc is required to build the test programs and was not found" >&2
  exit 1
fi
failures=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}

"$nvcc" -cudart shared -arch=sm_90 -o "$work/vector_add" "$src/examples/vector_add.cu" || exit 1
"$nvcc" -arch=sm_90 -o "$work/vector_add_static" "$src/examples/vector_add.cu" || exit 1
cat >"$work/exit_code.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
__global__ void touch(int* p) { *p = 7; }
int main(int argc, char** argv) {
  int* d;
  cudaMalloc(&d, sizeof(int));
  touch<<<1, 1>>>(d);
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("value %d, %d arguments\n", h, argc - 1);
  return h + argc;  // 7 + 1 + arguments
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/exit_code" "$work/exit_code.cu" || exit 1

out=$("$ptxsim" run --summary --stats "$work/stats.json" -- "$work/vector_add" 2>"$work/stderr")
status=$?
check "example exits 0" [ "$status" -eq 0 ]
check "example output" [ "$out" = "vectorAdd: 1048576 elements, 0 mismatches" ]
check "one stats record" [ "$(wc -l <"$work/stats.json")" -eq 1 ]
check "stats names the kernel" grep -q '"kernel":"_Z9vectorAddPKfS0_Pfi"' "$work/stats.json"
check "stats counts 23068672 thread instructions" grep -q '"smsp__thread_inst_executed.sum":23068672' "$work/stats.json"
check "summary line" grep -q "ptxsim: 1 kernel launch on NVIDIA H100 80GB HBM3: 720896 warp instructions" "$work/stderr"

out=$("$ptxsim" run --threads 1 -- "$work/exit_code" a b 2>&1)
status=$?
check "program's exit status forwarded" [ "$status" -eq 10 ]
check "program's arguments forwarded" [ "$out" = "value 7, 2 arguments" ]

err=$("$ptxsim" run "$work/vector_add_static" 2>&1)
status=$?
check "static cudart refused" [ "$status" -eq 2 ]
check "static cudart message" grep -q "links the CUDA runtime statically (nvcc's default), which ptxsim cannot intercept; rebuild it with -cudart shared" <<<"$err"

err=$("$ptxsim" run /bin/true 2>&1)
check "non-CUDA program refused" grep -q "does not use the CUDA runtime" <<<"$err"
err=$("$ptxsim" run "$work/missing" 2>&1)
check "missing program" grep -q "cannot open the program" <<<"$err"
err=$("$ptxsim" run --config nonesuch "$work/vector_add" 2>&1)
check "unknown preset" grep -q "no GPU preset 'nonesuch'" <<<"$err"
out=$("$ptxsim" run --config h100,sm_count=2 -- "$work/vector_add" 2>&1)
check "preset override runs" [ "$out" = "vectorAdd: 1048576 elements, 0 mismatches" ]

echo "$((14 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
