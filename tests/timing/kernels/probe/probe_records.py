"""What the probe tests hold against each other: a recording's launches
(an Nsight Compute CSV: per launch, in order, its metrics by name) and a
ptxsim run's (its --stats JSON Lines)."""
import csv
import json


def recorded_launches(path):
    counts = {}
    for row in csv.DictReader(open(path)):
        counts.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    return [counts[launch] for launch in sorted(counts)]


def simulated_launches(path):
    """The launch records (not those of other kinds: "ptxsim__record")."""
    records = [json.loads(line) for line in open(path) if line.strip()]
    return [r for r in records if "ptxsim__record" not in r]


def paired_launches(stats_path, csv_path, checker):
    """The run's launches beside the recording's, in order, as (simulated,
    recorded) pairs; None, after saying so as `checker`, when their counts
    differ."""
    simulated = simulated_launches(stats_path)
    hardware = recorded_launches(csv_path)
    if len(simulated) != len(hardware):
        print(f"{checker}: {len(simulated)} launches simulated, {len(hardware)} recorded")
        return None
    return list(zip(simulated, hardware))


def named_pairs(stats_path, csv_path, names_path, checker):
    """paired_launches with each launch's name: a line of `names_path` (the
    recorded program's output, a line a launch), else the kernel's, as
    (name, simulated, recorded) triples; None as paired_launches."""
    pairs = paired_launches(stats_path, csv_path, checker)
    if pairs is None:
        return None
    names = [line.strip() for line in open(names_path)]
    return [(names[i] if i < len(names) else launch["kernel"], launch, hw) for i, (launch, hw) in enumerate(pairs)]
