#!/usr/bin/env bash
# The timing model's speed-up by host threads, measured on the device
# machine (16 cores) with the binaries built here: run through the `run`
# tool with `carry: ["build/bin/kernel_throughput_benchmark", "build/devlibs",
# "build/cuda_ptx"]`
# after scripts/device_host_threads.sh --pack, which copies the benchmark's
# shared libraries (the device has none of the build's packages) into
# build/devlibs. Writes OUTDIR/host_threads.json (Google Benchmark's JSON)
# and OUTDIR/machine.txt; the figures are in docs/timing/host-threads.md;
# OUTDIR/no_run_ahead.json the same kernels with the SMs kept to every
# window (PTXSIM_BENCH_RUN_AHEAD=0). Then, with
# the host-time profile on (PTXSIM_BENCH_HOST_PROFILE=1, slower, so apart),
# OUTDIR/host_profile.json on one thread and on every core:
# scripts/host_profile_table.py turns it into the table of where the time
# goes (phase A's wall as run against the prediction shows the dispatch cost).
# --paired OUTDIR [ROUNDS] instead alternates one thread and every core,
# one repetition each, ROUNDS times (5): OUTDIR/paired.N.T.json, round N
# on T threads (1, or 0: every core);
# scripts/paired_efficiency.py gives each round's efficiency and their
# median, which this machine's drift between runs (its one-thread speed
# varies by up to half from one run to the next) moves less than a single
# pair of runs minutes apart. With a second benchmark binary after ROUNDS
# (another commit's, carried too), each round runs it the same way right
# after this one's, into OUTDIR/other/: an A/B on the same loan, whose
# cores' speed drifts between loans more than a change moves it.
# Usage: device_host_threads.sh --pack | device_host_threads.sh [--paired] OUTDIR [ROUNDS [OTHER_BENCH]]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/build/bin/kernel_throughput_benchmark"
libs="$root/build/devlibs"
if [ "${1:-}" = "--pack" ]; then
  rm -rf "$libs" && mkdir -p "$libs"
  ldd "$bench" | awk '/=> \// {print $3}' | grep -v -E '/(libc|libm)\.so' | xargs -I{} cp -L {} "$libs/"
  du -sh "$libs"
  exit 0
fi
paired=0
if [ "${1:-}" = "--paired" ]; then
  paired=1
  shift
fi
out="${1:?usage: device_host_threads.sh --pack | device_host_threads.sh [--paired] OUTDIR [ROUNDS]}"
mkdir -p "$out"
kernels='(vector_add_1M|reduce_f32_4M|sgemm_256|transpose_1024|nbody_2048)'
# The benchmark with the PTX and libraries carried here, its JSON to a file.
run_bench() {
  PTXSIM_CUDA_PTX_DIR="$root/build/cuda_ptx" LD_LIBRARY_PATH="$libs" "$bench" --benchmark_out_format=json "$@"
}
other="${3:-}"
if [ -n "$other" ]; then mkdir -p "$out/other"; fi
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Socket'; date -u; } >"$out/machine.txt"
if [ "$paired" = 1 ]; then
  for round in $(seq "${2:-5}"); do
    for threads in 1 0; do
      run_bench --benchmark_filter="$kernels/threads:$threads/simt:1/timing:1" \
        --benchmark_out="$out/paired.$round.$threads.json" >/dev/null
    done
    [ -n "$other" ] || continue
    for threads in 1 0; do
      bench="$other" run_bench --benchmark_filter="$kernels/threads:$threads/simt:1/timing:1" \
        --benchmark_out="$out/other/paired.$round.$threads.json" >/dev/null
    done
  done
  date -u >>"$out/machine.txt"
  exit 0
fi
run_bench --benchmark_filter="$kernels/threads:[0-9]+/simt:1/timing:1" \
  --benchmark_repetitions=3 --benchmark_out="$out/host_threads.json"
# The same on every core with every SM kept to every window (no running
# ahead: LaunchOptions::runAhead), to see what running ahead gives.
PTXSIM_BENCH_RUN_AHEAD=0 run_bench --benchmark_filter="$kernels/threads:(1|0)/simt:1/timing:1" \
  --benchmark_repetitions=3 --benchmark_out="$out/no_run_ahead.json"
PTXSIM_BENCH_HOST_PROFILE=1 run_bench --benchmark_filter="$kernels/threads:(1|0)/simt:1/timing:1" \
  --benchmark_out="$out/host_profile.json"
