#!/usr/bin/env bash
# Regenerates tests/cuda/ptx_fallback from the CUDA sources with nvcc, for
# machines without nvcc. Run after changing any .cu here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
cd "$here"
rm -rf ptx_fallback
# programs/ are whole programs built by their own tests; cdp/ kernels launch
# kernels, which needs separate compilation (-rdc=true), as CMakeLists.txt does.
find . -name '*.cu' -not -path './ptx_fallback/*' -not -path './programs/*' | sed 's|^\./||' | sort |
  while read -r src; do
    rdc=()
    [[ "$src" == cdp/* ]] && rdc=(-rdc=true)
    mkdir -p "ptx_fallback/$(dirname "$src")"
    "$nvcc" -arch=sm_90 -ptx "${rdc[@]}" -I"$here" -o "ptx_fallback/${src%.cu}.ptx" "$src"
  done
