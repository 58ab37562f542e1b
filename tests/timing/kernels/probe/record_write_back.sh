#!/usr/bin/env bash
# Records write_back_probe.cu on the GPU machine with Nsight Compute (caches
# flushed before each launch, the GPU's own clock): per launch, in launch
# order, cycles, DRAM bytes and the L2's lookups by source
# (OUTDIR/write_back.ncu.csv), and the program's output.
# Usage: record_write_back.sh OUTDIR
set -uo pipefail
source "$(dirname "$0")/probe_env.sh" write_back_probe "${1:-}"
metrics=gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
(cd "$bin" && ncu --csv --print-units base --clock-control none --metrics "$metrics" \
  --log-file "$out/write_back.log" ./write_back_probe >"$out/write_back.stdout" 2>&1)
echo "write_back: exit code $?" >>"$out/record.log"
grep -v '^==' "$out/write_back.log" >"$out/write_back.ncu.csv"
rm -rf "$bin"
