#!/usr/bin/env bash
# Builds the front-end fuzzer with clang in its own build tree and runs it
# for a bounded time (FUZZ_SECONDS, default 60) from the project's PTX
# files as seeds. Any crash, sanitizer report or timeout fails the test.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
seconds=${FUZZ_SECONDS:-60}
command -v clang++ >/dev/null || { echo "fuzz: clang++ is required" >&2; exit 1; }
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DPTXSIM_BUILD_FUZZERS=ON -DPTXSIM_BUILD_TESTS=OFF -DPTXSIM_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j"${PTXSIM_JOBS:-2}" --target front_end_fuzzer >/dev/null
corpus="$build/fuzz-corpus"
mkdir -p "$corpus"
cp "$src"/tests/ptx/valid/*.ptx "$src"/tests/ptx/invalid/*.ptx "$src"/examples/*.ptx "$corpus"/ 2>/dev/null || true
cd "$build"
"$build/bin/front_end_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 "$corpus" 2>&1 | tail -n 25
