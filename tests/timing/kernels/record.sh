#!/usr/bin/env bash
# Records the timing-accuracy kernel suite on the GPU machine (H100, nvcc and
# Nsight Compute installed; needs no network). For every program of
# programs.txt it writes into OUTDIR:
#   NAME.expected        its standard output plus "exit code: N" (the
#                        functional truth, as tests/cuda/programs/*.expected)
#   NAME.ncu.csv         Nsight Compute's per-kernel metrics (--csv, base
#                        units, mangled names), one row per kernel and metric
#   NAME.stalls.ncu.csv  the warp stall reasons, from a second ncu run so a
#                        metric name this ncu lacks cannot cost the main CSV
#   NAME.tensor.ncu.csv  the tensor pipes' use (wgmma's and mma.sync's), where
#                        this Nsight Compute has the metrics
#   NAME.caches.ncu.csv  where the L1's and the L2's sector lookups come from
#                        and which hit (a third run, informative: what the
#                        hit-rate metrics count)
#   NAME.sass.txt.gz     the SASS ptxas made of it (cuobjdump -sass): what the
#                        H100 ran, to hold the PTX's issue order against
#   NAME.*.log           ncu's own messages (kept apart from the CSVs)
# and clocks.txt (the clocks ncu ran at and nvidia-smi's), device.txt (date,
# GPU, driver, nvcc, ncu), record.log (every step and its exit code).
# ncu runs with --clock-control none, so the SM clock is the GPU's own
# (1980 MHz on this H100 under load, the clock the calibration and the
# preset model; ncu's default would lock it to the base clock), and keeps
# its default --cache-control all (caches flushed before every kernel: the
# simulator's `--cache-control all`); it replays each kernel once per metric
# pass. Takes about 2-4 minutes on an H100.
# RECORD_CACHES_ONLY=1 records only NAME.caches.ncu.csv and NAME.sass.txt.gz,
# RECORD_SASS_ONLY=1 only NAME.sass.txt.gz (the rest stays as recorded).
# RECORD_PROGRAMS=FILE records the programs FILE lists instead of
# programs.txt's (programs_hopper.txt: the Hopper kernels, not yet in the suite).
# Usage: tests/timing/kernels/record.sh OUTDIR
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(realpath -m "${1:?usage: record.sh OUTDIR}")"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
log="$out/record.log"
: >"$log"
status=0
note() { echo "$*" | tee -a "$log"; }
fail() {
  note "FAILED: $*"
  status=1
}

metrics=(
  gpc__cycles_elapsed.max sm__cycles_elapsed.avg sm__cycles_active.avg
  smsp__inst_executed.sum smsp__thread_inst_executed.sum
  sm__warps_active.avg.pct_of_peak_sustained_active
  l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
  dram__bytes_read.sum dram__bytes_write.sum gpu__time_duration.sum
  sm__cycles_elapsed.avg.per_second dram__cycles_elapsed.avg.per_second
)
cache_metrics=(
  lts__t_sectors.sum lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum
  lts__t_sectors_srcunit_tex.sum lts__t_sectors_srcunit_tex_lookup_hit.sum lts__t_sectors_srcunit_tex_lookup_miss.sum
  lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
  lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum
  l1tex__t_sectors.sum l1tex__t_sectors_lookup_hit.sum
  l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
)
# The tensor pipes' use (wgmma: gmma; mma.sync and wmma: hmma), in a pass
# of their own that may fail without failing the recording: their names are
# not checked on every Nsight Compute.
tensor_metrics=(
  sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
  sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
  sm__inst_executed_pipe_tensor_op_gmma.sum sm__inst_executed_pipe_tensor_op_hmma.sum
)
stall_reasons=(long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle barrier
  no_instruction not_selected branch_resolving membar)
stall_metrics=()
fallback_stall_metrics=()  # the per-issue family of Nsight Compute's WarpStateStats section
for reason in "${stall_reasons[@]}"; do
  stall_metrics+=("smsp__average_warp_latency_issue_stalled_$reason.ratio")
  fallback_stall_metrics+=("smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio")
done
join() {
  local IFS=,
  echo "$*"
}

# ncu writes its report to --log-file, the program's output goes elsewhere;
# the CSV keeps only the report's lines (not ncu's "==PROF==" messages).
profile() {  # profile NAME TAG METRICS...
  local name=$1 tag=$2
  shift 2
  local raw="$out/$name.$tag.log"
  (cd "$bin" && timeout 300 ncu --csv --print-units base --print-kernel-base mangled --clock-control none --log-file "$raw" \
    --metrics "$(join "$@")" "./$name" >"$out/$name.$tag.stdout" 2>&1)
  local code=$?
  note "ncu $tag $name: exit code $code"
  # Replays restore memory between passes, so the results must not change.
  if ! sed '$d' "$out/$name.expected" | diff -q - "$out/$name.$tag.stdout" >/dev/null; then
    note "NOTE: $name's output under ncu ($name.$tag.stdout) differs from $name.expected"
  fi
  grep -v '^==' "$raw" >"$out/$name.$tag.csv" 2>/dev/null
  [ "$code" -eq 0 ] && [ -s "$out/$name.$tag.csv" ]
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1)"
  echo "nvcc: $(nvcc --version 2>&1 | tail -2 | tr '\n' ' ')"
  echo "ncu: $(ncu --version 2>&1 | tail -1)"
  echo "ncu options: --clock-control none --cache-control all (default) --replay-mode kernel (default)"
} >"$out/device.txt"
note "$(cat "$out/device.txt")"

bin="$(mktemp -d)"
mapfile -t programs < <(grep -v '^#' "${RECORD_PROGRAMS:-$here/programs.txt}")
for name in "${programs[@]}"; do
  if "$here/build.sh" "$name" "$bin/$name" >>"$log" 2>&1; then
    note "built $name"
    cuobjdump -sass "$bin/$name" | gzip -n >"$out/$name.sass.txt.gz" || fail "cuobjdump -sass of $name"
  else
    fail "build of $name (see record.log)"
  fi
done

for name in "${programs[@]}"; do
  [ -x "$bin/$name" ] || continue
  [ "${RECORD_SASS_ONLY:-0}" = 1 ] && continue
  if [ "${RECORD_CACHES_ONLY:-0}" = 1 ]; then
    profile "$name" caches.ncu "${cache_metrics[@]}" || note "NOTE: cache metrics of $name (see $name.caches.ncu.log)"
    continue
  fi
  code=0
  (cd "$bin" && timeout 120 "./$name" >"$out/$name.expected" 2>"$out/$name.stderr") || code=$?
  echo "exit code: $code" >>"$out/$name.expected"
  note "recorded $name.expected: exit code $code, $(($(wc -l <"$out/$name.expected") - 1)) kernel lines"
  [ "$code" -eq 0 ] || fail "$name exited with $code (see $name.expected and $name.stderr)"

  start=$SECONDS
  if profile "$name" ncu "${metrics[@]}"; then
    note "$name.ncu.csv: $(grep -c gpc__cycles_elapsed.max "$out/$name.ncu.csv") kernels, $((SECONDS - start)) s"
  else
    fail "ncu metrics of $name (see $name.ncu.log and $name.ncu.stdout)"
  fi
  start=$SECONDS
  if profile "$name" stalls.ncu "${stall_metrics[@]}"; then
    note "$name.stalls.ncu.csv: $((SECONDS - start)) s"
  elif profile "$name" stalls_per_issue.ncu "${fallback_stall_metrics[@]}"; then
    # Not a failure of the recording: the stall ratios are informative, not gated.
    rm -f "$out/$name.stalls.ncu.csv"
    note "NOTE: this ncu lacks the stall metrics by their latency names (see $name.stalls.ncu.log);" \
      "recorded the per-issue family in $name.stalls_per_issue.ncu.csv instead"
  else
    fail "stall metrics of $name, both families (see $name.stalls*.log)"
  fi
  profile "$name" caches.ncu "${cache_metrics[@]}" || note "NOTE: cache metrics of $name (see $name.caches.ncu.log)"
  profile "$name" tensor.ncu "${tensor_metrics[@]}" || note "NOTE: tensor metrics of $name (see $name.tensor.ncu.log)"
done

{
  echo "# the clocks ncu ran each kernel at (sm__cycles_elapsed.avg.per_second,"
  echo "# dram__cycles_elapsed.avg.per_second; base units: Hz), then nvidia-smi's"
  for name in "${programs[@]}"; do
    grep -h -e 'sm__cycles_elapsed.avg.per_second' -e 'dram__cycles_elapsed.avg.per_second' \
      "$out/$name.ncu.csv" 2>/dev/null
  done
  echo
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm --format=csv 2>&1
  echo
  nvidia-smi -q -d CLOCK 2>&1
} >"$out/clocks.txt"

rm -rf "$bin"
note "record.sh finished: $([ $status -eq 0 ] && echo all steps succeeded || echo SOME STEPS FAILED, see above)"
exit $status
