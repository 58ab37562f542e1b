#!/usr/bin/env bash
# Runs `ptxsim check --executable` on the sm_90 PTX of the corpus (nvcc's
# own output for the project's CUDA sources) and compares the set of
# instruction forms the simulator refuses (form: reason) with
# tests/corpus/unsupported_sm90.txt:
# a new gap fails the test, and so does a listed gap that has been closed
# (so the list stays exact). Usage: check_executable.sh PTXSIM CORPUS_DIR LIST
set -euo pipefail
ptxsim=$1
dir=$2
list=$3
mapfile -t files < <(find "$dir" \( -path '*/plain/sm_90/*' -o -path '*/fallback/*' \) -name '*.ptx' | grep -v '_G\.ptx$' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "corpus: no sm_90 PTX files under $dir" >&2
  exit 1
fi
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
# Exit status 1 is expected while gaps remain; only the list matters.
"$ptxsim" check --executable "${files[@]}" 2>&1 >/dev/null |
  sed -n -E 's/.*unsupported instruction ([^ ]+) at PTX line [0-9]+( \([^)]*\))?(: (.*))?$/\1: \4/p' | sort -u >"$actual" || true
if diff -u <(grep -v '^#' "$list" | sed '/^$/d' | sort -u) "$actual"; then
  echo "corpus: ${#files[@]} sm_90 files; the simulator refuses exactly the $(wc -l <"$actual") listed instruction forms"
else
  echo "corpus: the instructions the simulator refuses differ from $list (- listed, + found)" >&2
  exit 1
fi
