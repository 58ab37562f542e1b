#!/usr/bin/env bash
# Records store_spread_probe.cu on the GPU machine: the warps' stamps of one
# plain run (OUTDIR/store_spread.bin.gz), then the same program under Nsight
# Compute for its L1 store hit rate and cycles (OUTDIR/store_spread.ncu.csv).
# Usage: record_store_spread.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/probe_env.sh" store_spread_probe "${1:-}" -cudart shared
"$bin/store_spread_probe" "$out/store_spread.bin" >"$out/store_spread.stdout"
gzip -9 -f "$out/store_spread.bin"
metrics=gpc__cycles_elapsed.max,l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct
metrics+=,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
(cd "$bin" && ncu -k regex:transposeNaiveStamped --csv --print-units base --print-kernel-base mangled --clock-control none \
  --metrics "$metrics" --log-file "$out/store_spread.log" ./store_spread_probe "$bin/ncu.bin" >/dev/null 2>&1)
grep -v '^==' "$out/store_spread.log" >"$out/store_spread.ncu.csv"
rm -rf "$bin"
