#!/usr/bin/env bash
# Runs `ptxsim check --executable` on the sm_90 PTX of the corpus (nvcc's
# own output for the project's CUDA sources) and compares the set of
# instruction forms the simulator refuses (form: reason) with
# tests/corpus/unsupported_sm90.txt:
# a new gap fails the test, and so does a listed gap that has been closed
# (so the list stays exact). The rdc_*.ptx of a directory are linked into one
# module first (ptxsim check --link), as nvlink links -rdc=true code; a link
# error shows up as a difference too. Usage: check_executable.sh PTXSIM CORPUS_DIR LIST
set -euo pipefail
ptxsim=$1
dir=$2
list=$3
mapfile -t all < <(find "$dir" \( -path '*/plain/sm_90/*' -o -path '*/fallback/*' \) -name '*.ptx' | grep -v '_G\.ptx$' | sort)
# The rdc_*.ptx of one directory are one -rdc=true program: checked linked.
files=() rdc_dirs=()
for f in "${all[@]}"; do
  case "$(basename "$f")" in
    rdc_*) [[ " ${rdc_dirs[*]} " == *" $(dirname "$f") "* ]] || rdc_dirs+=("$(dirname "$f")") ;;
    *) files+=("$f") ;;
  esac
done
if [ ${#all[@]} -eq 0 ]; then
  echo "corpus: no sm_90 PTX files under $dir" >&2
  exit 1
fi
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
# Exit status 1 is expected while gaps remain; only the list matters.
{
  "$ptxsim" check --executable "${files[@]}" || true
  for d in "${rdc_dirs[@]}"; do "$ptxsim" check --executable --link "$d"/rdc_*.ptx || true; done
} 2>&1 >/dev/null |
  sed -n -E -e 's/.*unsupported instruction ([^ ]+) at PTX line [0-9]+( \([^)]*\))?(: (.*))?$/\1: \4/p' \
    -e 's/.*: error: ((undefined reference|multiple definition|cannot link) .*)$/link: \1/p' | sort -u >"$actual" || true
if diff -u <(grep -v '^#' "$list" | sed '/^$/d' | sort -u) "$actual"; then
  echo "corpus: ${#all[@]} sm_90 files; the simulator refuses exactly the $(wc -l <"$actual") listed instruction forms"
else
  echo "corpus: the instructions the simulator refuses differ from $list (- listed, + found)" >&2
  exit 1
fi
