# Sourced by the device scripts beside it: kernel_pinned KERNEL CPUS
# [REPETITIONS] [THREADS] prints the ms per launch of
# kernel_throughput_benchmark's timing run of KERNEL (vector_add_1M,
# reduce_f32_4M, ...) on THREADS host threads (1; 0: every core) pinned to
# CPUS (taskset's list), each followed by a space; nbody_pinned CPU
# [REPETITIONS] that of n-body on one thread. Needs $root (the checkout)
# and the files `scripts/device_host_threads.sh --pack` makes.
kernel_pinned() {
  PTXSIM_CUDA_PTX_DIR="$root/build/cuda_ptx" LD_LIBRARY_PATH="$root/build/devlibs" taskset -c "$2" \
    "$root/build/bin/kernel_throughput_benchmark" --benchmark_filter="$1/threads:${4:-1}/simt:1/timing:1" \
    --benchmark_repetitions="${3:-1}" --benchmark_format=csv 2>/dev/null |
    awk -F, '/timing:1\/real_time"/ {printf "%d ", $3}'
}
nbody_pinned() { kernel_pinned nbody_2048 "$@"; }
