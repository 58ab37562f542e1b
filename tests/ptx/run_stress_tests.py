#!/usr/bin/env python3
"""Generates the stress inputs and runs `ptxsim check` on each: no input may
crash the checker (signal or exit status other than 0/1) or hang (timeout).
huge_valid.ptx and long_line.ptx must be accepted; the others rejected."""
import pathlib
import subprocess
import sys

ptxsim, generator, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
subprocess.run([sys.executable, generator, str(out)], check=True, stdout=subprocess.DEVNULL)
must_pass = {"huge_valid.ptx", "long_line.ptx"}
failures = []
files = sorted(p for p in out.iterdir() if p.is_file())
for path in files:
    try:
        r = subprocess.run([ptxsim, "check", str(path)], capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        failures.append(f"{path.name}: hung (over 120 s)")
        continue
    want = 0 if path.name in must_pass else 1
    if r.returncode != want:
        failures.append(f"{path.name}: exit {r.returncode}, expected {want}\n"
                        + r.stderr.decode(errors="replace")[:400])
    elif want == 1 and b": error: " not in r.stderr:
        failures.append(f"{path.name}: rejected without a located error")
print(f"{len(files)} stress inputs, {len(failures)} failures")
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures or not files else 0)
