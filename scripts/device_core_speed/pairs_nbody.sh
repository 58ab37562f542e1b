#!/usr/bin/env bash
# Which of the device machine's CPUs share a physical core: the one-thread
# n-body timing run (kernel_throughput_benchmark) pinned to CPU 0 alongside
# a copy pinned to CPU k, for every k, twice round, against CPU 0 alone.
# A CPU whose copy slows CPU 0's by half or more shares its core. Run
# through the `run` tool after `scripts/device_host_threads.sh --pack`,
# with carry ["build/bin/kernel_throughput_benchmark", "build/devlibs",
# "build/cuda_ptx"], as `scripts/device_core_speed/pairs_nbody.sh`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/device_core_speed/nbody_pinned.sh"
one() { echo -n "cpu$1 $(nbody_pinned "$1")"; }
for round in 1 2; do
  echo "round $round alone: $(one 0)"
  for k in $(seq 1 15); do
    echo "round $round with $k: $(one 0 & one "$k" & wait)"
  done
done
