#!/usr/bin/env bash
# Whether 16 single-thread simulations slow each other down on the device
# machine: the one-thread n-body timing run (kernel_throughput_benchmark)
# alone, then as 16 processes at once, three rounds; each line lists every
# process's ms per launch. What the cores share (caches, memory, power)
# bounds the speed-up of one simulation over 16 threads as much. Run
# through the `run` tool after `scripts/device_host_threads.sh --pack`,
# with carry ["build/bin/kernel_throughput_benchmark", "build/devlibs",
# "build/cuda_ptx"], as `scripts/device_core_speed/concurrent_nbody.sh`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/device_core_speed/nbody_pinned.sh"
for round in 1 2 3; do
  echo "round $round alone: $(nbody_pinned $((round % 16)) 3)"
  echo "round $round 16 at once: $(for cpu in $(seq 0 15); do nbody_pinned "$cpu" 3 & done; wait)"
done
