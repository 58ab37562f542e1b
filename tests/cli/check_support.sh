# Sourced by the end-to-end scripts of tests/cli: the nvcc they build their
# programs with (the script fails, naming itself, when there is none) and
# `check NAME COMMAND...`, which prints ok or FAILED and counts failures.
# Usage: source check_support.sh SCRIPT_NAME; then "$nvcc", check, $failures.
script_name=$1
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
if [ ! -x "$nvcc" ]; then
  echo "$script_name: nvcc is required to build the test programs and was not found" >&2
  exit 1
fi
failures=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok: $name"; else echo "FAILED: $name" >&2; failures=$((failures + 1)); fi
}
