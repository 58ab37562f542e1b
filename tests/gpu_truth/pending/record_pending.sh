#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root:
# records in one go what waits for the GPU (README.md beside this script),
# into OUT (default $OUT):
#   OUT/programs/NAME.expected  the pending programs (tma_copies,
#                               mma_sparse_forms) and
#                               tensormap_replace with its patch applied
#   OUT/*.sanitizer.txt         tma_copies under compute-sanitizer
#   OUT/probes/NAME.txt         the probes named in PROBES (default
#                               tma_fault_probe) from ../probes
#   OUT/calibration/            the timing calibration programs named in
#                               CALIB (default: wgmma tma cluster)
# A copy of the working tree is changed (pending programs moved into
# tests/cuda/programs, the patch applied); the repository's own files are not.
# Usage: tests/gpu_truth/pending/record_pending.sh [OUT]
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$(realpath -m "${1:-${OUT:?usage: record_pending.sh OUT}}")"
mkdir -p "$out/programs"
work="$(mktemp -d)"
mkdir -p "$work/tree"
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$work/tree" -xf -
cd "$work/tree" || exit 1
status=0
pending=(tma_copies mma_sparse_forms)
for name in "${pending[@]}"; do cp "tests/gpu_truth/pending/$name.cu" tests/cuda/programs/; done
patch -p0 <tests/gpu_truth/pending/tensormap_replace_fault_last.patch || status=1
RECORD=programs ONLY="${pending[*]} tensormap_replace" bash tests/gpu_truth/record.sh "$out/sem" "$out/programs" ||
  status=1
# tma_copies' 2D u8 loads fault on the GPU (recorded/): the sanitizer
# names the instruction, case by case.
if command -v compute-sanitizer >/dev/null 2>&1; then
  tests/cuda/programs/build_program.sh tests/cuda/programs/tma_copies.cu "$work/tma_copies" &&
    timeout 300 compute-sanitizer --print-limit 20 "$work/tma_copies" >"$out/tma_copies.sanitizer.txt" 2>&1
fi
mkdir -p "$out/probes"
for probe in ${PROBES-tma_fault_probe}; do
  flags=$(sed -n 's#^// nvcc flags: ##p' "tests/gpu_truth/probes/$probe.cu" | head -1)
  # shellcheck disable=SC2086
  if nvcc -arch=sm_90a -O2 -o "$work/$probe" "tests/gpu_truth/probes/$probe.cu" $flags >"$out/probes/$probe.build.txt" 2>&1; then
    timeout 300 "$work/$probe" >"$out/probes/$probe.txt" 2>&1 || status=1
  else
    status=1
  fi
done
if [ -n "${CALIB-wgmma tma cluster}" ]; then
  CALIB_PROGRAMS="${CALIB-wgmma tma cluster}" bash tests/timing/calibration/measure.sh "$out/calibration" >/dev/null || status=1
fi
echo "record_pending: status $status; outputs in $out"
exit $status
