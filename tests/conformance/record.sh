#!/usr/bin/env bash
# Records the ISA conformance suite on a GPU, in three steps, for one of two
# sets (SET: "register", the default, or "memory"):
#   register  the register-to-register forms: h100/forms.txt, h100/outputs.bin.zst,
#             h100/ptxas_rejected.txt, h100/recorded_on.txt, h100/known_differences.txt
#   memory    atom/red on one memory word per thread and the warp collectives:
#             the same files with the prefix memory_ (h100/memory_forms.txt, ...)
#   record.sh prepare [SET]    here (needs build/bin/ptxsim_conformance, ptxas and nvcc): keeps the
#                              set's candidate forms that ptxas accepts for sm_90 (the rejected ones
#                              with ptxas's message in the set's ptxas_rejected.txt), writes their
#                              modules and inputs, compiles the modules with ptxas and builds the
#                              driver-API runner, all in build/conformance (build/conformance_memory)
#                              (the inputs gzipped and the .ptx removed, so the directory fits
#                              what the device tool carries: 37 MB for the register set)
#   record.sh run OUT [SET]    on the GPU machine (the device tool, carrying that directory): runs
#                              every form, writes OUT/outputs.bin.gz.part_* (15 MB pieces, what
#                              the device tool returns) and OUT/recorded_on.txt
#   record.sh store DIR [SET]  here: compresses DIR/outputs.bin(.gz) into the set's outputs.bin.zst
#                              and keeps DIR/recorded_on.txt
# The tests isa_conformance_h100 and isa_conformance_h100_memory then replay h100/ without a GPU.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cuda=/usr/local/cuda/bin
set_of() {
  case "${1:-register}" in
    register) prefix=""; work="$root/build/conformance" ;;
    memory) prefix="memory_"; work="$root/build/conformance_memory" ;;
    *) echo "record.sh: unknown set '$1' (register or memory)" >&2; exit 2 ;;
  esac
}
case "${1:-}" in
  prepare)
    set_of "${2:-}"
    "$root/build/bin/ptxsim_conformance" filter "$cuda/ptxas" "$here/h100/${prefix}forms.txt" \
      "$here/h100/${prefix}ptxas_rejected.txt"
    rm -rf "$work"
    "$root/build/bin/ptxsim_conformance" generate "$here/h100/${prefix}forms.txt" "$work"
    for ptx in "$work"/*.ptx; do "$cuda/ptxas" -arch=sm_90 -o "${ptx%.ptx}.cubin" "$ptx" && rm "$ptx"; done
    gzip -f "$work/inputs.bin"
    "$cuda/nvcc" -O2 -o "$work/gpu_runner" "$here/gpu_runner.cpp" -lcuda -L/usr/local/cuda/lib64/stubs
    echo "prepared $(wc -l <"$work/manifest.txt") forms in $work"
    ;;
  run)
    out="${2:?usage: record.sh run OUT [SET]}"
    set_of "${3:-}"
    mkdir -p "$out"
    [ -f "$work/inputs.bin" ] || gzip -dc "$work/inputs.bin.gz" >"$work/inputs.bin"
    "$work/gpu_runner" "$work" "$out/outputs.bin"
    { nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1 | tr -d '\n'
      echo ", $(date -u +%Y-%m-%d)"; } >"$out/recorded_on.txt"
    gzip -6 -f "$out/outputs.bin"
    (cd "$out" && split -b 15000000 outputs.bin.gz outputs.bin.gz.part_ && rm outputs.bin.gz)
    ;;
  store)
    dir="${2:?usage: record.sh store DIR [SET]}"
    set_of "${3:-}"
    # The device returns it gzipped (it may lack zstd).
    raw="$(mktemp)"
    trap 'rm -f "$raw"' EXIT
    if [ -f "$dir/outputs.bin" ]; then cp "$dir/outputs.bin" "$raw"
    elif [ -f "$dir/outputs.bin.gz" ]; then gzip -dc "$dir/outputs.bin.gz" >"$raw"
    else cat "$dir"/outputs.bin.gz.part_* | gzip -dc >"$raw"; fi
    zstd -q -19 -f "$raw" -o "$here/h100/${prefix}outputs.bin.zst"
    cp "$dir/recorded_on.txt" "$here/h100/${prefix}recorded_on.txt"
    echo "stored $(stat -c %s "$here/h100/${prefix}outputs.bin.zst") bytes in $here/h100/${prefix}outputs.bin.zst"
    ;;
  *) echo "usage: record.sh prepare [SET] | run OUT [SET] | store DIR [SET]   (SET: register or memory)" >&2; exit 2 ;;
esac
