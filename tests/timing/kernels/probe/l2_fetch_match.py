#!/usr/bin/env python3
"""Holds a run of l2_fetch_probe under ptxsim (its --stats JSON Lines)
against the H200's recording (h200/l2_fetch.ncu.csv): per launch, in order,
the DRAM bytes read (within 2%) and the SMs' L2 read hits (within 2% of the
read sectors). The launches from FIRST on are held (those under a limit the
program set); the earlier ones are printed. Exits 1 when a held one is off.
Usage: l2_fetch_match.py STATS.jsonl H200.ncu.csv FIRST"""
import sys

from probe_records import paired_launches

TOLERANCE = 0.02


def main(stats_path, csv_path, first):
    pairs = paired_launches(stats_path, csv_path, "l2_fetch_match")
    if pairs is None:
        return 1
    off = 0
    for index, (launch, hw) in enumerate(pairs):
        bytes_hw, bytes_sim = hw["dram__bytes_read.sum"], launch["dram__bytes_read.sum"]
        sectors = hw["lts__t_sectors_srcunit_tex_op_read.sum"]
        # ptxsim's SM lookup hits count the stores' sectors too (every one a
        # hit, as Nsight Compute counts them); the recording has the reads'.
        hits_hw = hw["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]
        hits_sim = (launch["lts__t_sectors_srcunit_tex_lookup_hit.sum"] -
                    launch["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"])
        ok = abs(bytes_sim - bytes_hw) <= TOLERANCE * bytes_hw and abs(hits_sim - hits_hw) <= TOLERANCE * sectors
        held = index >= first
        off += held and not ok
        print(f"#{index:2} {launch['kernel']:26} DRAM read H200 {bytes_hw:12,.0f} ptxsim {bytes_sim:12,.0f}   "
              f"L2 read hits H200 {hits_hw:9,.0f} ptxsim {hits_sim:9,.0f}  {'' if ok else 'off'}{'' if held else ' (not held)'}")
    print(f"{len(pairs) - first - off} of {len(pairs) - first} held launches within {100 * TOLERANCE:g}%")
    return 1 if off else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
