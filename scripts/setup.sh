#!/usr/bin/env bash
# Installs the Debian packages ptxsim needs (only those missing), then
# configures and builds into build/. Safe to run again: every step is skipped
# or incremental when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ clang make pkg-config python3 antlr4 libantlr4-runtime-dev
          libgtest-dev libgmock-dev libbenchmark-dev libspdlog-dev libzstd-dev
          libcli11-dev nlohmann-json3-dev libmimalloc-dev zstd liblz4-dev
          libjs-chart.js chromium ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs=${PTXSIM_JOBS:-2}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
