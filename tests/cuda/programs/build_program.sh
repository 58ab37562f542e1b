#!/usr/bin/env bash
# Builds one CUDA program of tests/cuda/programs the way its tests and its GPU
# recording expect: a directory is all its .cu files with -rdc=true; a file
# named compute60_*.cu is built for compute_60 (build_compute60.sh); any other
# file with `nvcc -cudart shared -arch=sm_90`, plus any flags a line
# `// nvcc flags: ...` in the source names (for programs that test what a
# flag changes, such as --default-stream per-thread), for the architecture a
# line `// nvcc arch: ...` names (sm_90a for the sm_90a-only instructions). With
# PTXSIM_TEST_CUDART=static, the runtime is linked in (nvcc's default) instead
# (not for compute60_* programs, which replay nvcc's steps for a shared one).
# Usage: build_program.sh SOURCE OUTPUT
set -euo pipefail
source=$1
output=$2
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
cudart="${PTXSIM_TEST_CUDART:-shared}"
if [ -d "$source" ]; then
  "$nvcc" -cudart "$cudart" -arch=sm_90 -rdc=true -o "$output" "$source"/*.cu
elif [[ "$(basename "$source")" == compute60_* ]]; then
  "$here/build_compute60.sh" "$source" "$output"
else
  read -r -a extra <<<"$(sed -n 's|^// nvcc flags: ||p' "$source")"
  arch="$(sed -n 's|^// nvcc arch: ||p' "$source")"
  # -arch=sm_90a would also build compute_90 PTX, which cannot hold sm_90a's
  # instructions: name the virtual and the real architecture.
  target=(-arch=sm_90)
  [ -n "$arch" ] && target=(-gencode "arch=compute_${arch#sm_},code=[${arch},compute_${arch#sm_}]")
  "$nvcc" -cudart "$cudart" "${target[@]}" "${extra[@]}" -o "$output" "$source"
fi
