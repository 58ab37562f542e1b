#!/usr/bin/env python3
"""__prof_trigger counts: ptxsim's prof_trigger_0N statistics against an H100.

Nsight Compute has no prof_trigger counter on sm_90, so the H100's counts are
derived from its per-SASS-instruction source counters (prof_trigger.sass.csv,
recorded by tests/gpu_truth/measure.sh): each `PMTRIG <mask>` raises the
triggers of its mask once per warp that executes it with a thread predicated
on. A row gives that number exactly when no thread, every thread or a single
thread was predicated on; otherwise it bounds it (at least ceil(on / 32)
warps, at most every warp that executed it), and ptxsim must fall inside.

Usage: prof_trigger_counts.py PTXSIM PROGRAMS_DIR WORK_DIR
"""
import csv
import json
import os
import re
import subprocess
import sys


def gpu_bounds(csv_path):
    """Per trigger, the least and most warps that raised it on the GPU."""
    low, high = [0] * 8, [0] * 8
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    header = next(r for r in rows if "Source" in r and "Instructions Executed" in r)
    col = {name: header.index(name) for name in header}

    def number(row, name):
        return int(row[col[name]].replace(",", ""))

    for row in rows:
        m = re.search(r"PMTRIG 0x([0-9a-fA-F]+)", row[col["Source"]]) if len(row) == len(header) else None
        if not m:
            continue
        warps = number(row, "Instructions Executed")
        threads = number(row, "Thread Instructions Executed")
        on = number(row, "Predicated-On Thread Instructions Executed")
        least, most = (warps, warps) if on == threads else (-(-on // 32), min(warps, on))
        mask = int(m.group(1), 16)
        for event in range(8):
            if mask >> event & 1:
                low[event] += least
                high[event] += most
    return low, high


def main():
    ptxsim, programs, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, "prof_trigger_counts")
    subprocess.run([os.path.join(programs, "build_program.sh"), os.path.join(programs, "prof_trigger.cu"), binary],
                   check=True)
    stats = os.path.join(work, "prof_trigger_counts.json")
    subprocess.run([ptxsim, "run", "--stats", stats, "--", binary], check=True, stdout=subprocess.DEVNULL)
    with open(stats) as f:
        record = json.loads(f.readline())
    ours = [record[f"prof_trigger_0{e}"] for e in range(8)]
    low, high = gpu_bounds(os.path.join(programs, "prof_trigger.sass.csv"))
    print(f"H100 (from Nsight Compute's PMTRIG counts): at least {low}, at most {high}")
    print(f"ptxsim: {ours}")
    outside = [e for e in range(8) if not low[e] <= ours[e] <= high[e]]
    if outside:
        sys.exit(f"prof_trigger_0{outside[0]} is outside what the H100's counts allow")


main()
