#!/usr/bin/env bash
# Whether the device machine's cores are its own: the wall time of a fixed
# integer loop (spin.c, built static here: the device has no compiler
# packages to rely on) as 1, 2, 4, 8 and 16 copies run at once, three
# times; each line lists every copy's milliseconds. Run through the `run`
# tool with `carry: ["build/core_speed"]` after
# `scripts/device_core_speed/run.sh --build`, as
# `scripts/device_core_speed/run.sh build/core_speed`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${1:-}" = "--build" ]; then
  mkdir -p "$here/../../build/core_speed"
  gcc -O2 -static -o "$here/../../build/core_speed/spin" "$here/spin.c"
  gcc -O2 -static -o "$here/../../build/core_speed/chase" "$here/chase.c"
  exit 0
fi
spin="$(realpath "${1:?usage: run.sh --build | run.sh BUILT_DIR}")/spin"
for rep in 1 2 3; do
  for n in 1 2 4 8 16; do
    times=$(for i in $(seq "$n"); do "$spin" & done; wait)
    echo "copies $n: $(echo $times | tr '\n' ' ')"
  done
done
