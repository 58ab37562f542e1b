#!/usr/bin/env python3
"""Checks a `ptxsim run --timing --trace` file against the run's --stats
records: one kernel slice per timed launch, in order, each lasting the
launch's gpc__cycles_elapsed.max at the SM clock; one CTA slice per CTA,
inside its launch's slice; no two slices of a track overlapping; per launch,
the SMs' stall summaries adding up to the launch's statistics.

Usage: check_trace.py TRACE STATS CLOCK_KHZ
Prints one line per launch checked; exits 1 naming the first problem."""
import json
import sys


def fail(message):
    print("check_trace: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    trace_path, stats_path, clock_khz = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(trace_path) as f:
        try:
            trace = json.load(f)
        except json.JSONDecodeError as e:
            fail(f"{trace_path} is not valid JSON: {e}")
    with open(stats_path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    records = [r for r in records if "ptxsim__record" not in r]  # launches only, not the timing parameters
    timed = [r for r in records if "gpc__cycles_elapsed.max" in r]
    if not isinstance(trace, list):
        fail("the trace is not a JSON array")

    def micros(cycles):
        return cycles * 1000.0 / clock_khz

    def close(a, b):
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    slices = [e for e in trace if e.get("ph") == "X"]
    kernels = [e for e in slices if e.get("cat") == "kernel"]
    if len(kernels) != len(timed):
        fail(f"{len(kernels)} kernel slices for {len(timed)} timed launches")
    names = {e["tid"]: e["args"]["name"] for e in trace if e.get("ph") == "M" and e["name"] == "thread_name"}
    process = [e for e in trace if e.get("ph") == "M" and e["name"] == "process_name"]
    if len(process) != 1 or not process[0]["args"]["name"].startswith("GPU ("):
        fail(f"expected one process named 'GPU (...)', found {process}")
    previous_end = -1
    for kernel, record in zip(kernels, timed):
        args = kernel["args"]
        launch = args["launch_id"]
        if launch != record["ptxsim__launch_id"] or args["kernel"] != record["kernel"]:
            fail(f"kernel slice of launch {launch} ({args['kernel']}) where the statistics have launch "
                 f"{record['ptxsim__launch_id']} ({record['kernel']})")
        cycles = record["gpc__cycles_elapsed.max"]
        if args["cycles"] != cycles or not close(kernel["dur"], micros(cycles)):
            fail(f"launch {launch}: {args['cycles']} cycles, dur {kernel['dur']} us; the statistics say "
                 f"{cycles} cycles, {micros(cycles)} us")
        start = args["start_cycle"]
        if not close(kernel["ts"], micros(start)) or start < previous_end:
            fail(f"launch {launch} starts at cycle {start}, before the launch before it ends ({previous_end})")
        previous_end = start + cycles
        if names.get(kernel["tid"]) != "kernels":
            fail(f"launch {launch} is not on the kernels' track")
        parent = record.get("ptxsim__parent_launch_id", 0)
        if args.get("parent_launch_id", 0) != parent:
            fail(f"launch {launch}: parent launch {args.get('parent_launch_id')}, the statistics say {parent}")

        ctas = [e for e in slices if e.get("cat") == "cta" and e["args"]["launch_id"] == launch]
        grid = record["grid"]
        count = grid[0] * grid[1] * grid[2]
        ids = sorted(e["args"]["linear_id"] for e in ctas)
        if ids != list(range(count)):
            fail(f"launch {launch}: {len(ctas)} CTA slices for a grid of {count} CTAs")
        for e in ctas:
            a = e["args"]
            if a["start_cycle"] < start or a["start_cycle"] + a["cycles"] > start + cycles:
                fail(f"launch {launch}: {e['name']} (cycles {a['start_cycle']}+{a['cycles']}) lies outside its "
                     f"launch (cycles {start}+{cycles})")
            if not close(e["ts"], micros(a["start_cycle"])) or not close(e["dur"], micros(a["cycles"])):
                fail(f"launch {launch}: {e['name']}'s ts/dur do not match its cycles")
            if not names.get(e["tid"], "").startswith(f"SM {a['sm']} slot "):
                fail(f"launch {launch}: {e['name']} on track '{names.get(e['tid'])}', not one of SM {a['sm']}'s")
            x = a["linear_id"] % grid[0]
            y = a["linear_id"] // grid[0] % grid[1]
            z = a["linear_id"] // (grid[0] * grid[1])
            if e["name"] != f"block ({x},{y},{z})":
                fail(f"launch {launch}: CTA {a['linear_id']} named {e['name']}")

        sms = [e for e in slices if e.get("cat") == "sm" and e["args"]["launch_id"] == launch]
        issued = sum(e["args"]["instructions_issued"] for e in sms)
        if issued != record["smsp__inst_issued.sum"]:
            fail(f"launch {launch}: the SMs issued {issued} instructions, the statistics say "
                 f"{record['smsp__inst_issued.sum']}")
        for reason in sms[0]["args"]["stall_warp_cycles"] if sms else []:
            total = sum(e["args"]["stall_warp_cycles"][reason] for e in sms)
            ratio = record[f"smsp__average_warp_latency_issue_stalled_{reason}.ratio"]
            if issued and not close(total / issued, ratio):
                fail(f"launch {launch}: {reason} {total / issued} per instruction, the statistics say {ratio}")
        for e in sms:
            if names.get(e["tid"]) != f"SM {e['args']['sm']}" or e["tid"] != e["args"]["sm"]:
                fail(f"launch {launch}: SM {e['args']['sm']}'s summary on track {e['tid']}")
        print(f"launch {launch} {record['kernel']}: {cycles} cycles, {len(ctas)} CTAs on "
              f"{len({e['tid'] for e in ctas})} slot tracks, {len(sms)} SM summaries")

    by_track = {}
    for e in slices:
        by_track.setdefault(e["tid"], []).append(e)
    for tid, events in by_track.items():
        events.sort(key=lambda e: e["args"]["start_cycle"])
        for a, b in zip(events, events[1:]):
            if b["args"]["start_cycle"] < a["args"]["start_cycle"] + a["args"]["cycles"]:
                fail(f"track '{names.get(tid)}': {a['name']} and {b['name']} overlap")


if __name__ == "__main__":
    main()
