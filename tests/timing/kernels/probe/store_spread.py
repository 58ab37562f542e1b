#!/usr/bin/env python3
"""Summarises store_spread_probe's stamps: per block, how long after its
first warp's value arrived the other 7 warps' values arrive (each warp
stores right after), and what store hit rate that gives under the H100's
rule that a store within WINDOW cycles of its sector's first store misses.
Usage: store_spread.py STAMPS.bin[.gz] [...]"""
import gzip
import struct
import sys

WARPS_PER_BLOCK = 8
RECORD = struct.Struct("<qqII")


def percentiles(values, points=(10, 25, 50, 75, 90, 99)):
    ordered = sorted(values)
    return " ".join(f"p{p}={ordered[min(len(ordered) - 1, len(ordered) * p // 100)]}" for p in points)


def summarise(path):
    data = (gzip.open if path.endswith(".gz") else open)(path, "rb").read()
    stamps = [RECORD.unpack_from(data, i) for i in range(0, len(data), RECORD.size)]
    latency = [after - before for before, after, _, _ in stamps]
    offsets, spreads, order_gaps = [], [], []
    windows = (32, 64, 128, 200, 400)
    misses = {w: 0 for w in windows}
    for first in range(0, len(stamps), WARPS_PER_BLOCK):
        block = stamps[first:first + WARPS_PER_BLOCK]
        arrivals = sorted(after for _, after, _, _ in block)
        offsets += [a - arrivals[0] for a in arrivals[1:]]
        order_gaps += [b - a for a, b in zip(arrivals, arrivals[1:])]
        spreads.append(arrivals[-1] - arrivals[0])
        for w in windows:
            misses[w] += sum(1 for a in arrivals if a - arrivals[0] < w)
    stores = len(stamps)
    print(f"{path}: {stores} warps, {len(spreads)} blocks")
    print(f"  load latency (cycles): {percentiles(latency)}")
    print(f"  block spread, last - first arrival: {percentiles(spreads)}")
    print(f"  gap between consecutive arrivals in a block: {percentiles(order_gaps)}")
    print(f"  arrival after the block's first: {percentiles(offsets)}")
    print("  predicted store hit rate by window: " +
          " ".join(f"{w}:{100 * (1 - misses[w] / stores):.1f}%" for w in windows))


for name in sys.argv[1:]:
    summarise(name)
