#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool): builds every program in
# tests/cuda/semantics with nvcc for the local GPU and records its output as
# NAME.expected, the ground truth tests/sim/gpu_truth_test.cpp compares the
# simulator against. Also records the GPU's name and driver beside them.
# Usage: tests/gpu_truth/record.sh [OUT_DIR]   (default: the source folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
src="$root/tests/cuda/semantics"
out="${1:-$src}"
mkdir -p "$out"
work="$(mktemp -d)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > "$out/recorded_on.txt"
"$nvcc" --version | tail -2 >> "$out/recorded_on.txt"
status=0
for cu in "$src"/*.cu; do
  name="$(basename "$cu" .cu)"
  if "$nvcc" -arch=sm_90 -I"$root/tests/cuda" -o "$work/$name" "$cu" && "$work/$name" > "$work/$name.expected"; then
    cp "$work/$name.expected" "$out/$name.expected"
    echo "recorded $name ($(wc -l < "$out/$name.expected") cases)"
  else
    echo "FAILED: $name" >&2
    status=1
  fi
done
exit $status
