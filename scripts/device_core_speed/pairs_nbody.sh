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
one() {
  PTXSIM_CUDA_PTX_DIR="$root/build/cuda_ptx" LD_LIBRARY_PATH="$root/build/devlibs" taskset -c "$1" \
    "$root/build/bin/kernel_throughput_benchmark" --benchmark_filter='nbody_2048/threads:1/simt:1/timing:1' \
    --benchmark_format=csv 2>/dev/null | awk -F, -v cpu="$1" '/nbody/ {printf "cpu%d %d ", cpu, $3}'
}
for round in 1 2; do
  echo "round $round alone: $(one 0)"
  for k in $(seq 1 15); do
    echo "round $round with $k: $(one 0 & one "$k" & wait)"
  done
done
