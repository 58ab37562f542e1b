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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
actual="$work/actual"
# What `ptxsim check --executable` writes (runtime/src/check.cpp): a summary
# line on stdout for each module that loads; on stderr "NAME: error: ..."
# lines: a refusal ("unsupported instruction FORM at PTX line N (FILE:LINE):
# why") or, with --link, a link error (undefined reference, multiple
# definition, cannot link). Its exit status is 0 when nothing was reported,
# 1 when anything was (refusals, but also a parse error or an unreadable
# file), 2 for a bad log level, CLI11's codes (100 and up) for a usage error
# and 128+N for a crash. So status 1 with only refusal and link lines is the
# expected state while gaps remain; anything else fails here, and the lines
# that are not refusals (or, failing those, its stderr) are shown.
refusal='^.*: error: unsupported instruction [^ ]+ at PTX line [0-9]+( \([^)]*\))?(: .*)?$'
link_error='^.*: error: (undefined reference|multiple definition|cannot link) .*$'
summary='^.*: PTX [0-9]+\.[0-9]+, target sm_[0-9]+[a-z]?, [0-9]+ kernels?, [0-9]+ functions?, [0-9]+ instructions$'
unexpected=0
odd_lines() { grep -Ev "$@" || [ $? -eq 1 ]; }  # grep's status 1 only says there are none
check_executable() {  # check_executable ARGS...: one run of `ptxsim check --executable ARGS`
  local status=0 what=""
  "$ptxsim" check --executable "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
  odd_lines -e "$refusal" -e "$link_error" "$work/stderr" >"$work/odd"
  odd_lines -e "$summary" "$work/stdout" >>"$work/odd"
  if [ $status -ne 0 ] && [ $status -ne 1 ]; then
    what="exit status $status (expected 0, or 1 with refusals and link errors only)"
  elif [ -s "$work/odd" ]; then
    what="lines that are neither refusals, link errors nor summaries"
  elif [ $status -eq 1 ] && [ ! -s "$work/stderr" ]; then
    what="exit status 1 with nothing on stderr"
  elif [ $status -eq 0 ] && [ -s "$work/stderr" ]; then
    what="exit status 0 with errors on stderr"
  fi
  if [ -n "$what" ]; then
    echo "corpus: \`ptxsim check --executable\` ($# arguments, the first $1): $what:" >&2
    if [ -s "$work/odd" ]; then head -n 60 "$work/odd" >&2; else head -n 60 "$work/stderr" >&2; fi
    unexpected=1
  fi
  cat "$work/stderr" >>"$work/all_stderr"
}
: >"$work/all_stderr"
check_executable "${files[@]}"
for d in "${rdc_dirs[@]}"; do check_executable --link "$d"/rdc_*.ptx; done
[ $unexpected -eq 0 ] || exit 1
sed -n -E -e 's/.*unsupported instruction ([^ ]+) at PTX line [0-9]+( \([^)]*\))?(: (.*))?$/\1: \4/p' \
  -e 's/.*: error: ((undefined reference|multiple definition|cannot link) .*)$/link: \1/p' "$work/all_stderr" |
  sort -u >"$actual"
if diff -u <(grep -v '^#' "$list" | sed '/^$/d' | sort -u) "$actual"; then
  echo "corpus: ${#all[@]} sm_90 files; the simulator refuses exactly the $(wc -l <"$actual") listed instruction forms"
else
  echo "corpus: the instructions the simulator refuses differ from $list (- listed, + found)" >&2
  exit 1
fi
