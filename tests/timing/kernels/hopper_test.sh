#!/usr/bin/env bash
# The Hopper kernels (hopper.cu) until their GPU recording joins the suite:
# each must match its host reference under `ptxsim run`, and under
# `ptxsim run --timing` too, with the same output lines.
# Usage: hopper_test.sh PTXSIM WORK_DIR
set -uo pipefail
ptxsim=$1
work=$2
here="$(cd "$(dirname "$0")" && pwd)"
timed=(wmma_gemm ws_gemm pingpong_gemm cooperative_gemm cluster_mc_gemm flash_attention)
mkdir -p "$work"
"$here/build.sh" hopper "$work/hopper" || exit 1
cd "$work" || exit 1
"$ptxsim" run -- ./hopper >hopper.out 2>hopper.err
code=$?
cat hopper.out
if [ "$code" -ne 0 ] || [ "$(grep -c ' OK$' hopper.out)" -ne 6 ]; then
  echo "hopper: exit code $code, not 6 kernels OK; ptxsim's stderr:" >&2
  cat hopper.err >&2
  exit 1
fi
# The H100's output (h100/hopper.expected): the same result hashes.
if ! diff -u <(grep -v '^exit code' "$here/h100/hopper.expected") hopper.out; then
  echo "hopper: the results differ from the H100's (above)" >&2
  exit 1
fi
"$ptxsim" run --timing -- ./hopper "${timed[@]}" >hopper.timing.out 2>hopper.timing.err
code=$?
if [ "$code" -ne 0 ] || ! diff -u hopper.out hopper.timing.out; then
  echo "hopper under --timing: exit code $code, or its lines differ from the functional run's (above); stderr:" >&2
  cat hopper.timing.err >&2
  exit 1
fi
echo "hopper: 6 kernels match their host references and the H100's results, under --timing too"
