#!/usr/bin/env bash
# Turns what tests/gpu_truth/mufu_tables.sh brought back from the GPU machine
# (tables_*.tar.xz) into the compressed tables the simulator embeds.
# Usage: sim/data/mufu/import.sh DIR_WITH_TABLES_TAR_XZ
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for archive in "$1"/tables_*.tar.xz; do xz -dc "$archive" | tar -C "$work" -xf -; done
for table in ex2_pos ex2_neg lg2_e0 lg2_em1 rcp sqrt_e0 sqrt_e1 rsqrt_e0 rsqrt_e1; do
  [ "$(stat -c %s "$work/$table.diff")" = $((4 << 23)) ] || { echo "$table.diff: not 2^23 entries" >&2; exit 1; }
  "$here/encode_diff8.py" <"$work/$table.diff" | zstd -q -19 -f -o "$here/$table.diff8.zst"
done
