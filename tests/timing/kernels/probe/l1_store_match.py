#!/usr/bin/env python3
"""Holds a run of l1_store_probe under ptxsim (its --stats JSON Lines)
against the H100's recording (h100/l1_store.ncu.csv): per launch, in order,
the L1's sector hit rate (the H100's from its lookup hits and misses).
Prints each launch and exits 1 when fewer than MIN_MATCHED launches are
within 10 points.
Usage: l1_store_match.py STATS.jsonl H100.ncu.csv MIN_MATCHED"""
import sys

from probe_records import paired_launches

POINTS = 10.0


def h100_rate(recorded):
    hits = recorded["l1tex__t_sectors_lookup_hit.sum"]
    misses = recorded["l1tex__t_sectors_lookup_miss.sum"]
    return (100.0 * hits / (hits + misses)) if hits + misses else 0.0


def main(stats_path, csv_path, min_matched):
    pairs = paired_launches(stats_path, csv_path, "l1_store_match")
    if pairs is None:
        return 1
    matched = 0
    for index, (launch, recorded) in enumerate(pairs):
        hw = h100_rate(recorded)
        sim = launch["l1tex__t_sector_hit_rate.pct"]
        ok = abs(sim - hw) <= POINTS
        matched += ok
        print(f"#{index:2} {launch['kernel']:32} H100 {hw:5.1f}%  ptxsim {sim:5.1f}%  {'' if ok else 'off'}")
    print(f"{matched} of {len(pairs)} launches within {POINTS:g} points (at least {min_matched} required)")
    return 0 if matched >= min_matched else 1


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
