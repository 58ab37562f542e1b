# Sourced by the probe recording scripts (record_*.sh) after their `set`:
# sets `here` (this folder) and `out` (the script's OUTDIR, made), puts
# nvcc on the PATH, and compiles PROBE.cu into the scratch folder `bin`.
# Usage, in a script: source "$(dirname "$0")/probe_env.sh" PROBE "${1:-}" [nvcc flags...]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(realpath -m "${2:?usage: $(basename "$0") OUTDIR}")"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
bin="$(mktemp -d)"
nvcc "${@:3}" -arch=sm_90 -O3 -o "$bin/$1" "$here/$1.cu" || exit 1
