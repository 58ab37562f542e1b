#!/usr/bin/env bash
# Records write_back_fate_probe.cu on the GPU machine with Nsight Compute:
# the caches not flushed between launches (the probe empties the L2 itself)
# and every pass a run of the whole program (application replay), so each
# launch finds the L2 as the one before left it. Per launch, in launch
# order: cycles, DRAM bytes read and written, the SMs' L2 lookups
# (OUTDIR/write_back_fate.ncu.csv), and the program's output.
# Usage: record_write_back_fate.sh OUTDIR
set -uo pipefail
source "$(dirname "$0")/probe_env.sh" write_back_fate_probe "${1:-}"
metrics=gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
(cd "$bin" && ncu --csv --print-units base --clock-control none --cache-control none --replay-mode application \
  --metrics "$metrics" --log-file "$out/write_back_fate.log" ./write_back_fate_probe \
  >"$out/write_back_fate.stdout" 2>&1)
echo "write_back_fate: exit code $?" >>"$out/record.log"
grep -v '^==' "$out/write_back_fate.log" >"$out/write_back_fate.ncu.csv"
rm -rf "$bin"
