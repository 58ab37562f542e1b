#!/usr/bin/env bash
# Records l1_store_probe.cu on the GPU machine with Nsight Compute: each
# launch's L1 store hit rate and sector lookups, in launch order.
# Usage: record_l1_store.sh OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(realpath -m "${1:?usage: record_l1_store.sh OUTDIR}")"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
bin="$(mktemp -d)"
nvcc -arch=sm_90 -O3 -o "$bin/l1_store_probe" "$here/l1_store_probe.cu"
metrics=l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_lookup_hit.sum,l1tex__t_sectors_lookup_miss.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
(cd "$bin" && ncu --csv --print-units base --metrics "$metrics" --log-file "$out/l1_store.log" ./l1_store_probe \
  >"$out/l1_store.stdout" 2>&1)
grep -v '^==' "$out/l1_store.log" >"$out/l1_store.ncu.csv"
rm -rf "$bin"
