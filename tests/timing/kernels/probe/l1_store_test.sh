#!/usr/bin/env bash
# The L1's store hits against the H100: l1_store_probe.cu (recorded with
# record_l1_store.sh into h100/l1_store.ncu.csv) runs under
# `ptxsim run --timing` with the default preset, and l1_store_match.py
# requires 25 of its 27 launches within 10 points of the H100's L1 hit rate
# (l1.store_fill 64 matches 25; 0, which counts every later store a hit,
# matches 22).
# Usage: l1_store_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" l1_store_probe "$@"
(cd "$work" && "$ptxsim" run --timing --cache-control all --stats "$work/l1_store.jsonl" -- ./l1_store_probe >/dev/null)
python3 "$here/l1_store_match.py" "$work/l1_store.jsonl" "$here/h100/l1_store.ncu.csv" 25
