#!/usr/bin/env bash
# The L2's DRAM fetch granularity against the H200: l2_fetch_probe.cu
# (recorded with record_l2_fetch.sh into h200/l2_fetch.ncu.csv; the H200
# has the H100's L2) runs under `ptxsim run --timing` with the default
# preset, and l2_fetch_match.py requires the DRAM bytes read and L2 read
# hits of each launch under cudaLimitMaxL2FetchGranularity 32, 64 and 128,
# set by the program, within 2% (launches 4 to 15), and under the default
# limit (launches 0 to 3: the H200's 64, and the presets' since 2026-11-28),
# and the limits it reports as the H200 reported them.
# Usage: l2_fetch_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" l2_fetch_probe "$@"
(cd "$work" && "$ptxsim" run --timing --cache-control all --stats "$work/l2_fetch.jsonl" -- ./l2_fetch_probe >"$work/l2_fetch.stdout")
diff "$here/h200/l2_fetch.stdout" "$work/l2_fetch.stdout"
python3 "$here/l2_fetch_match.py" "$work/l2_fetch.jsonl" "$here/h200/l2_fetch.ncu.csv" 0
