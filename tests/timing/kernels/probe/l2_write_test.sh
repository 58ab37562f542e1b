#!/usr/bin/env bash
# The L2's stores and write-back against the H100: l2_write_probe.cu
# (recorded with record_l2_write.sh into h100/l2_write.ncu.csv) runs under
# `ptxsim run --timing` with the default preset, and l2_write_match.py holds
# each launch's cycles and the DRAM bytes the L2 writes back (docs/timing/
# accuracy.md, "Stores and write-back").
# Usage: l2_write_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" l2_write_probe "$@"
(cd "$work" && "$ptxsim" run --timing --cache-control all --stats "$work/l2_write.jsonl" -- ./l2_write_probe >"$work/l2_write.stdout")
diff "$here/h100/l2_write.stdout" "$work/l2_write.stdout"
python3 "$here/l2_write_match.py" "$work/l2_write.jsonl" "$here/h100/l2_write.ncu.csv" "$here/h100/l2_write.stdout"
