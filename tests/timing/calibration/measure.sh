#!/usr/bin/env bash
# Builds every calibration microbenchmark in this directory with
#   nvcc -cudart shared -arch=sm_90 -O3
# (in parallel) and runs each one in turn, writing into OUTDIR:
#   NAME.out       the program's output (metric lines, then ok or FAILED)
#   NAME.sass.txt  per kernel, the counts of its SASS opcodes (cuobjdump),
#                  to check that each chain became the intended instructions
#   summary.txt    every metric line as "NAME metric value unit", each
#                  program's exit code, and the GPU (nvidia-smi) and clocks
# On the GPU machine it takes well under a minute (plus the builds).
# RUNNER, when set, prefixes each run, e.g. to run the same programs on ptxsim:
#   RUNNER="build/bin/ptxsim run --" CALIB_QUICK=1 tests/timing/calibration/measure.sh OUT
# Usage: tests/timing/calibration/measure.sh OUTDIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(realpath -m "${1:?usage: measure.sh OUTDIR}")"
export PATH="/usr/local/cuda/bin:$PATH"
if ! command -v nvcc >/dev/null 2>&1; then
  echo "FAILED: nvcc is needed to build the calibration programs (/usr/local/cuda/bin/nvcc)" >&2
  exit 1
fi
mkdir -p "$out"
# CALIB_PROGRAMS="a b" runs only those programs.
read -r -a programs <<<"${CALIB_PROGRAMS:-alu_latency alu_throughput shared_memory memory_latency control instruction_fetch register_banks bandwidth texture_cp_async wgmma tma cluster}"
bin="$(mktemp -d)"
mkdir -p "$bin"
for p in "${programs[@]}"; do
  # A program may name its architecture (`// nvcc arch: sm_90a`, for
  # wgmma) and extra flags (`// nvcc flags: -lcuda`) in its first lines.
  arch=$(sed -n 's#^// nvcc arch: \(sm_[0-9a-z]*\)$#\1#p' "$here/$p.cu" | head -1)
  flags=$(sed -n 's#^// nvcc flags: ##p' "$here/$p.cu" | head -1)
  # shellcheck disable=SC2086
  nvcc -cudart shared -arch="${arch:-sm_90}" -O3 -o "$bin/$p" "$here/$p.cu" $flags >"$out/$p.build.txt" 2>&1 &
done
wait
summary="$out/summary.txt"
{
  echo "# calibration run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv 2>/dev/null | sed 's/^/# /'
  [ -n "${RUNNER:-}" ] && echo "# runner: $RUNNER"
  [ -n "${CALIB_QUICK:-}" ] && echo "# CALIB_QUICK=$CALIB_QUICK"
} >"$summary"
for p in "${programs[@]}"; do
  if [ ! -x "$bin/$p" ]; then
    echo "$p build FAILED (see $p.build.txt)" >>"$summary"
    continue
  fi
  if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump -sass "$bin/$p" 2>/dev/null | awk '
      /Function :/ { fn = $3; next }
      fn != "" && match($0, /\/\*[0-9a-f]+\*\/ +[@!A-Z0-9_.]+ *[A-Z0-9_.]*/) {
        n = split(substr($0, RSTART, RLENGTH), w, " +")
        op = (w[2] ~ /^@/) ? w[3] : w[2]
        count[fn " " op]++
      }
      END { for (k in count) print k, count[k] }' | sort -k1,1 -k3,3nr >"$out/$p.sass.txt"
  fi
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  timeout 600 ${RUNNER:-} "$bin/$p" >"$out/$p.out" 2>"$out/$p.err"
  rc=$?
  end=$(date +%s.%N)
  awk -v p="$p" 'NF == 3 && $2 ~ /^[-+0-9.eEinfa]+$/ { print p, $0 }' "$out/$p.out" >>"$summary"
  printf '%s exit %d status %s seconds %.1f\n' "$p" "$rc" \
    "$(tail -n 1 "$out/$p.out" 2>/dev/null)" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" >>"$summary"
done
cat "$summary"
