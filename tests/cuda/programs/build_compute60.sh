#!/usr/bin/env bash
# Builds a CUDA program as `nvcc -cudart shared -arch=compute_60` did before
# CUDA 13: its fat binary holds PTX for `.target sm_60` and nothing else.
# nvcc 13 no longer accepts compute_60, so this replays nvcc's own steps for
# compute_75 (`--dryrun`) and retargets the PTX to sm_60 (`.version 7.0`,
# what CUDA 11 emitted) before fatbinary embeds it as an sm_60 PTX image.
# The device code must not use anything newer than sm_60 offers.
# Usage: build_compute60.sh SOURCE.cu OUTPUT
set -euo pipefail
source="$(realpath "$1")"
output="$(realpath -m "$2")"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
# nvcc prints each step after "#$ "; its variable lines that hold several
# quoted words are nvcc's notation, not shell, and the steps repeat their values.
steps=$("$nvcc" -cudart shared -arch=compute_75 -code=compute_75 --dryrun -o "$output" "$source" 2>&1 |
  sed -n 's/^#\$ //p' | grep -Ev '^[A-Za-z_]+=( |.*" )' | sed 's/^rm /rm -f /')
retarget='sed -i -e "s/^\\.target sm_75$/.target sm_60/" -e "s/^\\.version .*/.version 7.0/" "\2"'
steps=$(printf '%s\n' "$steps" |
  sed -E "s|^(fatbinary .*\"--image3=kind=ptx,)sm=75,file=([^\"]*)\"|$retarget\n\1sm=60,file=\2\"|")
if ! grep -q 'sm=60,file=' <<<"$steps"; then
  echo "build_compute60: nvcc's steps for $source embed no PTX image to retarget" >&2
  exit 1
fi
cd "$(dirname "$source")"
PATH="$(dirname "$nvcc"):$PATH" bash -e -c "$steps"
