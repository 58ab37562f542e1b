# Sourced by the accuracy tests (accuracy_test.sh, accuracy_h200_test.sh):
# runs the kernel suite under `ptxsim run --timing` and gathers what
# `ptxsim compare` reads.
#   run_suite PTXSIM WORK_DIR [ptxsim run options...]: builds each program of
#     programs.txt into WORK_DIR, runs it (caches flushed before each kernel,
#     as ncu measured them), requires its output to be h100/NAME.expected
#     exactly (the H200's is the same), and writes WORK_DIR/all.jsonl, the
#     programs' statistics in order; returns 1 on any difference.
#   joined_csv DIR SUFFIX: the programs' DIR/NAME.SUFFIX Nsight Compute
#     CSVs on stdout as one, its header once.
suite_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mapfile -t suite_programs < <(grep -v '^#' "$suite_dir/programs.txt")

run_suite() {
  local ptxsim="$1" work="$2" status=0 name start
  shift 2
  rm -rf "$work"
  mkdir -p "$work"
  for name in "${suite_programs[@]}"; do
    "$suite_dir/build.sh" "$name" "$work/$name" || return 1
    start=$SECONDS
    (cd "$work" && "$ptxsim" run --timing --cache-control all "$@" --stats "$work/$name.jsonl" -- "./$name" \
      >"$name.out" 2>"$name.err")
    echo "exit code: $?" >>"$work/$name.out"
    if diff -u "$suite_dir/h100/$name.expected" "$work/$name.out"; then
      echo "$name: output identical to the GPU's ($((SECONDS - start)) s under --timing)"
    else
      echo "$name: output differs from the GPU's (above: - GPU, + ptxsim); ptxsim's stderr:" >&2
      cat "$work/$name.err" >&2
      status=1
    fi
  done
  for name in "${suite_programs[@]}"; do cat "$work/$name.jsonl"; done >"$work/all.jsonl"
  return $status
}

joined_csv() {
  local name
  for name in "${suite_programs[@]}"; do cat "$1/$name.$2"; done |
    awk 'NR == 1 { header = $0 } NR == 1 || $0 != header { print }'
}
