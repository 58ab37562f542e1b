#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool): builds cases.ptx with ptxas for
# sm_90, keeps what ptxas made of each kernel (cases.sass.txt, from
# cuobjdump -sass) and what each kernel computes on the GPU
# (cases.expected, from run_cases.cu), with the GPU's name beside them.
# Usage: tests/gpu_truth/fma_contraction/record.sh [OUT_DIR] (default: here)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
work="$(mktemp -d)"
ptxas -arch=sm_90 "$here/cases.ptx" -o "$work/cases.cubin"
cuobjdump -sass "$work/cases.cubin" >"$out/cases.sass.txt"
nvcc -o "$work/run_cases" "$here/run_cases.cu" -lcuda
"$work/run_cases" "$here/cases.ptx" "$work/cases.cubin" >"$out/cases.expected"
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  ptxas --version | tail -2
} >"$out/recorded_on.txt"
echo "recorded $(grep -c . "$out/cases.expected") lanes of $(grep -c '^// kernel' "$here/cases.ptx") kernels"
