#!/usr/bin/env python3
"""Runs `ptxsim check` on tests/ptx/valid (each must pass with a summary line)
and tests/ptx/invalid (each must fail with exit status 1 and, as its first
error, FILE:LINE:COL: error: ...TEXT... as the file's `// expect-error:` line
says, followed by the source line and a caret)."""
import pathlib
import re
import subprocess
import sys

ptxsim, root = sys.argv[1], pathlib.Path(sys.argv[2])
failures = []
SUMMARY = re.compile(r": PTX \d+\.\d, target sm_\d+[af]?, \d+ kernels?, \d+ functions?, \d+ instructions$")

def run(path):
    return subprocess.run([ptxsim, "check", str(path)], capture_output=True, timeout=60)

valid = sorted((root / "valid").glob("*.ptx"))
for path in valid:
    r = run(path)
    out = r.stdout.decode(errors="replace").strip()
    if r.returncode != 0 or not SUMMARY.search(out):
        failures.append(f"{path.name}: expected success, got exit {r.returncode}\n{out}\n"
                        f"{r.stderr.decode(errors='replace')}")

invalid = sorted(p for p in (root / "invalid").iterdir() if p.is_file() and p.suffix == ".ptx")
for path in invalid:
    first = path.read_bytes().split(b"\n", 1)[0].decode(errors="replace")
    m = re.match(r"//\s*expect-error:\s*(\d+):(\d+):\s*(.*\S)", first)
    if not m:
        failures.append(f"{path.name}: first line has no '// expect-error: LINE:COL: TEXT'")
        continue
    line, col, text = m.group(1), m.group(2), m.group(3)
    r = run(path)
    err = r.stderr.decode(errors="replace").splitlines()
    head = err[0] if err else ""
    expected = f"{path}:{line}:{col}: error: "
    if r.returncode != 1 or not head.startswith(expected) or text not in head or len(err) < 3 \
            or not err[2].strip().endswith("^"):
        failures.append(f"{path.name}: expected exit 1 and '{expected}...{text}...' + source + caret,"
                        f" got exit {r.returncode}:\n" + "\n".join(err[:6]))

# Several files in one run: one summary line per valid file, errors for the
# rest, exit status 1 when any file fails; a missing file is an error too.
r = subprocess.run([ptxsim, "check", str(valid[0]), str(invalid[0]), str(root / "no_such_file.ptx")],
                   capture_output=True, timeout=60)
out, err = r.stdout.decode(), r.stderr.decode()
if r.returncode != 1 or out.count(": PTX ") != 1 or "no_such_file.ptx: error: cannot read" not in err:
    failures.append(f"mixed run: exit {r.returncode}\n{out}\n{err}")
# Logging levels: --log-level and PTXSIM_LOG; an unknown level is refused.
r = subprocess.run([ptxsim, "--log-level", "debug", "check", str(valid[0])], capture_output=True, timeout=60)
if r.returncode != 0 or b"debug" not in r.stderr:
    failures.append(f"--log-level debug: exit {r.returncode}, stderr {r.stderr[:200]!r}")
r = subprocess.run([ptxsim, "check", str(valid[0])], capture_output=True, timeout=60,
                   env={"PTXSIM_LOG": "bogus"})
if r.returncode != 2 or b"unknown log level 'bogus'" not in r.stderr:
    failures.append(f"PTXSIM_LOG=bogus: exit {r.returncode}, stderr {r.stderr[:200]!r}")

print(f"{len(valid)} valid and {len(invalid)} invalid PTX files checked, {len(failures)} failures")
for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures or not valid or not invalid else 0)
