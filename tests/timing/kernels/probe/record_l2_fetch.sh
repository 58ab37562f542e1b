#!/usr/bin/env bash
# Records l2_fetch_probe.cu on the GPU machine with Nsight Compute (caches
# flushed before each launch, the GPU's own clock): per launch, in launch
# order, DRAM bytes read and the SMs' L2 read sectors and hits
# (OUTDIR/l2_fetch.ncu.csv), and the probe's own lines (l2_fetch.stdout).
# Usage: record_l2_fetch.sh OUTDIR
set -uo pipefail
source "$(dirname "$0")/probe_env.sh" l2_fetch_probe "${1:-}"
(cd "$bin" && ncu --csv --print-units base --clock-control none --cache-control all \
  --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,gpc__cycles_elapsed.max \
  --log-file "$out/l2_fetch.log" ./l2_fetch_probe >"$out/l2_fetch.stdout" 2>&1)
echo "l2_fetch: exit code $?" >>"$out/record.log"
grep -v '^==' "$out/l2_fetch.log" >"$out/l2_fetch.ncu.csv"
rm -rf "$bin"
