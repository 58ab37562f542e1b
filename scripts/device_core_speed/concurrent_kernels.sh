#!/usr/bin/env bash
# What the device machine's cores lose when all 16 are busy, against what
# one simulation on 16 threads loses: per kernel of the speed-up table,
# ROUNDS (3) times, its one-thread timing run alone, then 16 copies at once
# (one a core, each its own process, nothing shared but the machine), then
# one run on 16 threads; each line lists the ms per launch. One thread's
# time over 16 x the 16 threads' is the efficiency; the copies' mean time
# over 16 x the 16 threads' is that efficiency against the busy machine's
# own throughput (1 where the simulation loses nothing to its threads).
# scripts/concurrent_efficiency.py turns the lines into the table. Run
# through the `run` tool after `scripts/device_host_threads.sh --pack`,
# with carry ["build/bin/kernel_throughput_benchmark", "build/devlibs",
# "build/cuda_ptx"], as `scripts/device_core_speed/concurrent_kernels.sh`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/device_core_speed/nbody_pinned.sh"
for round in $(seq "${1:-3}"); do
  for kernel in vector_add_1M reduce_f32_4M sgemm_256 transpose_1024 nbody_2048; do
    echo "round $round $kernel alone: $(kernel_pinned $kernel $((round % 16)))"
    echo "round $round $kernel 16 at once: $(for cpu in $(seq 0 15); do kernel_pinned $kernel "$cpu" & done; wait)"
    echo "round $round $kernel 16 threads: $(kernel_pinned $kernel 0-15 1 0)"
  done
done
