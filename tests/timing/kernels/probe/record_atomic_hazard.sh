#!/usr/bin/env bash
# Records atomic_hazard_probe.cu on the GPU machine with Nsight Compute
# (caches kept, the GPU's own clock) and prints each kernel's cycles per
# request (atomic_hazard.py). With PTXSIM=path/to/ptxsim it runs the same
# program on the simulator instead (no GPU needed) and prints ptxsim's.
# Usage: record_atomic_hazard.sh OUTDIR
set -u
source "$(dirname "$0")/probe_env.sh" atomic_hazard_probe "${1:-}" -cudart shared
if [ -n "${PTXSIM:-}" ]; then
  (cd "$bin" && "$(realpath "$PTXSIM")" run --timing --stats "$out/atomic_hazard.ptxsim.jsonl" \
    ./atomic_hazard_probe >"$out/atomic_hazard.ptxsim.stdout" 2>&1) || exit 1
  python3 "$here/atomic_hazard.py" "$out/atomic_hazard.ptxsim.jsonl"
else
  (cd "$bin" && ncu --csv --print-units base --print-kernel-base mangled --clock-control none \
    --cache-control none --metrics gpc__cycles_elapsed.max --log-file "$out/atomic_hazard.log" \
    ./atomic_hazard_probe >"$out/atomic_hazard.stdout" 2>&1) || exit 1
  grep -v '^==' "$out/atomic_hazard.log" >"$out/atomic_hazard.ncu.csv"
  python3 "$here/atomic_hazard.py" "$out/atomic_hazard.ncu.csv"
fi
rm -rf "$bin"
