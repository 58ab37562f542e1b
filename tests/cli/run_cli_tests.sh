#!/usr/bin/env bash
# `ptxsim run` end to end: the bundled example built with nvcc -cudart
# shared runs and its output, exit status, statistics file and summary are
# right; so does the same example with the runtime linked statically (nvcc's
# default); a program without CUDA, a missing program, a bad preset and a
# program's own exit status are reported as documented. Usage: run_cli_tests.sh PTXSIM SOURCE_DIR WORK_DIR
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
passes=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; passes=$((passes + 1)); else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}

# Statistics and stderr files of an earlier run of this script must not
# stand in for this run's.
rm -f "$work"/*.json "$work"/*.err
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

out=$("$ptxsim" run --threads 1 "$work/vector_add_static" 2>&1)
check "static cudart runs" [ "$out" = "vectorAdd: 1048576 elements, 0 mismatches" ]

err=$("$ptxsim" run /bin/true 2>&1)
check "non-CUDA program refused" grep -q "does not use CUDA" <<<"$err"
err=$("$ptxsim" run "$work/missing" 2>&1)
check "missing program" grep -q "cannot open the program" <<<"$err"
err=$("$ptxsim" run --config nonesuch "$work/vector_add" 2>&1)
check "unknown preset" grep -q "no GPU preset 'nonesuch'" <<<"$err"
out=$("$ptxsim" run --config h100,sm_count=2 -- "$work/vector_add" 2>&1)
check "preset override runs" [ "$out" = "vectorAdd: 1048576 elements, 0 mismatches" ]

# SIMT modes, schedules and the warp-sync check on tests/cuda/programs/warp_sync.cu.
"$nvcc" -cudart shared -arch=sm_90 -o "$work/warp_sync" "$src/tests/cuda/programs/warp_sync.cu" || exit 1
default_out=$("$ptxsim" run --stats "$work/simt.json" -- "$work/warp_sync" 2>&1)
check "ITS: the program succeeds" [ $? -eq 0 ]
check "ITS: the intra-warp spin lock completes" grep -q "spin lock: cudaSuccess, counter 32" <<<"$default_out"
check "stats record the SIMT mode" grep -q '"ptxsim__simt_mode":"its/converge"' "$work/simt.json"
out=$("$ptxsim" run --simt=stack -- "$work/warp_sync" 2>"$work/stack.err")
status=$?
check "stack: the spin lock is a deadlock" grep -q "ptxsim: error: deadlock: .* in kernel _Z15lockedIncrementPiS_, block (0,0,0) (simt stack)" "$work/stack.err"
check "stack: the report names lanes and PTX lines" grep -q "warp 0 lanes 0xfffffffe at PC [0-9]* (PTX line [0-9]*)" "$work/stack.err"
check "stack: the CUDA call fails and the program sees it" [ "$status" -eq 1 ]
out=$("$ptxsim" run --its-schedule=adversarial -- "$work/warp_sync" 2>&1)
check "adversarial: the legacy reduction breaks" grep -q "legacy reduction: .* (wrong)" <<<"$out"
check "adversarial: the synced reduction holds" grep -q "synced reduction: 1905 (right)" <<<"$out"
out=$("$ptxsim" run --check=warp-sync -- "$work/warp_sync" 2>"$work/check.err")
check "check: results unchanged" [ "$out" = "$(grep -v '^ptxsim' <<<"$default_out")" ]
check "check: the legacy reduction is flagged" grep -q "ptxsim: warp-sync hazard in kernel _Z12legacyReducePKiPi: lanes" "$work/check.err"
check "check: the synced reduction is not" bash -c "! grep -q _Z12syncedReducePKiPi '$work/check.err'"
# The same seed twice (1 and the default host threads): both runs must
# succeed and write statistics, which must be the same but for the host's
# wall time and thread count.
for run in r1 r2; do
  threads=""
  [ $run = r2 ] && threads="--threads 1"
  "$ptxsim" run --its-schedule=random --seed=5 $threads --stats "$work/$run.json" -- "$work/warp_sync" \
    >/dev/null 2>"$work/$run.err"
  status=$?
  check "random ($run): the seeded run succeeds" [ "$status" -eq 0 ]
  check "random ($run): it wrote statistics" [ -s "$work/$run.json" ]
  [ "$status" -eq 0 ] || cat "$work/$run.err" >&2
done
stable() { sed 's/"ptxsim__simulation_seconds":[^,]*,//; s/"ptxsim__host_threads":[0-9]*//' "$1"; }
same_seeded_runs() {  # two empty or missing files must not count as the same
  [ -s "$work/r1.json" ] && [ -s "$work/r2.json" ] && cmp -s <(stable "$work/r1.json") <(stable "$work/r2.json")
}
check "random: the same seed gives the same run" same_seeded_runs
err=$("$ptxsim" run --simt=lockstep -- "$work/warp_sync" 2>&1)
status=$?
check "an unknown SIMT mode is refused" [ "$status" -ne 0 ]
check "the refusal names the option" grep -q -- "--simt" <<<"$err"
# A mistyped option before the program is an error naming it, not passed on.
for form in "--timng --" "--timng" "--summary --timng=1 --"; do
  err=$("$ptxsim" run $form "$work/vector_add" 2>&1)
  status=$?
  check "unknown option ($form) is refused" [ "$status" -eq 2 ]
  check "its refusal names it ($form)" grep -q -- "unknown option '--timng'" <<<"$err"
  check "the program did not run ($form)" bash -c "! grep -q vectorAdd <<<'$err'"
done
out=$("$ptxsim" run --config=h100 --threads 1 -- "$work/vector_add" --timng 2>&1)
check "options after the program are the program's own" grep -q "0 mismatches" <<<"$out"

# --timing: the same output, cycles in the statistics; --kernel-name,
# --launch-skip and --launch-count choose the timed launches.
out=$("$ptxsim" run --timing --stats "$work/timed.json" -- "$work/vector_add" 2>&1)
check "timing: the program succeeds" [ $? -eq 0 ]
check "timing: the program's output is unchanged" grep -q "0 mismatches" <<<"$out"
check "timing: the record has simulated cycles" grep -q '"gpc__cycles_elapsed.max":[1-9]' "$work/timed.json"
check "timing: the statistics echo the timing parameters" grep -q '"ptxsim__timing":{"sm.sub_partitions":4' "$work/timed.json"
check "timing: the parameters are written once, first, in a record of their own" \
  bash -c "[ \$(grep -c '\"ptxsim__record\":\"config\"' '$work/timed.json') -eq 1 ] && head -1 '$work/timed.json' | grep -q '^{\"ptxsim__record\":\"config\"'"
check "timing: the launch records name the parameters, not repeat them" \
  bash -c "grep '\"kernel\"' '$work/timed.json' | grep -q '\"ptxsim__config\":\"[0-9a-f]\{16\}\"' && ! grep '\"kernel\"' '$work/timed.json' | grep -q ptxsim__timing"
"$ptxsim" run --timing --kernel-name vectorAdd --stats "$work/named.json" -- "$work/vector_add" >/dev/null 2>&1
check "timing: --kernel-name: the program succeeds" [ $? -eq 0 ]
check "timing: --kernel-name by the function's name selects it" grep -q '"gpc__cycles_elapsed.max"' "$work/named.json"
"$ptxsim" run --timing --launch-skip 1 --stats "$work/skipped.json" -- "$work/vector_add" >/dev/null 2>&1
check "timing: --launch-skip: the program succeeds" [ $? -eq 0 ]
check "timing: a skipped launch runs functionally" bash -c "! grep -q gpc__cycles_elapsed '$work/skipped.json' && grep -q smsp__inst_executed '$work/skipped.json'"
err=$("$ptxsim" run --launch-count 1 -- "$work/vector_add" 2>&1)
status=$?
check "timing: --launch-count without --timing is refused" [ "$status" -ne 0 ]
check "timing: the refusal names --timing" grep -q -- "--timing" <<<"$err"

# Profiler ranges (tests/cuda/programs/profiler_ranges.cu): launches before
# cudaProfilerStart and after cudaProfilerStop run but, with
# --profile-from-start off, get no statistics.
"$nvcc" -cudart shared -arch=sm_90 -I"$src/tests/cuda/programs" -o "$work/profiler_ranges" \
  "$src/tests/cuda/programs/profiler_ranges.cu" || exit 1
all_out=$("$ptxsim" run --summary --stats "$work/all.json" -- "$work/profiler_ranges" 2>"$work/all.err")
check "profile from start: the program succeeds" [ $? -eq 0 ]
check "profile from start: every launch has a record" [ "$(wc -l <"$work/all.json")" -eq 4 ]
check "profile from start: the summary counts every launch" grep -q "ptxsim: 4 kernel launches" "$work/all.err"
range_out=$("$ptxsim" run --profile-from-start off --summary --stats "$work/range.json" -- "$work/profiler_ranges" \
  2>"$work/range.err")
status=$?
check "profile range: the program runs the same" [ "$status:$range_out" = "0:$all_out" ]
check "profile range: two records" [ "$(wc -l <"$work/range.json")" -eq 2 ]
check "profile range: the launches inside it" \
  [ "$(grep -o '"kernel":"[^"]*"' "$work/range.json" | tr '\n' ' ')" = '"kernel":"_Z6squarePii" "kernel":"_Z9addOffsetPiii" ' ]
check "profile range: the records are those of the full run" \
  cmp -s <(sed -n '2,3p' "$work/all.json" | sed 's/"ptxsim__simulation_seconds":[^,]*,//') \
  <(sed 's/"ptxsim__simulation_seconds":[^,]*,//' "$work/range.json")
check "profile range: the summary counts two launches" grep -q "ptxsim: 2 kernel launches" "$work/range.err"
err=$("$ptxsim" run --profile-from-start maybe -- "$work/profiler_ranges" 2>&1)
status=$?
check "a bad --profile-from-start is refused" [ "$status" -ne 0 ]
check "the refusal names --profile-from-start" grep -q -- "--profile-from-start" <<<"$err"

# A cluster of 2 CTAs runs (thread block clusters); functions left out by
# design say why.
cat >"$work/refusals.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
__global__ void noop(int* p) { if (p != nullptr) *p = 1; }
int main() {
  cudaLaunchAttribute cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(32);
  config.attrs = &cluster;
  config.numAttrs = 1;
  int* none = nullptr;
  std::printf("cluster of 2: %s\n", cudaGetErrorName(cudaLaunchKernelEx(&config, noop, none)));
  cudaIpcMemHandle_t handle;
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(cudaIpcGetMemHandle(&handle, nullptr)));
  cudaExternalMemory_t external;
  std::printf("cudaImportExternalMemory: %s\n", cudaGetErrorName(cudaImportExternalMemory(&external, nullptr)));
  return 0;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/refusals" "$work/refusals.cu" || exit 1
out=$("$ptxsim" run -- "$work/refusals" 2>"$work/refusals.err")
check "a cluster of 2 CTAs runs" grep -q "cluster of 2: cudaSuccess" <<<"$out"
check "inter-process: refused as by design" \
  grep -q "ptxsim: cudaIpcGetMemHandle is not supported by ptxsim: inter-process (" "$work/refusals.err"
check "external memory: refused as by design" \
  grep -q "ptxsim: cudaImportExternalMemory is not supported by ptxsim: external memory and semaphores (" \
  "$work/refusals.err"
check "the refused calls return cudaErrorNotSupported" [ "$(grep -c ': cudaErrorNotSupported$' <<<"$out")" -eq 2 ]

# Run-time loading of images nvcc wrote to files: a fat binary with PTX
# loads and runs; a cubin (machine code only) is refused, saying why.
cat >"$work/loadable.cu" <<'CU'
extern "C" __global__ void fillIndex(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3;
}
CU
cat >"$work/load_file.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
int main(int argc, char** argv) {
  cudaLibrary_t library;
  cudaError_t e = cudaLibraryLoadFromFile(&library, argv[1], nullptr, nullptr, 0, nullptr, nullptr, 0);
  std::printf("load: %s\n", cudaGetErrorName(e));
  if (e != cudaSuccess) return 1;
  cudaKernel_t fill;
  if (cudaLibraryGetKernel(&fill, library, "fillIndex") != cudaSuccess) return 2;
  const int n = 1000;
  int* out;
  cudaMalloc(&out, n * sizeof(int));
  int count = n;
  void* args[] = {&out, &count};
  e = cudaLaunchKernel(reinterpret_cast<const void*>(fill), dim3(8), dim3(128), args, 0, 0);
  static int host[n];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != 3 * i;
  std::printf("launch: %s, %d wrong\n", cudaGetErrorName(e), wrong);
  return cudaLibraryUnload(library) == cudaSuccess && wrong == 0 ? 0 : 3;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/load_file" "$work/load_file.cu" || exit 1
"$nvcc" -fatbin -arch=sm_90 -o "$work/loadable.fatbin" "$work/loadable.cu" || exit 1
"$nvcc" -cubin -arch=sm_90 -o "$work/loadable.cubin" "$work/loadable.cu" || exit 1
out=$("$ptxsim" run -- "$work/load_file" "$work/loadable.fatbin" 2>&1)
check "a fat binary loads and its kernel runs" [ "$out" = "$(printf 'load: cudaSuccess\nlaunch: cudaSuccess, 0 wrong')" ]
out=$("$ptxsim" run -- "$work/load_file" "$work/loadable.cubin" 2>&1)
check "a cubin is refused" grep -q "load: cudaErrorNoKernelImageForDevice" <<<"$out"
check "the refusal says ptxsim runs PTX" grep -q "the image is a cubin (machine code), which ptxsim cannot run" <<<"$out"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
