#!/usr/bin/env bash
# Records the DRAM bytes each launch of the accuracy suite's irregular,
# streaming and dense programs writes, three times over, on the GPU machine
# with Nsight Compute (caches flushed before each launch, the GPU's own
# clock): OUTDIR/PROGRAM.RUN.ncu.csv, and OUTDIR/device.txt. How much of
# what a kernel writes back is the same from run to run (suite_writes.py).
# Usage: record_suite_writes.sh OUTDIR
set -uo pipefail
kernels="$(cd "$(dirname "$0")/.." && pwd)"
out="$(realpath -m "${1:?usage: record_suite_writes.sh OUTDIR}")"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
bin="$(mktemp -d)"
for program in irregular streaming dense; do
  "$kernels/build.sh" "$program" "$bin/$program" >/dev/null || exit 1
  for run in 1 2 3; do
    (cd "$bin" && ncu --csv --print-units base --clock-control none --print-kernel-base mangled \
      --metrics gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum \
      --log-file "$out/$program.$run.log" "./$program" >/dev/null 2>&1)
    grep -v '^==' "$out/$program.$run.log" >"$out/$program.$run.ncu.csv"
    rm -f "$out/$program.$run.log"
  done
done
{ nvidia-smi -q | grep -iE "product name|driver version" | head -2; ncu --version | tail -1; date -u; } >"$out/device.txt"
rm -rf "$bin"
