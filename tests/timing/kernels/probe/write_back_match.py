#!/usr/bin/env python3
"""Holds a run of write_back_probe under ptxsim with the H200 preset (its
--stats JSON Lines) against the H200's recording (h200/write_back.ncu.csv),
launch by launch in order, and prints per launch the cycles, DRAM bytes
read and DRAM bytes written of both.

Held: DRAM bytes read within 2% (or 0.1 MB) where the H200 writes less
than 0.5 MB back: the random reads' fetch blocks, and the L2 keeping every
line it fetched. Printed, not held (docs/timing/accuracy.md, "Stores and write-back"):
- DRAM bytes written: the H200 writes 0.45-2.3 MB of the gathers' output
  back (24 and 32 MB tables, 1 and 2 Mi reads) while reading nothing
  twice, so it cleans dirty lines without evicting clean ones, which the
  model does not do; and the scatters of 4 and 8 MB, whose stores write
  one word of a sector at a time, write 0.6 and 3.2 MB back and read 1.6 MB
  more (8 MB): partial sectors read, merged and written, not modelled.
- cycles: the H200 preset's SMs and L2 are the H100's, not calibrated on
  the H200: the fills run 12-18% and the scatters 2-36% slower in the
  model, the random gathers from 8% faster to 13% slower.
Exits 1 when a held figure is off.
The run may leave launches out (`write_back_probe no-wait`): launches are
paired by the names the two runs printed, in order.
Usage: write_back_match.py STATS.jsonl RUN.stdout H200.ncu.csv H200.stdout"""
import sys

from probe_records import recorded_launches, simulated_launches

READ, READ_FLOOR = 0.02, 0.1e6
SMALL = 0.5e6


def named(launches, names_path, what):
    names = [line.strip() for line in open(names_path) if line.strip()]
    if len(names) != len(launches):
        sys.exit(f"write_back_match: {what}: {len(launches)} launches, {len(names)} names")
    return dict(zip(names, launches))


def main(stats_path, run_names, csv_path, names_path):
    simulated = named(simulated_launches(stats_path), run_names, "the run")
    recorded = named(recorded_launches(csv_path), names_path, "the recording")
    off = 0
    for index, name in enumerate(name for name in simulated if name in recorded):
        launch, hw = simulated[name], recorded[name]
        cycles_hw, cycles_sim = hw["gpc__cycles_elapsed.max"], launch["gpc__cycles_elapsed.max"]
        read_hw, read_sim = hw["dram__bytes_read.sum"], launch["dram__bytes_read.sum"]
        written_hw, written_sim = hw["dram__bytes_write.sum"], launch["dram__bytes_write.sum"]
        note = ""
        if written_hw < SMALL:
            if abs(read_sim - read_hw) > max(READ * read_hw, READ_FLOOR):
                note = "read off"
                off += 1
        else:
            note = "not held"
        print(f"#{index:2} {name:24} cycles H200 {cycles_hw:7,.0f} ptxsim {cycles_sim:7,.0f} "
              f"({100 * (cycles_sim / cycles_hw - 1):+5.1f}%)  DRAM read H200 {read_hw / 1e6:6.2f} MB "
              f"ptxsim {read_sim / 1e6:6.2f} MB  written H200 {written_hw / 1e6:5.2f} MB "
              f"ptxsim {written_sim / 1e6:5.2f} MB  {note}")
    return 1 if off else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
