# Sourced by the device scripts beside it: nbody_pinned CPU [REPETITIONS]
# prints the ms per launch of kernel_throughput_benchmark's one-thread
# n-body timing run pinned to CPU, each followed by a space. Needs $root
# (the checkout) and the files `scripts/device_host_threads.sh --pack`
# makes.
nbody_pinned() {
  PTXSIM_CUDA_PTX_DIR="$root/build/cuda_ptx" LD_LIBRARY_PATH="$root/build/devlibs" taskset -c "$1" \
    "$root/build/bin/kernel_throughput_benchmark" --benchmark_filter='nbody_2048/threads:1/simt:1/timing:1' \
    --benchmark_repetitions="${2:-1}" --benchmark_format=csv 2>/dev/null |
    awk -F, '/nbody.*real_time"/ {printf "%d ", $3}'
}
