#!/usr/bin/env bash
# What copies and fills take on the events' clock (a test; no GPU): builds
# copy_time.cu and memset_time.cu with nvcc, runs them under `ptxsim run
# --timing --config h200` and holds each figure against the H200's
# (h200/copy_time.out, h200/memset_time.out and memset_time.run3.out, the
# preset's copy.* and memset.* come from them): copies within 10%, fills
# within 40% of either H200 run (the H200's own small fills took 2.7 to
# 6.3 us from one run to the next). Printed, not held: the 64 MiB pageable
# copy (the H200's host ran it at 4.9 bytes/ns against 11.7 for 1 to 16
# MiB) and the fills followed by a kernel (the h200 preset's launch).
# Usage: transfer_replay.sh PTXSIM OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ptxsim="$(realpath "${1:?usage: transfer_replay.sh PTXSIM OUTDIR}")"
out="$(realpath -m "${2:?usage: transfer_replay.sh PTXSIM OUTDIR}")"
rm -rf "$out"
RUNNER="$ptxsim run --timing --config h200 --" CALIB_PROGRAMS="copy_time memset_time" \
  "$here/measure.sh" "$out" >/dev/null || exit 1
if grep -E " exit [^0]| build FAILED" "$out/summary.txt"; then
  echo "FAILED: a program did not run under ptxsim (see $out)" >&2
  exit 1
fi
python3 - "$out/summary.txt" "$here/h200/copy_time.out" "$here/h200/memset_time.out" \
  "$here/h200/memset_time.run3.out" <<'PY'
import re, sys

def figures(path, has_program):
    out = {}
    for line in open(path):
        parts = line.split()
        if len(parts) < 3 or line.startswith("#"):
            continue
        if has_program:
            parts = parts[1:]
        try:
            out.setdefault(parts[0], []).append(float(parts[1]))
        except ValueError:
            pass
    return out

sim = figures(sys.argv[1], True)
gpu = {}
for path in sys.argv[2:]:
    for k, v in figures(path, False).items():
        gpu.setdefault(k, []).extend(v)
failed = 0
for metric, measured in sorted(gpu.items()):
    if metric.startswith("clock") or metric not in sim:
        continue
    got = sim[metric][0]
    errors = [(got - m) / m * 100 for m in measured]
    best = min(errors, key=abs)
    if metric == "copy.h2d_pageable.65536KiB_us" or "then_empty_kernel" in metric or metric.startswith("launch."):
        held = "printed"
    elif metric.startswith("copy."):
        held = "ok" if abs(best) <= 10 else "FAILED (10%)"
    else:
        held = "ok" if abs(best) <= 40 else "FAILED (40%)"
    failed += held.startswith("FAILED")
    shown = " / ".join(f"{m:g}" for m in measured)
    print(f"{metric:40s} H200 {shown:>16s} us  ptxsim {got:9.4g} us  {best:+6.1f}%  {held}")
if failed:
    print(f"FAILED: {failed} figure(s) beyond their tolerance")
    sys.exit(1)
print("transfer times: every held figure within its tolerance")
PY
