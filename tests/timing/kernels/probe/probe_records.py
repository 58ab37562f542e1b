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
    return [json.loads(line) for line in open(path) if line.strip()]
