#!/usr/bin/env bash
# Records the ISA conformance suite on a GPU, in three steps:
#   record.sh prepare      here (needs build/bin/ptxsim_conformance, ptxas and nvcc): keeps the
#                          instruction table's candidate forms that ptxas accepts for sm_90
#                          (h100/forms.txt; the rejected ones with ptxas's message in
#                          h100/ptxas_rejected.txt), writes their modules and inputs, compiles the
#                          modules with ptxas and builds the driver-API runner, all in build/conformance
#   record.sh run OUT      on the GPU machine (the device tool, carrying build/conformance): runs
#                          every form, writes OUT/outputs.bin and OUT/recorded_on.txt
#   record.sh store DIR    here: compresses DIR/outputs.bin into h100/outputs.bin.zst and keeps
#                          DIR/recorded_on.txt
# The test isa_conformance_h100 then replays h100/ without a GPU.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/build/conformance"
cuda=/usr/local/cuda/bin
case "${1:-}" in
  prepare)
    "$root/build/bin/ptxsim_conformance" filter "$cuda/ptxas" "$here/h100/forms.txt" "$here/h100/ptxas_rejected.txt"
    rm -rf "$work"
    "$root/build/bin/ptxsim_conformance" generate "$here/h100/forms.txt" "$work"
    for ptx in "$work"/*.ptx; do "$cuda/ptxas" -arch=sm_90 -o "${ptx%.ptx}.cubin" "$ptx"; done
    "$cuda/nvcc" -O2 -o "$work/gpu_runner" "$here/gpu_runner.cpp" -lcuda -L/usr/local/cuda/lib64/stubs
    echo "prepared $(wc -l <"$work/manifest.txt") forms in $work"
    ;;
  run)
    out="${2:?usage: record.sh run OUT}"
    mkdir -p "$out"
    "$work/gpu_runner" "$work" "$out/outputs.bin"
    { nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1 | tr -d '\n'
      echo ", $(date -u +%Y-%m-%d)"; } >"$out/recorded_on.txt"
    gzip -9 -f "$out/outputs.bin"
    ;;
  store)
    dir="${2:?usage: record.sh store DIR}"
    # The device returns it gzipped (it may lack zstd).
    raw="$(mktemp)"
    trap 'rm -f "$raw"' EXIT
    if [ -f "$dir/outputs.bin" ]; then cp "$dir/outputs.bin" "$raw"; else gzip -dc "$dir/outputs.bin.gz" >"$raw"; fi
    zstd -q -19 -f "$raw" -o "$here/h100/outputs.bin.zst"
    cp "$dir/recorded_on.txt" "$here/h100/recorded_on.txt"
    echo "stored $(stat -c %s "$here/h100/outputs.bin.zst") bytes in $here/h100/outputs.bin.zst"
    ;;
  *) echo "usage: record.sh prepare | run OUT | store DIR" >&2; exit 2 ;;
esac
