#!/usr/bin/env bash
# Dynamic parallelism under `ptxsim run`: the CDP program
# (tests/cuda/programs/cdp) gives the same output and statistics with 1 and
# 2 host threads, its statistics have one record per grid, those launched
# from the device naming their parent; a program calling a device runtime
# function ptxsim does not provide is refused naming the function.
# Usage: run_cdp_tests.sh PTXSIM SOURCE_DIR WORK_DIR
set -uo pipefail
ptxsim=$1
src=$2
work=$3
mkdir -p "$work"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
failures=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}

"$src/tests/cuda/programs/build_program.sh" "$src/tests/cuda/programs/cdp" "$work/cdp" || exit 1
for threads in 1 2; do
  rm -f "$work/stats$threads.json"  # an earlier run's must not stand in for this one's
  "$ptxsim" run --threads $threads --stats "$work/stats$threads.json" -- "$work/cdp" >"$work/out$threads" 2>&1
  check "--threads $threads: the program succeeds" [ $? -eq 0 ]
  # Everything but the host's wall time and thread count.
  sed -E 's/"ptxsim__simulation_seconds":[^,}]*//; s/"ptxsim__host_threads":[0-9]*//' "$work/stats$threads.json" \
    >"$work/stable$threads.json"
done
check "same output with 1 and 2 host threads" cmp -s "$work/out1" "$work/out2"
check "same statistics with 1 and 2 host threads" cmp -s "$work/stable1.json" "$work/stable2.json"
records=$(wc -l <"$work/stats1.json")
host_records=$(grep -vc '"ptxsim__parent_launch_id"' "$work/stats1.json")
# The host launches 6 grids: quicksort, three tree sums, pipeline, perBlockStream.
check "one record per grid ($records), 6 from the host" [ "$host_records" -eq 6 ] && [ "$records" -gt 100 ]
check "launch ids count up" [ "$(grep -o '"ptxsim__launch_id":[0-9]*' "$work/stats1.json" | tail -1)" = \
  "\"ptxsim__launch_id\":$records" ]
# The tree sum with depth limit 8 is the 4th host launch: 62 descendants down to depth 5.
check "child records name parent and depth" \
  grep -q '"kernel":"_Z7treeSumPKiiiiPyPi".*"ptxsim__parent_launch_id":[0-9]*,"ptxsim__launch_depth":5' \
  "$work/stats1.json"

"$ptxsim" check "$work/cdp" >"$work/check.out" 2>&1
check "ptxsim check links the program without the device runtime" [ $? -eq 0 ]

cat >"$work/attribute.cu" <<'CU'
#include <cstdio>
__global__ void query(int* out) { cudaDeviceGetAttribute(out, cudaDevAttrMaxThreadsPerBlock, 0); }
int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  query<<<1, 1>>>(d);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -rdc=true -o "$work/attribute" "$work/attribute.cu" || exit 1
"$ptxsim" run -- "$work/attribute" >"$work/attribute.out" 2>"$work/attribute.err"
check "unprovided device runtime function named" \
  grep -q "'__cudaCDP2DeviceGetAttribute', a CUDA device runtime function ptxsim does not provide" "$work/attribute.err"
check "its launch fails" grep -q "launch: cudaError" "$work/attribute.out"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
