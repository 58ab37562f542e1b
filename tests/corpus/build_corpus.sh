#!/usr/bin/env bash
# Compiles every tests/corpus/cuda/*.cu to PTX for each target architecture in
# three variants, into OUTDIR/<variant>/<arch>/<stem>.ptx:
#   plain     nvcc -arch=sm_XX -ptx
#   G         nvcc -arch=sm_XX -ptx -G
#   lineinfo  nvcc -arch=sm_XX -ptx -lineinfo
# rdc_*.cu are compiled with -rdc=true as well.
#
# Usage: build_corpus.sh OUTDIR
# Environment: NVCC (compiler; else nvcc on PATH, else /usr/local/cuda/bin/nvcc),
#              JOBS (parallel compiles, default 2), ARCHS (space-separated list,
#              default: all targets below), PTXSIM_CORPUS_CACHE (a folder
#              of earlier outputs, default ~/.cache/ptxsim/corpus; "off":
#              none).
# The 432 compiles take about 7 minutes of a fresh clone's test run on two
# cores, so each output is also kept in the cache under a hash of the
# source and its path, the working directory, the command's options, and
# nvcc's own version and path, and taken from there when the same compile
# comes again (a clean clone at the same path on the same machine). nvcc's
# output is a function of those but for the odd internal name numbered per
# run (-G of templates.cu: `..._28810...` in one compile, `..._25959...` in
# the next), so a cached file is as much nvcc's output as a new one.
# Exit codes: 0 all compiled (or up to date), 1 some compile failed (its
# command and stderr are printed), 2 nvcc not found.
# Incremental: a compile is skipped when its output is newer than its source.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 64
fi
here=$(cd "$(dirname "$0")" && pwd)
src_dir="$here/cuda"

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
  nvcc=$(command -v nvcc 2>/dev/null || true)
fi
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ] || ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "corpus: nvcc not found (set NVCC, put nvcc on PATH, or install /usr/local/cuda/bin/nvcc)" >&2
  exit 2
fi

mkdir -p "$1"
out=$(cd "$1" && pwd)

archs=${ARCHS:-"sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120"}
variants="plain G lineinfo"
jobs=${JOBS:-2}

shopt -s nullglob
sources=("$src_dir"/*.cu)
shopt -u nullglob
if [ ${#sources[@]} -eq 0 ]; then
  echo "corpus: no sources in $src_dir" >&2
  exit 1
fi

logdir=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim_corpus.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

# One compile: VARIANT ARCH SRC OUT. Writes to a temporary name first so a
# failed or interrupted compile never leaves a (newer-than-source) .ptx behind.
compile_one() {
  local variant=$1 arch=$2 src=$3 dst=$4
  local -a cmd=("$NVCC_BIN" "-arch=$arch" -ptx)
  case "$variant" in
    plain) ;;
    G) cmd+=(-G) ;;
    lineinfo) cmd+=(-lineinfo) ;;
  esac
  case "$(basename "$src")" in
    rdc_*) cmd+=(-rdc=true) ;;
  esac
  local tmp="$dst.tmp.$$"
  local key=""
  if [ -n "$CACHE_DIR" ]; then
    # The source's path and the working directory are in the key: nvcc
    # writes them into the PTX (__FILE__ and internal names' hash in every
    # variant; -G's and -lineinfo's .file and compilation directory).
    key=$({ printf '%s\n' "${cmd[@]}" "$src" "$PWD" "$NVCC_VERSION"; cat "$src"; } | sha256sum | cut -c1-40)
    if [ -f "$CACHE_DIR/$key.ptx" ] && cp "$CACHE_DIR/$key.ptx" "$tmp"; then
      mv -f "$tmp" "$dst"
      touch "$LOG_DIR/cached.$variant.$arch.$(basename "$src" .cu)"
      return 0
    fi
  fi
  cmd+=("$src" -o "$tmp")
  local err
  if err=$("${cmd[@]}" 2>&1); then
    # Into the cache under a name of its own first: a reader never sees half a file.
    if [ -n "$key" ] && cp "$tmp" "$CACHE_DIR/$key.ptx.$$" 2>/dev/null; then
      mv -f "$CACHE_DIR/$key.ptx.$$" "$CACHE_DIR/$key.ptx"
    fi
    mv -f "$tmp" "$dst"
    touch "$LOG_DIR/ok.$variant.$arch.$(basename "$src" .cu)"
  else
    rm -f "$tmp"
    {
      echo "corpus: FAILED: ${cmd[*]}"
      printf '%s\n' "$err"
    } >"$LOG_DIR/fail.$variant.$arch.$(basename "$src" .cu)"
    cat "$LOG_DIR/fail.$variant.$arch.$(basename "$src" .cu)" >&2
    return 1
  fi
}
cache=${PTXSIM_CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxsim/corpus}
if [ "$cache" = off ] || ! mkdir -p "$cache" 2>/dev/null; then
  cache=""
fi
export -f compile_one
export NVCC_BIN="$nvcc" LOG_DIR="$logdir" CACHE_DIR="$cache"
NVCC_VERSION="$(command -v "$nvcc") $("$nvcc" --version)"
export NVCC_VERSION

# The work list: only outputs missing or older than their source.
list="$logdir/jobs"
: >"$list"
total=0
for variant in $variants; do
  for arch in $archs; do
    mkdir -p "$out/$variant/$arch"
    for src in "${sources[@]}"; do
      stem=$(basename "$src" .cu)
      dst="$out/$variant/$arch/$stem.ptx"
      total=$((total + 1))
      if [ -f "$dst" ] && [ "$dst" -nt "$src" ]; then
        continue
      fi
      printf '%s\0%s\0%s\0%s\0' "$variant" "$arch" "$src" "$dst" >>"$list"
    done
  done
done

start=$(date +%s)
status=0
if [ -s "$list" ]; then
  xargs -0 -n 4 -P "$jobs" bash -c 'compile_one "$@"' _ <"$list" || status=$?
fi
elapsed=$(($(date +%s) - start))

compiled=$(find "$logdir" -maxdepth 1 -name 'ok.*' | wc -l)
cached=$(find "$logdir" -maxdepth 1 -name 'cached.*' | wc -l)
failed=$(find "$logdir" -maxdepth 1 -name 'fail.*' | wc -l)
uptodate=$((total - compiled - cached - failed))
echo "corpus: ${compiled} files compiled, ${cached} from the cache ${cache:-(off)}, ${uptodate} up to date, ${failed} failed (${total} total, ${#sources[@]} sources x $(echo $archs | wc -w) archs x 3 variants) in ${elapsed}s with $(sed -n 's/.*release \([0-9.]*\).*/nvcc \1/p' <<<"$NVCC_VERSION")"
if [ "$failed" -ne 0 ] || [ "$status" -ne 0 ]; then
  exit 1
fi
