#!/usr/bin/env bash
# The README's main job: set-up, then the bundled example on the simulator.
# Until kernels execute (issue 3), the main job validates the bundled PTX
# and prints its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build/bin/ptxsim check examples/vector_add.ptx
