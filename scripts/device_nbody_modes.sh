#!/usr/bin/env bash
# n-body's one-thread and every-core times (ms), six runs each, as is, with
# address-space randomisation off (setarch -R) and with mimalloc's large OS
# pages: whether the one-thread time's spread on the device machine comes
# from the process's layout. Run on the device machine like
# device_host_threads.sh (after its --pack, the same carry), from the
# repository root. Usage: scripts/device_nbody_modes.sh
set -uo pipefail
root=$(pwd); libs=$root/build/devlibs
run() { PTXSIM_CUDA_PTX_DIR=$root/build/cuda_ptx LD_LIBRARY_PATH=$libs "$@" $root/build/bin/kernel_throughput_benchmark \
  --benchmark_filter="nbody_2048/threads:$t/simt:1/timing:1" --benchmark_format=csv 2>/dev/null | grep "^\"kernelThroughput" | awk -F, '{printf "%s ", $3}'; }
cat /sys/kernel/mm/transparent_hugepage/enabled
for t in 1 0; do
  echo; echo "threads $t"
  echo -n "default: "; for i in 1 2 3 4 5 6; do run env; done; echo
  echo -n "no-aslr: "; for i in 1 2 3 4 5 6; do run setarch -R env; done; echo
  echo -n "mi-large: "; for i in 1 2 3 4 5 6; do run env MIMALLOC_LARGE_OS_PAGES=1; done; echo
done
