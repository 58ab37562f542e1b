#!/usr/bin/env bash
# The timing model runs its SMs on host threads in windows
# (sim/src/timing/timing_driver.cpp): the same program must give the same
# output and the same statistics (cycles, stalls, caches, DRAM) with 1, 2
# and 16 host threads. The programs cover plain loads and stores
# (vector_add), grid.sync() spinning on global memory with atomics
# (cooperative_groups), atomics on global memory from every SM
# (dynamic_shared), device-side launches (cdp), and the accuracy suite's
# dense kernels (tests/timing/kernels/dense.cu: shared-memory tiles in
# SGEMM, n-body and the stencils, through which SMs run ahead of the
# windows). The --trace file (CTA starts and ends per SM slot, in simulated
# time) must be the same too; the progress lines (host speed) are left out.
# And with --no-run-ahead (every SM waits for every window) the output,
# the statistics and the trace are the same again.
# Usage: determinism.sh PTXSIM SOURCE_DIR WORK_DIR
set -uo pipefail
ptxsim=$1
src=$2
work=$3
mkdir -p "$work"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
programs="$src/tests/cuda/programs"
failures=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}

"$nvcc" -cudart shared -arch=sm_90 -o "$work/vector_add" "$src/examples/vector_add.cu" || exit 1
for name in cooperative_groups dynamic_shared cdp; do
  source="$programs/$name"
  [ -d "$source" ] || source="$source.cu"
  "$programs/build_program.sh" "$source" "$work/$name" || exit 1
done
"$src/tests/timing/kernels/build.sh" dense "$work/dense" || exit 1
for name in vector_add cooperative_groups dynamic_shared cdp dense; do
  # A run's name: its host threads, and "w" for --no-run-ahead.
  for run in 1 2 16 16w; do
    threads=${run%w}
    options=()
    [ "$run" != "$threads" ] && options=(--no-run-ahead)
    rm -f "$work/$name.stats$run.json" "$work/$name.trace$run.json"  # not an earlier run's
    (cd "$work" && "$ptxsim" run --timing --threads "$threads" "${options[@]}" --no-progress \
      --stats "$work/$name.stats$run.json" --trace "$work/$name.trace$run.json" -- "./$name" \
      >"$work/$name.out$run" 2>&1)
    check "$name, --threads $threads ${options[*]}: the program succeeds" [ $? -eq 0 ]
    # Everything but the host's wall time and thread count.
    sed -E 's/"ptxsim__simulation_seconds":[^,}]*//; s/"ptxsim__host_threads":[0-9]*//' \
      "$work/$name.stats$run.json" >"$work/$name.stable$run.json"
  done
  check "$name: the statistics are timed" grep -q '"gpu__time_duration' "$work/$name.stable1.json"
  for run in 2 16 16w; do
    other="$run host threads"
    [ "$run" = 16w ] && other="16 host threads and --no-run-ahead"
    check "$name: same output with 1 and $other" cmp -s "$work/$name.out1" "$work/$name.out$run"
    check "$name: same statistics with 1 and $other" \
      cmp -s "$work/$name.stable1.json" "$work/$name.stable$run.json"
    check "$name: same trace with 1 and $other" cmp -s "$work/$name.trace1.json" "$work/$name.trace$run.json"
  done
  check "$name: the trace has CTA events" grep -q '"cat":"cta"' "$work/$name.trace1.json"
done
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "all determinism checks passed"
