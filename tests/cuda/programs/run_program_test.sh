#!/usr/bin/env bash
# One CUDA program of tests/cuda/programs, end to end: built with
# `nvcc -cudart shared` (or, with PTXSIM_TEST_CUDART=static, with the runtime
# linked in) by build_program.sh (a directory: all its .cu files,
# with -rdc=true; compute60_*.cu: PTX for compute_60), run
# under `ptxsim run`, its standard output and exit code compared with
# NAME.expected, recorded on a real GPU by tests/gpu_truth/record.sh.
# RUN_FLAGS: further flags of `ptxsim run` (e.g. --timing: the results must
# not change under the timing model), after any a line `// ptxsim flags: ...`
# in the source names (e.g. the preset NVIDIA's libraries need).
# A program ptxsim cannot run yet says so in a line
# `// ptxsim refuses: TEXT`: the test then holds ptxsim to refusing it
# loudly (TEXT on its stderr, a non-zero exit) instead of to the GPU's output.
# Usage: run_program_test.sh PTXSIM SOURCE WORK_DIR [RUN_FLAGS]
set -uo pipefail
ptxsim=$1
source=$2
work=$3
name="$(basename "$source" .cu)"
source_flags=""
[ -f "$source" ] && source_flags="$(sed -n 's|^// ptxsim flags: ||p' "$source")"
read -r -a run_flags <<<"$source_flags ${4:-}"
expected="$(dirname "$source")/$name.expected"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
if [ ! -x "$nvcc" ]; then
  echo "$name: nvcc is required to build the program and was not found" >&2
  exit 1
fi
if [ ! -f "$expected" ]; then
  echo "$name: no GPU-recorded $expected (run tests/gpu_truth/record.sh on a GPU machine)" >&2
  exit 1
fi
mkdir -p "$work"
"$(dirname "$0")/build_program.sh" "$source" "$work/$name" || exit 1
(cd "$work" && "$ptxsim" run "${run_flags[@]}" -- "./$name" >"$name.out" 2>"$name.err")
code=$?
echo "exit code: $code" >>"$work/$name.out"
refusal=""
[ -f "$source" ] && refusal="$(sed -n 's|^// ptxsim refuses: ||p' "$source")"
if [ -n "$refusal" ]; then
  if [ "$code" -eq 0 ] || ! grep -qF "$refusal" "$work/$name.err"; then
    echo "$name: expected a refusal naming '$refusal' and a non-zero exit; got exit $code, stderr:" >&2
    cat "$work/$name.err" >&2
    exit 1
  fi
  echo "$name: refused as expected: $(grep -F "$refusal" "$work/$name.err" | head -1)"
  exit 0
fi
if ! diff -u "$expected" "$work/$name.out"; then
  echo "$name: output differs from the GPU's (above: - GPU, + ptxsim); ptxsim's stderr:" >&2
  cat "$work/$name.err" >&2
  exit 1
fi
echo "$name: output identical to the GPU's ($(wc -l <"$expected") lines)"
