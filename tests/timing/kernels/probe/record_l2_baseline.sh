#!/usr/bin/env bash
# Records which units look sectors up in the L2 during launches that do
# (almost) nothing: launch_overhead.cu's empty grids and one-word stores,
# with the caches flushed before each launch (ncu's default) and not. Every
# srcunit the chip has (from `ncu --query-metrics`), its lookups, hits and
# misses, and the L2's sectors by operation, at the GPU's own clock.
# l2_baseline.py prints what the recording shows.
# Usage: record_l2_baseline.sh OUTDIR
set -u
source "$(dirname "$0")/probe_env.sh" launch_overhead "${1:-}" -cudart shared
ncu --query-metrics --chip gh100 >"$bin/query.txt" 2>&1
units=$(grep -o '^lts__t_sectors_srcunit_[a-z0-9]*' "$bin/query.txt" | sort -u)
echo "$units" >"$out/l2_baseline.units.txt"
metrics=gpc__cycles_elapsed.max,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
for unit in $units; do
  metrics+=",$unit.sum,${unit}_lookup_hit.sum,${unit}_lookup_miss.sum"
done
echo "$metrics" >"$out/l2_baseline.metrics.txt"
for cache in all none; do
  (cd "$bin" && ncu --csv --print-units base --print-kernel-base mangled --clock-control none \
    --cache-control "$cache" --metrics "$metrics" --log-file "$out/l2_baseline.cache_$cache.log" ./launch_overhead \
    >"$out/l2_baseline.cache_$cache.stdout" 2>&1)
  echo "l2_baseline cache $cache: exit code $?" >>"$out/record.log"
  grep -v '^==' "$out/l2_baseline.cache_$cache.log" >"$out/l2_baseline.cache_$cache.ncu.csv"
done
rm -rf "$bin"
