#!/usr/bin/env python3
"""Cycles per L2 atomic request of each atomic_hazard_probe.cu kernel.

Usage: atomic_hazard.py FILE, either Nsight Compute's CSV
(record_atomic_hazard.sh) or ptxsim's --stats JSON lines. Each kernel runs
at 8 and 16 iterations a warp (4224 warps): the difference of their
gpc__cycles_elapsed.max over the 4224 x 8 extra requests, fixed costs
cancelled.
"""
import csv
import json
import sys

WARPS, EXTRA_ITERS = 132 * 4 * 8, 8


def launches(path):
    """(kernel, cycles) in launch order."""
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            return [(row["Kernel Name"], float(row["Metric Value"].replace(",", "")))
                    for row in csv.DictReader(f) if row["Metric Name"] == "gpc__cycles_elapsed.max"]
    with open(path) as f:
        return [(r["kernel"], float(r["gpc__cycles_elapsed.max"])) for r in map(json.loads, f)
                if "ptxsim__record" not in r]  # launches, not the timing parameters


def main(argv):
    runs = launches(argv[1])
    for (name, short), (again, long) in zip(runs[0::2], runs[1::2]):
        assert name == again, (name, again)
        print(f"{name:32s} {short:9.0f} {long:9.0f} cycles; {(long - short) / (WARPS * EXTRA_ITERS):7.3f} a request")


if __name__ == "__main__":
    main(sys.argv)
