#!/usr/bin/env bash
# What a copy or fill leaves in the L2 for the next kernel (a test; no
# GPU): builds copy_residency.cu with nvcc, runs it under `ptxsim run
# --timing --config h200` with CALIB_QUICK (1 and 8 MiB buffers) and holds
# each scenario's L2 hit fraction and mean load latency against the H200's
# (h200/copy_residency.out; copy_residency_compare.py states the
# tolerances).
# Usage: copy_residency_replay.sh PTXSIM OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ptxsim="$(realpath "${1:?usage: copy_residency_replay.sh PTXSIM OUTDIR}")"
out="$(realpath -m "${2:?usage: copy_residency_replay.sh PTXSIM OUTDIR}")"
rm -rf "$out"
# Every way a copy reaches the L2 model (host to device from pageable and
# pinned memory, in a stream; device to host; device to device, either
# side; a fill) and the flushed reference; not memset_async (a fill as
# memset) nor rechase (its figures come from the recording): each
# scenario costs a simulated 64 MiB flush.
RUNNER="$ptxsim run --timing --config h200 --" CALIB_QUICK=1 CALIB_PROGRAMS="copy_residency" \
  CALIB_SCENARIOS="flushed h2d_pageable h2d_pinned h2d_async d2h_source d2d d2d_source memset" \
  "$here/measure.sh" "$out" >/dev/null || exit 1
if grep -E " exit [^0]| build FAILED" "$out/summary.txt"; then
  echo "FAILED: copy_residency did not run under ptxsim (see $out)" >&2
  exit 1
fi
python3 "$here/copy_residency_compare.py" "$here/h200/copy_residency.out" "$out/copy_residency.out"
