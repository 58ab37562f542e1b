#!/usr/bin/env bash
# The L2's write-back under random reads and one-word stores against the
# H200: write_back_probe.cu (recorded with record_write_back.sh into
# h200/write_back.ncu.csv) runs under `ptxsim run --timing --config h200`,
# and write_back_match.py holds each launch's DRAM bytes read and prints
# the bytes written and the cycles (docs/timing/accuracy.md, "Stores and write-back").
# Usage: write_back_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" write_back_probe "$@"
(cd "$work" && "$ptxsim" run --timing --config h200 --cache-control all --stats "$work/write_back.jsonl" \
  -- ./write_back_probe no-wait >"$work/write_back.stdout")
# The run leaves the waiting launches out (no-wait): every other line matches.
diff <(grep -v ", wait [1-9]" "$here/h200/write_back.stdout") "$work/write_back.stdout"
python3 "$here/write_back_match.py" "$work/write_back.jsonl" "$work/write_back.stdout" "$here/h200/write_back.ncu.csv" \
  "$here/h200/write_back.stdout"
