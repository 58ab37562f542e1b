#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool): builds every program in
# tests/cuda/semantics with nvcc for the local GPU and records its output as
# NAME.expected, the ground truth tests/sim/gpu_truth_test.cpp compares the
# simulator against; then does the same for the API programs in
# tests/cuda/programs (built with -cudart shared, a directory with -rdc=true;
# standard output plus the exit code, as run_program_test.sh compares them;
# each built as build_program.sh builds it).
# Also records the GPU's name and driver beside them.
# Usage: tests/gpu_truth/record.sh [OUT_DIR [PROGRAMS_OUT_DIR]]
#   (default: the source folders). RECORD=programs records only the programs,
#   RECORD=semantics only the semantics programs; ONLY="NAME ..." only the
#   programs named.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
src="$root/tests/cuda/semantics"
out="${1:-$src}"
programs="$root/tests/cuda/programs"
programs_out="${2:-$programs}"
mkdir -p "$out" "$programs_out"
work="$(mktemp -d)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > "$out/recorded_on.txt"
"$nvcc" --version | tail -2 >> "$out/recorded_on.txt"
status=0
for cu in "$src"/*.cu; do
  [ "${RECORD:-all}" = programs ] && break
  name="$(basename "$cu" .cu)"
  if "$nvcc" -arch=sm_90 -I"$root/tests/cuda" -o "$work/$name" "$cu" && "$work/$name" > "$work/$name.expected"; then
    cp "$work/$name.expected" "$out/$name.expected"
    echo "recorded $name ($(wc -l < "$out/$name.expected") cases)"
  else
    echo "FAILED: $name" >&2
    status=1
  fi
done
[ "${RECORD:-all}" = semantics ] && exit $status
cp "$out/recorded_on.txt" "$programs_out/recorded_on.txt"
for source in "$programs"/*.cu "$programs"/*/; do
  [ -e "$source" ] || continue
  source="${source%/}"
  name="$(basename "$source" .cu)"
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
  if ! "$programs/build_program.sh" "$source" "$work/$name"; then
    echo "FAILED to build: $name" >&2
    status=1
    continue
  fi
  code=0
  (cd "$work" && timeout 600 "./$name" >"$name.expected") || code=$?
  echo "exit code: $code" >>"$work/$name.expected"
  cp "$work/$name.expected" "$programs_out/$name.expected"
  echo "recorded program $name ($(wc -l <"$programs_out/$name.expected") lines)"
done
exit $status
