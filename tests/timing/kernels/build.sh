#!/usr/bin/env bash
# Builds one program of the timing-accuracy kernel suite the way both the
# H100 recording and the regression test do (as tests/cuda/programs are built:
# nvcc -cudart shared -arch=sm_90).
# Usage: build.sh NAME OUTPUT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
if [ ! -x "$nvcc" ]; then
  echo "build.sh: nvcc is required to build the kernel suite and was not found" >&2
  exit 1
fi
"$here/../../cuda/programs/build_program.sh" "$here/$1.cu" "$2"
