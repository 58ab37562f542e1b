#!/usr/bin/env bash
# What the L2 does with the dirty lines it writes back (kept, or evicted),
# against the H200: write_back_fate_probe.cu (recorded with
# record_write_back_fate.sh into h200/write_back_fate.ncu.csv, the caches
# not flushed between launches) runs under `ptxsim run --timing --config
# h200`, and write_back_fate_match.py holds the DRAM bytes each case
# writes back and its read-back reads (docs/timing/accuracy.md, "Stores and write-back").
# Usage: write_back_fate_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" write_back_fate_probe "$@"
(cd "$work" && "$ptxsim" run --timing --config h200 --cache-control none --stats "$work/write_back_fate.jsonl" \
  -- ./write_back_fate_probe >"$work/write_back_fate.stdout")
diff "$here/h200/write_back_fate.stdout" "$work/write_back_fate.stdout"
python3 "$here/write_back_fate_match.py" "$work/write_back_fate.jsonl" "$here/h200/write_back_fate.ncu.csv" \
  "$here/h200/write_back_fate.stdout"
