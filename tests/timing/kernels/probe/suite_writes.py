#!/usr/bin/env python3
"""Prints, per launch of the accuracy suite's programs recorded several
times by record_suite_writes.sh, the DRAM bytes it wrote in each run: the
launches that write anything in any run, then how many launches wrote
nothing in every run.
Usage: suite_writes.py DIR (holding PROGRAM.RUN.ncu.csv)"""
import collections
import csv
import glob
import os
import sys


def main(folder):
    written = collections.defaultdict(dict)  # (program, kernel, nth launch of it) -> run -> bytes
    for path in sorted(glob.glob(os.path.join(folder, "*.ncu.csv"))):
        program, run = os.path.basename(path).split(".")[:2]
        nth = collections.Counter()
        for row in csv.DictReader(open(path)):
            if row["Metric Name"] != "dram__bytes_write.sum":
                continue
            kernel = row["Kernel Name"].split("(")[0]
            nth[kernel] += 1
            written[(program, kernel, nth[kernel])][run] = int(row["Metric Value"].replace(",", ""))
    quiet = 0
    for (program, kernel, nth), runs in sorted(written.items()):
        if not any(runs.values()):
            quiet += 1
            continue
        figures = ", ".join(f"{runs[run]:,}" for run in sorted(runs))
        print(f"{program:10} {kernel:45} #{nth}  bytes written: {figures}")
    print(f"{quiet} of {len(written)} launches wrote nothing in every run")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
