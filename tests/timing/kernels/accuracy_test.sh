#!/usr/bin/env bash
# The timing-accuracy regression test: every program of the kernel suite
# runs under `ptxsim run --timing`; its output must be the H100's exactly
# (h100/NAME.expected), and `ptxsim compare` holds the simulated statistics
# against the H100's Nsight Compute recording (h100/NAME.ncu.csv) with the
# checks below. record.sh makes the recording on the GPU machine.
# Usage: accuracy_test.sh PTXSIM WORK_DIR
set -uo pipefail

# Issue 15's bar for cycles (MAPE <= 15%, correlation >= 0.95, no kernel
# off by more than 40%) is met: 2026-11-28, cycle MAPE 6.8%, correlation
# 0.9996, worst kernel gemm_naive +29.6% (8.6% and sgemm_tiled +38.1%
# before a global load could pass a shared store in the issue order); DRAM
# bytes read: MAPE 0.05%, every kernel within 1.2% (bar 10%; 0.9% and
# scan_totals +19% before a flushed launch read its own code, ptxas's SASS
# from the cubin, besides its 2304 bytes of parameters and constant bank;
# 2.5% before the L2 fetched 64-byte blocks, as the H100 does: gather
# -23.5%); L1
# hit rates within 8.2 points (MAPE 5.5%; transpose_naive the worst, since
# a store within l1.store_fill cycles of the store that allocated its sector
# counts as a miss, as on the H100's probe: probe/l1_store_test.sh; 13.2
# before; texture fetches see the block-linear layout of CUDA arrays and
# count lookups per quad: tex2d_box_filter 90.8% as on the H100, from 75.2%);
# the SMs' own L2 hit rates are within 7.3 points since the L2's request
# coalescer, below. Shared-memory bank conflicts (bitonic_sort, the one
# kernel with many): loads exact, stores +10.9% since ptxas's pairs of
# adjacent 32-bit accesses count as one (sim/src/timing/shared_pairs.h;
# +34.6% and +38.6% before; the stores' MAPE also holds
# reduce_1block's 1 against 0). DRAM bytes in all (read and written,
# dram__bytes.sum, which compare adds up): MAPE 0.36%, every kernel within
# 3.1% (scatter -3.05%, the bytes it writes back). Not met yet: DRAM bytes written: 0
# where the H100 writes back 40-320 kB in five kernels (docs/timing/accuracy.md, "The accuracy bar"). The
# checks guard today's figures so that the test fails when accuracy drops.
# Tighten them as the model improves. (lts__t_sector_hit_rate.pct is guarded loosely: the
# H100's counts some 44 thousand sectors of other units' in every launch;
# the L2's hit rate less that background is held below.)
checks=(
  "gpc__cycles_elapsed.max:mape<=7.5"
  "gpc__cycles_elapsed.max:corr>=0.995"
  "gpc__cycles_elapsed.max:max_error<=33"
  "l1tex__t_sector_hit_rate.pct:max_points<=8.7"
  "lts__t_sector_hit_rate.pct:max_points<=52"
  "dram__bytes_read.sum:mape<=0.2"
  "dram__bytes_read.sum:max_error<=2"
  "dram__bytes.sum:mape<=0.5"
  "dram__bytes.sum:max_error<=4"
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum:mape<=1"
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum:mape<=56"
)

# The SMs' own L2 hit rate (below), in points: within 7.31 today (MAPE
# 3.4%, correlation 0.997; histogram_shared the worst; 12.7 before the
# L2's request coalescer, l2.coalesce_window_cycles), against the H100's
# lookups from its SMs (NAME.caches.ncu.csv, recorded 2026-11-25).
l2_sm_hit_points=7.8

ptxsim="$(realpath "${1:?usage: accuracy_test.sh PTXSIM WORK_DIR}")"
work="$(realpath -m "${2:?usage: accuracy_test.sh PTXSIM WORK_DIR}")"
here="$(cd "$(dirname "$0")" && pwd)"
recording="$here/h100"
source "$here/suite_runner.sh"

for name in "${suite_programs[@]}"; do
  if [ ! -f "$recording/$name.expected" ] || [ ! -f "$recording/$name.ncu.csv" ]; then
    echo "no H100 recording in tests/timing/kernels/h100 (run record.sh on the device):" \
      "$name.expected or $name.ncu.csv is missing" >&2
    exit 1
  fi
done

run_suite "$ptxsim" "$work" || exit 1
joined_csv "$recording" ncu.csv >"$work/all.ncu.csv"

check_args=()
for check in "${checks[@]}"; do check_args+=(--check "$check"); done
"$ptxsim" compare --ncu "$work/all.ncu.csv" --stats "$work/all.jsonl" --html "$work/accuracy.html" "${check_args[@]}"
code=$?
[ $code -eq 0 ] || echo "ptxsim compare exit code $code: the timing accuracy is below the guards (the failed checks" \
  "are above; the page: $work/accuracy.html) or compare could not run" >&2

# The SMs' own L2 hit rate, from the third recording (NAME.caches.ncu.csv):
# the H100's lts__t_sector_hit_rate.pct above also counts the traffic
# between its L2 partitions, some 21.3 thousand sectors of it in every
# launch whatever the kernel, which the model has not. Since the model
# keeps partition copies (l2.partition_copies, l2.partition_sm_run): MAPE
# 3.4%, within 7.3 points (4.5% before); the sectors exchanged between the
# partitions (srcunit_ltcfabric) are printed, the H100's with those 21.3
# thousand in them (docs/timing/accuracy.md, "Partition copies").
joined_csv "$recording" caches.ncu.csv >"$work/caches.ncu.csv"
"$ptxsim" compare --ncu "$work/caches.ncu.csv" --stats "$work/all.jsonl" \
  --metrics lts__t_sectors_srcunit_tex_lookup_hit_rate.pct lts__t_sectors_srcunit_tex_lookup_hit.sum \
  lts__t_sectors_srcunit_tex_lookup_miss.sum lts__t_sectors_srcunit_ltcfabric.sum \
  lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum \
  --check "lts__t_sectors_srcunit_tex_lookup_hit_rate.pct:max_points<=${l2_sm_hit_points}" \
  --check "lts__t_sectors_srcunit_tex_lookup_hit_rate.pct:mape<=3.5"
caches_code=$?
[ $caches_code -eq 0 ] || echo "ptxsim compare exit code $caches_code: the SMs' L2 hit rate is below its guard" >&2

# The L2's hit rate with every unit's lookups, of what each launch adds to
# the H100's idlest (scan_totals: one CTA, 64 sectors of its own): every
# launch there also counts some 44 thousand sectors, nearly all hits, from
# units besides the SMs (21.3 thousand between the partitions), which an
# empty launch on the device's H200 does not (4 thousand, 96 between the
# partitions: probe/h200/l2_baseline.*; docs/timing/accuracy.md, "The L2's background").
# Hit over hit and miss counts, since ncu's own rate comes from another
# replay pass. 2026-11-29: within 8.3 points (MAPE 5.9%, correlation
# 0.993; sgemm_tiled -8.3, gemm_naive -8.2) over 26 launches: not
# mandelbrot and reduce_1block, whose misses or hits are fewer than the
# idle launch's.
"$ptxsim" compare --ncu "$work/caches.ncu.csv" --stats "$work/all.jsonl" --background scanTotalsSingleBlockKernel \
  --metrics lts__t_sectors_lookup_hit_rate.pct --check "lts__t_sectors_lookup_hit_rate.pct:max_points<=9"
background_code=$?
[ $background_code -eq 0 ] || echo "ptxsim compare exit code $background_code: the L2's hit rate less the" \
  "background is below its guard" >&2

# Shared atomics' bank conflicts (op_atom), recorded apart on an H200 (the
# H100's SM; h200/README.md): histogram_shared's 67 081, exactly.
joined_csv "$here/h200" shared.ncu.csv >"$work/shared.ncu.csv"
"$ptxsim" compare --ncu "$work/shared.ncu.csv" --stats "$work/all.jsonl" \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
  --check "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum:max_error<=0"
shared_code=$?
[ $shared_code -eq 0 ] || echo "ptxsim compare exit code $shared_code: shared atomics' conflicts are off" >&2
[ $code -eq 0 ] && [ $caches_code -eq 0 ] && [ $background_code -eq 0 ] && [ $shared_code -eq 0 ]
