#!/usr/bin/env bash
# Records l1_store_probe.cu on the GPU machine with Nsight Compute: each
# launch's L1 store hit rate and sector lookups, in launch order.
# Usage: record_l1_store.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/probe_env.sh" l1_store_probe "${1:-}"
metrics=l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_lookup_hit.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
(cd "$bin" && ncu --csv --print-units base --metrics "$metrics" --log-file "$out/l1_store.log" ./l1_store_probe \
  >"$out/l1_store.stdout" 2>&1)
grep -v '^==' "$out/l1_store.log" >"$out/l1_store.ncu.csv"
rm -rf "$bin"
