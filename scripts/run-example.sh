#!/usr/bin/env bash
# The README's main job: set-up, then the bundled CUDA example
# (examples/vector_add.cu) built by nvcc as it builds by default (the CUDA
# runtime linked into the program) and run
# unmodified on the simulator (default GPU preset) through `ptxsim run
# --timing`, printing the program's output, a statistics summary with the
# launch's simulated cycles and the JSON record of its launch (the timing
# model's figures included). Without nvcc, runs the same kernel from the
# checked-in PTX through the C++ host API instead (timed too), and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
nvcc="$(command -v nvcc || true)"
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  echo "run-example: nvcc not found; running examples/vector_add.ptx through the host API instead"
  build/bin/vector_add_example examples/vector_add.ptx "$@"
  exit
fi
mkdir -p build/examples
"$nvcc" -arch=sm_90 -o build/examples/vector_add examples/vector_add.cu
build/bin/ptxsim run --timing --summary --stats build/examples/vector_add.stats.json -- build/examples/vector_add "$@"
echo "statistics (build/examples/vector_add.stats.json):"
cat build/examples/vector_add.stats.json
