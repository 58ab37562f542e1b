#!/usr/bin/env bash
# Runs `ptxsim check` on every PTX file of the built corpus; all must pass.
set -euo pipefail
ptxsim=$1
dir=$2
mapfile -t files < <(find "$dir" -name '*.ptx' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "corpus: no PTX files under $dir" >&2
  exit 1
fi
failed=0
# In batches, so one process reads many files.
printf '%s\0' "${files[@]}" | xargs -0 -n 64 "$ptxsim" check >/tmp/corpus_check.$$ 2>&1 || failed=1
passed=$(grep -c ': PTX ' /tmp/corpus_check.$$ || true)
if [ "$failed" -ne 0 ]; then
  grep -v ': PTX ' /tmp/corpus_check.$$ | head -60 >&2
fi
rm -f /tmp/corpus_check.$$
echo "corpus: ${passed} of ${#files[@]} PTX files passed ptxsim check"
[ "$failed" -eq 0 ] && [ "$passed" -eq ${#files[@]} ]
