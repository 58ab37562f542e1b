#!/usr/bin/env python3
"""Each round's efficiency at every core, and their median, from the runs
`scripts/device_host_threads.sh --paired OUTDIR` made: per kernel, one
thread's time over (threads x every core's time), round by round.
The kernels are those the runs have, in the benchmark's order.
Usage: paired_efficiency.py OUTDIR"""
import glob
import json
import os
import statistics
import sys

def times(path):
    found = {}
    for bench in json.load(open(path))["benchmarks"]:
        kernel = bench["run_name"].split("/")[1]
        found[kernel] = (bench["real_time"], bench["host_threads"])
    return found


def main(folder):
    rounds = sorted({int(os.path.basename(p).split(".")[1]) for p in glob.glob(os.path.join(folder, "paired.*.json"))})
    efficiencies = {}
    for number in rounds:
        one = times(os.path.join(folder, f"paired.{number}.1.json"))
        every = times(os.path.join(folder, f"paired.{number}.0.json"))
        for kernel in one:
            efficiencies.setdefault(kernel, [])
            (serial, _), (parallel, threads) = one[kernel], every[kernel]
            efficiencies[kernel].append((serial / (threads * parallel), serial, parallel, threads))
    print("| kernel | " + " | ".join(f"round {n}" for n in rounds) + " | median |")
    print("|---" * (len(rounds) + 2) + "|")
    for kernel, runs in efficiencies.items():
        cells = [f"{e:.2f} ({serial:.0f} / {parallel:.1f} ms)" for e, serial, parallel, _ in runs]
        print(f"| {kernel} | " + " | ".join(cells) + f" | {statistics.median(e for e, *_ in runs):.2f} |")
    threads = {t for runs in efficiencies.values() for *_, t in runs}
    print(f"every core: {', '.join(map(str, sorted(threads)))} threads")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
