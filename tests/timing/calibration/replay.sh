#!/usr/bin/env bash
# The calibration replay (a test; no GPU): builds the calibration programs
# with nvcc, runs them under `ptxsim run --timing` and holds every gated
# metric against the H100's outputs in h100/summary.txt (compare.py: within
# 10%, the bank-conflict cost per extra way exactly). Writes the comparison
# table to OUTDIR/comparison.md. CALIB_QUICK sizes each program for the
# simulator (bandwidth.cu still reaches each steady state).
# Usage: replay.sh PTXSIM OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ptxsim="$(realpath "${1:?usage: replay.sh PTXSIM OUTDIR}")"
out="$(realpath -m "${2:?usage: replay.sh PTXSIM OUTDIR}")"
rm -rf "$out"
RUNNER="$ptxsim run --timing --" CALIB_QUICK=1 \
  CALIB_PROGRAMS="alu_latency alu_throughput shared_memory memory_latency control instruction_fetch register_banks bandwidth texture_cp_async wgmma tma cluster" \
  "$here/measure.sh" "$out" >/dev/null || exit 1
if grep -E " exit [^0]| build FAILED" "$out/summary.txt"; then
  echo "FAILED: a calibration program did not run under ptxsim (see $out)" >&2
  exit 1
fi
python3 "$here/compare.py" "$here/h100/summary.txt" "$out/summary.txt" --markdown "$out/comparison.md"
