#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool): reads the multi-function
# unit's tables behind sin/cos/tanh.approx.f32, the 16-bit ex2/tanh forms
# and rcp/rsqrt.approx.ftz.f64 (probes/mufu_explore_probe.cu and
# probes/mufu_trig_probe.cu, which also check each rule against every
# input) and packs them, with the findings, into OUTDIR.
# Usage: tests/gpu_truth/mufu_more_tables.sh OUTDIR   (then sim/data/mufu/import_more.sh OUTDIR here)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(realpath -m "$1")"
export PATH="/usr/local/cuda/bin:$PATH"
work="$(mktemp -d)"
mkdir -p "$out"
for probe in mufu_explore_probe mufu_trig_probe; do
  nvcc -arch=sm_90 -O2 -o "$work/$probe" "$root/tests/gpu_truth/probes/$probe.cu"
  { nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr -d '\n'; echo ", $(date -u +%Y-%m-%d)"; } >"$out/${probe}_gpu.txt"
  "$work/$probe" "$work" >>"$out/${probe}_gpu.txt"
done
( cd "$work" && tar -cf - ex2_f16.u16 ex2_bf16.u16 tanh_f16.u16 tanh_bf16.u16 tanh_f32.u32 rcp64h.u32 rsq64h_e0.u32 \
    rsq64h_e1.u32 sin_half.diff8 | xz -T0 -9 >"$out/mufu_more_tables.tar.xz" )
ls -la "$out"
