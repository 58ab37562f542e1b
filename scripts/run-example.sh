#!/usr/bin/env bash
# The README's main job: set-up, then the bundled example
# (examples/vector_add.cu, compiled to examples/vector_add.ptx by nvcc)
# executed on the simulator with the default GPU preset, printing its
# results and the launch's statistics. Running unmodified nvcc programs
# through the cudart shim (ptxsim run) is issue 4.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build/bin/ptxsim check examples/vector_add.ptx
build/bin/vector_add_example examples/vector_add.ptx "$@"
