#!/usr/bin/env bash
# Produces the benchmark's large PTX input (10.8 MB) from large_module.cu
# with nvcc; without nvcc, decompresses the checked-in output of the same
# command (large_module.ptx.zst, made with nvcc 13.0).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ]; then
  "$nvcc" -arch=sm_90 -ptx "$here/large_module.cu" -o "$out"
else
  echo "nvcc not found: using the checked-in large_module.ptx.zst" >&2
  zstd -q -d -f "$here/large_module.ptx.zst" -o "$out"
fi
