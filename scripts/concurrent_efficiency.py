#!/usr/bin/env python3
"""The table of scripts/device_core_speed/concurrent_kernels.sh's lines: per
kernel and round, one thread alone (ms), the mean of 16 copies at once,
16 threads; the efficiency (alone / (16 x 16 threads)), what the busy
machine leaves of a core (alone / copies' mean) and the efficiency against
that (copies' mean / (16 x 16 threads)); then each one's median.
Usage: concurrent_efficiency.py FILE"""
import re
import statistics
import sys


def main(path):
    runs = {}
    for line in open(path):
        found = re.match(r"round (\d+) (\S+) (alone|16 at once|16 threads): (.*)", line.strip())
        if not found:
            continue
        number, kernel, what, values = found.groups()
        times = [float(v) for v in values.split()]
        if not times:
            sys.exit(f"no time in: {line.strip()}")
        runs.setdefault(kernel, {}).setdefault(int(number), {})[what] = statistics.mean(times)
    print("| kernel | round | alone (ms) | 16 at once, mean (ms) | 16 threads (ms) | efficiency "
          "| core left when all are busy | efficiency against that |")
    print("|---" * 8 + "|")
    for kernel, rounds in runs.items():
        columns = []
        for number, run in sorted(rounds.items()):
            alone, copies, threads = run["alone"], run["16 at once"], run["16 threads"]
            row = (alone / (16 * threads), alone / copies, copies / (16 * threads))
            columns.append(row)
            print(f"| {kernel} | {number} | {alone:.0f} | {copies:.0f} | {threads:.1f} | "
                  + " | ".join(f"{v:.2f}" for v in row) + " |")
        medians = [statistics.median(c[i] for c in columns) for i in range(3)]
        print(f"| {kernel} | median | | | | " + " | ".join(f"{v:.2f}" for v in medians) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
