#!/usr/bin/env python3
"""Prints, per launch of launch_overhead.cu recorded by record_l2_baseline.sh
(caches flushed before each launch and not), the L2's sectors in all and
by source unit, with their lookup hits: what a GPU's L2 counts in launches
that do next to nothing.
Usage: l2_baseline.py DIR (holding l2_baseline.cache_{all,none}.ncu.csv)"""
import csv
import sys
from collections import OrderedDict


def launches(path):
    result = OrderedDict()
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["ID"], row["Kernel Name"], row["Grid Size"])
            value = row["Metric Value"].replace(",", "")
            result.setdefault(key, {})[row["Metric Name"]] = float(value or 0)
    return result


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for cache in ("all", "none"):
        print(f"caches flushed: {cache}")
        for (_, kernel, grid), m in launches(f"{sys.argv[1]}/l2_baseline.cache_{cache}.ncu.csv").items():
            units = sorted({k[len("lts__t_sectors_srcunit_"):].split("_lookup")[0].removesuffix(".sum")
                            for k in m if k.startswith("lts__t_sectors_srcunit_")})
            parts = ", ".join(f"{u} {m[f'lts__t_sectors_srcunit_{u}.sum']:.0f}"
                              f" ({m[f'lts__t_sectors_srcunit_{u}_lookup_hit.sum']:.0f} hits)"
                              for u in units if m[f"lts__t_sectors_srcunit_{u}.sum"])
            print(f"  {kernel:22} grid {grid:14} sectors {m['lts__t_sectors.sum']:6.0f}"
                  f" ({m['lts__t_sectors_lookup_hit.sum']:.0f} hits): {parts}")


if __name__ == "__main__":
    main()
