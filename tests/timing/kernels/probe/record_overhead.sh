#!/usr/bin/env bash
# Records launch_overhead.cu on the GPU machine with Nsight Compute, caches
# flushed before each kernel (ncu's default) and not, at the GPU's own clock.
# Usage: record_overhead.sh OUTDIR
set -u
source "$(dirname "$0")/probe_env.sh" launch_overhead "${1:-}" -cudart shared
metrics=gpc__cycles_elapsed.max,sm__cycles_active.avg,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
for cache in all none; do
  (cd "$bin" && ncu --csv --print-units base --print-kernel-base mangled --clock-control none \
    --cache-control "$cache" --metrics "$metrics" --log-file "$out/overhead.cache_$cache.log" ./launch_overhead \
    >"$out/overhead.cache_$cache.stdout" 2>&1)
  grep -v '^==' "$out/overhead.cache_$cache.log" >"$out/overhead.cache_$cache.ncu.csv"
done
rm -rf "$bin"
