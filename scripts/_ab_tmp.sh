set -u
libs=build/devlibs
for n in 16 17 15 16 17 15; do
  echo "== every core = $n"
  PTXSIM_BENCH_EVERY_CORE=$n PTXSIM_CUDA_PTX_DIR=build/cuda_ptx LD_LIBRARY_PATH=$libs build/bin/kernel_throughput_benchmark --benchmark_filter='nbody_2048/threads:0/simt:1/timing:1' --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 | grep median | cut -c1-150
done
PTXSIM_CUDA_PTX_DIR=build/cuda_ptx LD_LIBRARY_PATH=$libs build/bin/kernel_throughput_benchmark --benchmark_filter='nbody_2048/threads:1/simt:1/timing:1' --benchmark_repetitions=5 2>&1 | grep real_time | cut -c1-150
