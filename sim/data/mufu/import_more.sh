#!/usr/bin/env bash
# Stores the tables tests/gpu_truth/mufu_more_tables.sh read on the GPU
# (OUTDIR/mufu_more_tables.tar.xz) as sim/data/mufu keeps them: each table's
# differences between consecutive entries, byte-coded (encode_diff8.py),
# zstd-compressed. The probes' findings go to tests/gpu_truth/probes.
# Usage: sim/data/mufu/import_more.sh OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
in="$(realpath "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xJf "$in/mufu_more_tables.tar.xz" -C "$work"
store() {  # NAME FILE WIDTH(u16|u32)
  python3 - "$2" "$3" <<'PY' | python3 "$here/encode_diff8.py" | zstd -q -19 -f -o "$here/$1.diff8.zst"
import struct, sys
data = open(sys.argv[1], "rb").read()
width = 2 if sys.argv[2] == "u16" else 4
values = struct.unpack("<%d%s" % (len(data) // width, "H" if width == 2 else "I"), data)
previous, out = 0, []
for v in values:
    out.append(((v - previous + 2**31) % 2**32) - 2**31)
    previous = v
sys.stdout.buffer.write(struct.pack("<%di" % len(out), *out))
PY
}
for t in ex2_f16 ex2_bf16 tanh_f16 tanh_bf16; do store "$t" "$work/$t.u16" u16; done
store tanh_f32 "$work/tanh_f32.u32" u32
store rcp64h "$work/rcp64h.u32" u32
store rsqrt64h_e0 "$work/rsq64h_e0.u32" u32
store rsqrt64h_e1 "$work/rsq64h_e1.u32" u32
zstd -q -19 -f "$work/sin_half.diff8" -o "$here/sin_half.diff8.zst"  # already byte-coded by the probe
cp "$in"/mufu_*_probe_gpu.txt "$here/../../../tests/gpu_truth/probes/"
ls -la "$here"
