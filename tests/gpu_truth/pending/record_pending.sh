#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root:
# records in one go what waits for the GPU (README.md beside this script),
# into OUT (default $OUT):
#   OUT/programs/NAME.expected  the pending programs (wgmma_sparse_tf32,
#                               tma_copies, runtime_then_driver,
#                               mma_more_forms, mma_sparse_forms) and
#                               tensormap_replace with its patch applied
#   OUT/calibration/            tests/timing/calibration's wgmma, tma and
#                               cluster probes (measure.sh)
#   OUT/hopper/                 the Hopper kernels under Nsight Compute
#                               (tests/timing/kernels/record.sh)
#   OUT/*.sanitizer.txt         tma_copies under compute-sanitizer
# A copy of the working tree is changed (pending programs moved into
# tests/cuda/programs, the patch applied); the repository's own files are not.
# Usage: tests/gpu_truth/pending/record_pending.sh [OUT]
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$(realpath -m "${1:-${OUT:?usage: record_pending.sh OUT}}")"
mkdir -p "$out/programs" "$out/calibration" "$out/hopper"
work="$(mktemp -d)"
mkdir -p "$work/tree"
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$work/tree" -xf -
cd "$work/tree" || exit 1
status=0
pending=(wgmma_sparse_tf32 tma_copies runtime_then_driver mma_more_forms mma_sparse_forms)
for name in "${pending[@]}"; do cp "tests/gpu_truth/pending/$name.cu" tests/cuda/programs/; done
patch -p0 <tests/gpu_truth/pending/tensormap_replace_fault_last.patch || status=1
RECORD=programs ONLY="${pending[*]} tensormap_replace" bash tests/gpu_truth/record.sh "$out/sem" "$out/programs" ||
  status=1
CALIB_PROGRAMS="wgmma tma cluster" tests/timing/calibration/measure.sh "$out/calibration" || status=1
RECORD_PROGRAMS=tests/timing/kernels/programs_hopper.txt tests/timing/kernels/record.sh "$out/hopper" || status=1
# tma_copies' first recording faulted at its first 2D load: the sanitizer
# names the cause, case by case.
if command -v compute-sanitizer >/dev/null 2>&1; then
  tests/cuda/programs/build_program.sh tests/cuda/programs/tma_copies.cu "$work/tma_copies" &&
    timeout 300 compute-sanitizer --print-limit 20 "$work/tma_copies" >"$out/tma_copies.sanitizer.txt" 2>&1
fi
echo "record_pending: status $status; outputs in $out"
exit $status
