#!/usr/bin/env bash
# Records l2_write_probe.cu on the GPU machine with Nsight Compute (caches
# flushed before each launch, the GPU's own clock): per launch, in launch
# order, cycles and DRAM bytes (OUTDIR/l2_write.ncu.csv), then the L2's
# write lookups (OUTDIR/l2_write.lts.ncu.csv; this step may fail on an ncu
# without those names, which record.log says).
# Usage: record_l2_write.sh OUTDIR
set -uo pipefail
source "$(dirname "$0")/probe_env.sh" l2_write_probe "${1:-}"
profile() {  # NAME METRICS
  (cd "$bin" && ncu --csv --print-units base --clock-control none --metrics "$2" \
    --log-file "$out/$1.log" ./l2_write_probe >"$out/$1.stdout" 2>&1)
  echo "$1: exit code $?" >>"$out/record.log"
  grep -v '^==' "$out/$1.log" >"$out/$1.ncu.csv"
}
profile l2_write gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
profile l2_write.lts lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum
rm -rf "$bin"
