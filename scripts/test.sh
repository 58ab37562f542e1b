#!/usr/bin/env bash
# The README's test command: set-up (packages, configure, build), then the
# whole test suite. Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
ctest --test-dir build --output-on-failure -j"${PTXSIM_JOBS:-2}" "$@"
