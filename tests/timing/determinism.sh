#!/usr/bin/env bash
# The timing model runs its SMs on host threads in windows
# (sim/src/timing/timing_driver.cpp): the same program must give the same
# output and the same statistics (cycles, stalls, caches, DRAM) with 1, 2
# and 16 host threads. The programs cover plain loads and stores
# (vector_add), grid.sync() spinning on global memory with atomics
# (cooperative_groups), atomics on global memory from every SM
# (dynamic_shared), and device-side launches (cdp). The --trace file (CTA
# starts and ends per SM slot, in simulated time) must be the same too;
# the progress lines (host speed) are left out.
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
for name in vector_add cooperative_groups dynamic_shared cdp; do
  for threads in 1 2 16; do
    rm -f "$work/$name.stats$threads.json" "$work/$name.trace$threads.json"  # not an earlier run's
    (cd "$work" && "$ptxsim" run --timing --threads $threads --no-progress --stats "$work/$name.stats$threads.json" \
      --trace "$work/$name.trace$threads.json" -- "./$name" \
      >"$work/$name.out$threads" 2>&1)
    check "$name, --threads $threads: the program succeeds" [ $? -eq 0 ]
    # Everything but the host's wall time and thread count.
    sed -E 's/"ptxsim__simulation_seconds":[^,}]*//; s/"ptxsim__host_threads":[0-9]*//' \
      "$work/$name.stats$threads.json" >"$work/$name.stable$threads.json"
  done
  check "$name: the statistics are timed" grep -q '"gpu__time_duration' "$work/$name.stable1.json"
  for threads in 2 16; do
    check "$name: same output with 1 and $threads host threads" cmp -s "$work/$name.out1" "$work/$name.out$threads"
    check "$name: same statistics with 1 and $threads host threads" \
      cmp -s "$work/$name.stable1.json" "$work/$name.stable$threads.json"
    check "$name: same trace with 1 and $threads host threads" \
      cmp -s "$work/$name.trace1.json" "$work/$name.trace$threads.json"
  done
  check "$name: the trace has CTA events" grep -q '"cat":"cta"' "$work/$name.trace1.json"
done
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "all determinism checks passed"
