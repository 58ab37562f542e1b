#!/usr/bin/env bash
# `ptxsim run --timing --trace FILE` end to end: the trace of the example,
# of a program with several streams, of one launching from the device (CDP)
# and of one with cooperative launches is valid JSON that matches the run's
# statistics (check_trace.py); a launch that faults, and a program that
# aborts after it, leave a valid trace; --trace without --timing and an
# unwritable trace file are refused before the program runs. Progress lines
# appear for short launches only when asked for.
# Usage: run_trace_tests.sh PTXSIM SOURCE_DIR WORK_DIR
set -uo pipefail
ptxsim=$1
src=$2
work=$3
mkdir -p "$work"
source "$(dirname "$0")/check_support.sh" run_trace_tests
clock_khz=$(sed -n 's/^clock_rate_khz *= *\([0-9]*\).*/\1/p' "$src/configs/h100.cfg")
programs="$src/tests/cuda/programs"

"$nvcc" -cudart shared -arch=sm_90 -o "$work/vector_add" "$src/examples/vector_add.cu" || exit 1
for name in streams cdp cooperative_groups; do
  source="$programs/$name"
  [ -d "$source" ] || source="$source.cu"
  "$programs/build_program.sh" "$source" "$work/$name" || exit 1
done

for name in vector_add streams cdp cooperative_groups; do
  rm -f "$work/$name.trace.json" "$work/$name.stats.json"
  (cd "$work" && "$ptxsim" run --timing --trace "$name.trace.json" --stats "$name.stats.json" -- "./$name" \
    >"$name.out" 2>"$name.err")
  check "$name: runs under --trace" [ $? -eq 0 ]
  check "$name: the trace matches the statistics" \
    python3 "$src/tests/cli/check_trace.py" "$work/$name.trace.json" "$work/$name.stats.json" "$clock_khz"
done
check "streams: several launches traced" \
  python3 -c "import json,sys; sys.exit(sum(e.get('cat')=='kernel' for e in json.load(open('$work/streams.trace.json'))) < 5)"
check "cdp: device-side launches name their parent" \
  python3 -c "import json,sys; sys.exit(not any('parent_launch_id' in e.get('args',{}) for e in json.load(open('$work/cdp.trace.json')) if e.get('cat')=='kernel'))"
check "cooperative_groups: cooperative launches marked" \
  python3 -c "import json,sys; sys.exit(not any(e['args'].get('cooperative') for e in json.load(open('$work/cooperative_groups.trace.json')) if e.get('cat')=='kernel'))"
# pipefail: a run that fails after printing the same output is a failure too.
check "the output does not change under --trace" \
  bash -c "set -o pipefail; cd '$work' && '$ptxsim' run --timing -- ./streams 2>/dev/null | cmp -s - streams.out"

# A launch that faults in one CTA, then a program that aborts: the trace
# written so far is valid, the faulting launch carries its error.
cat >"$work/fault.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void fill(int* p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
__global__ void faulty(int* p) {
  if (blockIdx.x == 3) __trap();
  p[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}
int main(int argc, char**) {
  int* d;
  cudaMalloc(&d, 8 * 128 * sizeof(int));
  fill<<<8, 128>>>(d);
  cudaDeviceSynchronize();
  faulty<<<8, 128>>>(d);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::fflush(stdout);
  if (argc > 1) std::abort();  // no exit handlers: the trace is as the launches left it
  return 1;
}
CU
"$nvcc" -cudart shared -arch=sm_90 -o "$work/fault" "$work/fault.cu" || exit 1
for how in exit abort; do
  args=""
  [ $how = abort ] && args="abort"
  "$ptxsim" run --timing --trace "$work/fault_$how.json" -- "$work/fault" $args >"$work/fault_$how.out" 2>&1
  check "fault ($how): the program saw the fault" grep -q cudaErrorLaunchFailure "$work/fault_$how.out"
  # Its launches take milliseconds, far below the 2 s after which progress lines start.
  check "fault ($how): no progress lines for short launches" bash -c "! grep -q 'ptxsim: kernel' '$work/fault_$how.out'"
  check "fault ($how): the trace is valid JSON with both launches, the second failed" python3 -c "
import json, sys
kernels = [e for e in json.load(open('$work/fault_$how.json')) if e.get('cat') == 'kernel']
sys.exit(not (len(kernels) == 2 and 'error' not in kernels[0]['args'] and 'error' in kernels[1]['args']))"
done

# --progress: one line per timed launch (at its end) even when short; --no-progress: none.
"$ptxsim" run --timing --progress -- "$work/streams" >/dev/null 2>"$work/progress.err"
check "--progress: the program succeeds" [ $? -eq 0 ]
launches=$(grep -c '"gpc__cycles_elapsed.max"' "$work/streams.stats.json")
check "--progress: a line per timed launch (more for any longer than 2 s)" [ "$(grep -c '^ptxsim: kernel ' "$work/progress.err")" -ge "$launches" ]
check "--progress: the line's form" grep -Eq \
  '^ptxsim: kernel [A-Za-z_]+: [0-9]+\.[0-9]{2} M cycles, [0-9]+\.[0-9] M warp instructions, [0-9]+\.[0-9] M thread-instructions/s$' \
  "$work/progress.err"
"$ptxsim" run --timing --no-progress -- "$work/streams" >/dev/null 2>"$work/no_progress.err"
check "--no-progress: the program succeeds" [ $? -eq 0 ]
check "--no-progress: no lines" bash -c "! grep -q 'ptxsim: kernel' '$work/no_progress.err'"
err=$("$ptxsim" run --progress --no-progress -- "$work/vector_add" 2>&1)
check "--progress with --no-progress is refused" [ $? -ne 0 ]

# Refusals, before the program runs.
err=$("$ptxsim" run --trace "$work/untimed.json" -- "$work/vector_add" 2>&1)
status=$?
check "--trace without --timing is refused" [ "$status" -ne 0 ]
check "its refusal names --timing" grep -q -- "--timing" <<<"$err"
check "the program did not run (--trace without --timing)" bash -c "! grep -q vectorAdd <<<'$err'"
err=$("$ptxsim" run --timing --trace /nonexistent-directory/trace.json -- "$work/vector_add" 2>&1)
status=$?
check "an unwritable trace file is refused" [ "$status" -eq 2 ]
check "its refusal names the file" \
  grep -q "ptxsim: error: cannot write the trace file /nonexistent-directory/trace.json" <<<"$err"
check "the program did not run (unwritable trace)" bash -c "! grep -q vectorAdd <<<'$err'"

if [ $failures -ne 0 ]; then
  echo "$failures trace check(s) failed" >&2
  exit 1
fi
echo "all trace checks passed"
