#!/usr/bin/env python3
"""Tables of where a timed launch's host time goes, from the hp_* counters
of kernel_throughput_benchmark run with PTXSIM_BENCH_HOST_PROFILE=1
(benchmarks/kernel_throughput_benchmark.cpp, ptxsim/sim/host_profile.h).
Usage: host_profile_table.py RESULT.json  (Google Benchmark's JSON)."""
import json
import sys

SERIAL = ["place", "schedule", "overlay", "deferred", "l2", "l2_dram", "retire", "check", "finish"]


def main(path):
    runs = json.load(open(path))["benchmarks"]
    runs = [r for r in runs if "hp_windows" in r and r.get("aggregate_name", "mean") == "mean"]
    print("ms of CPU per iteration. Parallel: build, SM runs (critical: each window's longest, summed), end.")
    print("Serial parts (overlay: shared over the threads where it has many sectors, predicted / P);")
    print("Walls: as run on the pool (dispatch, waits, page faults' locks included).")
    print("eff@P: predicted efficiency on P threads (from a one-thread run); A@16: phase A on 16")
    print("threads dealt in the pool's order, longest first, and its bound max(longest, sum / 16).")
    print("Ahead: the SMs' runs ahead of the windows (on many threads only), their count and CPU")
    print("time (all SMs, and the SM with the most and the least), and the driver's thread's wall")
    print("time waiting for them (its own runs of them included).")
    print("Slices: the windows whose L2 requests the threads shared, slice by slice (in l2):")
    print("the slices' own times, the steps' wall time on the pool, dealt on 16 threads, its bound;")
    print("gather: of every slices' step (shared or not), the time gathering and ordering its requests.")
    head = ["benchmark", "windows", "SMs/win", "build", "SM runs", "critical", "end"] + SERIAL
    head += ["serial %", "build wall", "phase A wall", "end wall", "eff@2", "eff@4", "eff@8", "eff@16",
             "A@16 dealt", "A@16 longest first", "A@16 bound", "ahead runs", "ahead", "ahead SM most / least", "ahead wait wall",
             "slices", "slices wall", "slices dealt@16", "slices bound@16", "gather"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in runs:
        name = r["name"].replace("kernelThroughput/", "").replace("/real_time", "")
        ms = lambda key: "%.1f" % (1e3 * r[key])
        total = r["hp_parallel_s"] + r["hp_serial_s"]
        row = [name, "%d" % r["hp_windows"], "%.1f" % r["hp_sms_per_window"]]
        row += [ms("hp_build_s"), ms("hp_sm_s"), ms("hp_longest_sm_s"), ms("hp_end_s")]
        # l2_dram: apart from l2 since 2026-11-29 (older results: in l2).
        row += [ms("hp_%s_s" % p) if "hp_%s_s" % p in r else "-" for p in SERIAL]
        row += ["%.1f" % (100 * r["hp_serial_s"] / total if total else 0)]
        row += [ms("hp_build_wall_s"), ms("hp_phase_a_s"), ms("hp_end_wall_s")]
        row += ["%.2f" % r["hp_eff@%d" % p] for p in (2, 4, 8, 16)]
        row += [ms("hp_window_%s_s@16" % k) for k in ("dealt", "longest_first", "bound")]
        row += ["%d" % r["hp_ahead_runs"], ms("hp_ahead_s"),
                ms("hp_ahead_most_sm_s") + " / " + ms("hp_ahead_least_sm_s"), ms("hp_ahead_wait_wall_s")]
        # The slices' steps: profiled since 2026-11-29 (older results: "-").
        row += [ms(k) if k in r else "-" for k in
                ("hp_slices_s", "hp_slices_wall_s", "hp_slices_dealt_s@16", "hp_slices_bound_s@16",
                 "hp_slices_gather_s")]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
