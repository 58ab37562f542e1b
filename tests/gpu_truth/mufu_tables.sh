#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool): reads the multi-function
# unit's tables with probes/mufu_tables_probe.cu and packs them, compressed,
# with the probe's findings and the SASS it ran, into OUTDIR.
# Usage: tests/gpu_truth/mufu_tables.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(realpath -m "$1")"
export PATH="/usr/local/cuda/bin:$PATH"
work="$(mktemp -d)"
mkdir -p "$out"
nvcc -arch=sm_90 -O2 -o "$work/probe" "$root/tests/gpu_truth/probes/mufu_tables_probe.cu"
cuobjdump -sass "$work/probe" | grep -E "MUFU|FMUL|FFMA|FADD|FSETP" | sort | uniq -c >"$out/mufu_tables_sass.txt" || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/mufu_tables_probe_gpu.txt"
"$work/probe" "$work" >>"$out/mufu_tables_probe_gpu.txt"
( cd "$work" && tar -cf - ex2_pos.diff ex2_neg.diff lg2_e0.diff lg2_em1.diff | xz -T0 -9 >"$out/tables_ex2_lg2.tar.xz" )
( cd "$work" && tar -cf - rcp.diff sqrt_e0.diff sqrt_e1.diff | xz -T0 -9 >"$out/tables_rcp_sqrt.tar.xz" )
( cd "$work" && tar -cf - rsqrt_e0.diff rsqrt_e1.diff | xz -T0 -9 >"$out/tables_rsqrt.tar.xz" )
ls -la "$out"
