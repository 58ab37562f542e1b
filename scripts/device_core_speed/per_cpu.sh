#!/usr/bin/env bash
# Whether the device machine's CPUs differ in how fast they reach memory:
# its topology as the guest sees it, then, pinned to each CPU in turn,
# chase.c's memory latency and bandwidth and the one-thread n-body timing
# run (kernel_throughput_benchmark), twice round. Run through the `run`
# tool after `scripts/device_core_speed/run.sh --build` and
# `scripts/device_host_threads.sh --pack`, with carry ["build/core_speed",
# "build/bin/kernel_throughput_benchmark", "build/devlibs", "build/cuda_ptx"],
# as `scripts/device_core_speed/per_cpu.sh`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/device_core_speed/nbody_pinned.sh"
lscpu
ls /sys/devices/system/node | grep node || true
cat /sys/devices/system/node/node*/cpulist 2>/dev/null || true
for round in 1 2; do
  for cpu in $(seq 0 $(($(nproc) - 1))); do
    chase=$(taskset -c "$cpu" "$root/build/core_speed/chase")
    nbody="$(nbody_pinned "$cpu")ms"
    echo "round $round cpu $cpu: chase $chase; n-body $nbody"
  done
done
