# Sourced by the probe tests (*_test.sh) after their `set`: sets `ptxsim`
# and `work` from the script's arguments, `here` (this folder), empties
# `work` and builds PROBE.cu there as the kernel suite's programs are built.
# Usage, in a script: source "$(dirname "$0")/probe_test_env.sh" PROBE "$@"
ptxsim="$(realpath "${2:?usage: $(basename "$0") PTXSIM WORK_DIR}")"
work="$(realpath -m "${3:?usage: $(basename "$0") PTXSIM WORK_DIR}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$work" && mkdir -p "$work"
"$here/../../../cuda/programs/build_program.sh" "$here/$1.cu" "$work/$1"
