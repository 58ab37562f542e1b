#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool) in one call: everything ptxsim
# holds itself against, packed into one archive.
#  - record.sh: the GPU-truth semantics programs and the API programs;
#  - the hardware probes of tests/sim/data (*_probe.cu), each run once;
#  - Nsight Compute's per-instruction execution counts of prof_trigger.cu.
# Usage: tests/gpu_truth/measure.sh ARCHIVE.tar.gz
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
archive="$(realpath -m "$1")"
export PATH="/usr/local/cuda/bin:$PATH"
work="$(mktemp -d)"
mkdir -p "$work/semantics" "$work/programs" "$work/probes" "$work/metrics"
"$root/tests/gpu_truth/record.sh" "$work/semantics" "$work/programs" >"$work/record.log" 2>&1
echo "record.sh exit code: $?" >>"$work/record.log"
for probe in "$root"/tests/sim/data/*_probe.cu; do
  name="$(basename "$probe" .cu)"
  nvcc -arch=sm_90 -O2 -o "$work/$name" "$probe" && "$work/$name" >"$work/probes/${name}_gpu.txt"
  echo "$name exit code: $?" >>"$work/record.log"
done
# __prof_trigger counts: Nsight Compute has no prof_trigger counter on sm_90,
# so the executions of each PMTRIG instruction are read from its per-SASS-
# instruction source counters (warp-level executions, as prof_trigger counts).
"$root/tests/cuda/programs/build_program.sh" "$root/tests/cuda/programs/prof_trigger.cu" "$work/prof_trigger" &&
  ncu --section SourceCounters --page source --print-source sass --csv "$work/prof_trigger" \
    >"$work/metrics/prof_trigger_sass.csv" 2>&1
echo "ncu prof_trigger exit code: $?" >>"$work/record.log"
tar -C "$work" -czf "$archive" semantics programs probes metrics record.log
