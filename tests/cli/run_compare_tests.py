#!/usr/bin/env python3
"""`ptxsim compare` end to end: a real `ptxsim run --timing --stats` record of
the bundled example against a CSV in Nsight Compute's format; the printed
values, errors and MAPE (worked out here from the two files), the warning for
a launch on one side only, the checks' exit statuses and the errors for bad
input. Usage: run_compare_tests.py PTXSIM SOURCE_DIR WORK_DIR"""

import json
import os
import shutil
import subprocess
import sys

ptxsim, source, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print("ok:", name)
    else:
        failures += 1
        print("FAILED:", name, detail, file=sys.stderr)


nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
if not os.access(nvcc, os.X_OK):
    sys.exit("run_compare_tests: nvcc is required to build the example and was not found")
app = os.path.join(work, "vector_add")
subprocess.run([nvcc, "-cudart", "shared", "-arch=sm_90", "-o", app,
                os.path.join(source, "examples", "vector_add.cu")], check=True)
stats = os.path.join(work, "vector_add.jsonl")
subprocess.run([ptxsim, "run", "--timing", "--stats", stats, "--", app], check=True, stdout=subprocess.DEVNULL)
with open(stats) as f:
    records = [json.loads(line) for line in f if line.strip()]
# The timing parameters, written once, then the launch, which names them.
parameters, record = records[0], records[1]
if parameters.get("ptxsim__record") != "config" or record.get("ptxsim__config") != parameters["ptxsim__config"]:
    sys.exit("run_compare_tests: the statistics do not begin with the timing parameters the launch names")

# Hardware values as ncu prints them: thousands separators, prefixed units.
hardware = {  # metric: (unit, printed value, value in the statistics' unit)
    "gpc__cycles_elapsed.max": ("cycle", "21,345", 21345.0),
    "dram__bytes_read.sum": ("Mbyte", "8.39", 8.39e6),
    "gpu__time_duration.sum": ("usecond", "12.16", 12160.0),
    "lts__t_sector_hit_rate.pct": ("%", "48.50", 48.5),
}
columns = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
           "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value"]


def row(launch, kernel, metric, unit, value):
    fields = [str(launch), "4242", "vector_add", "127.0.0.1", kernel, "1", "7", "(256, 1, 1)", "(4096, 1, 1)", "0",
              "9.0", "Command line profiler metrics", metric, unit, value]
    return ",".join('"%s"' % f for f in fields) + "\n"


csv_path = os.path.join(work, "h100.csv")
with open(csv_path, "w") as f:
    f.write("==PROF== Connected to process 4242 (vector_add)\n")
    f.write("vectorAdd: 1048576 elements, 0 mismatches\n")
    f.write(",".join('"%s"' % c for c in columns) + "\n")
    for metric, (unit, printed, _) in hardware.items():
        f.write(row(0, "vectorAdd(const float *, const float *, float *, int)", metric, unit, printed))
    f.write(row(1, "warmUp()", "gpc__cycles_elapsed.max", "cycle", "1,024"))


def compare(*arguments):
    result = subprocess.run([ptxsim, "compare", "--ncu", csv_path, "--stats", stats, *arguments],
                            capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout, result.stderr


status, out, err = compare()
check("compare exits 0", status == 0, err)
check("warm-up launch only in the CSV", "warning: warmUp() #0 is only in " + csv_path in err, err)
label = "vectorAdd(float const*, float const*, float*, int) #0"
errors = {}
for metric, (_, _, hw) in hardware.items():
    sim = float(record[metric])
    error = (sim - hw) / hw * 100
    errors[metric] = error
    lines = [line for line in out.splitlines() if line.startswith(label) and metric in line.split()]
    check(metric + ": one launch line", len(lines) == 1, out)
    if not lines:
        continue
    words = lines[0][len(label):].split()
    check(metric + ": hardware value in base units", float(words[1]) == hw, lines[0])
    check(metric + ": simulated value", abs(float(words[2]) - sim) <= 1e-4 * max(1.0, abs(sim)), lines[0])
    check(metric + ": error", words[3] == "%+.2f%%" % error, "%s vs %+.2f%%" % (lines[0], error))
    if metric.endswith(".pct"):
        check(metric + ": difference in points", "%+.2f points" % (sim - hw) in lines[0], lines[0])
    summary = [line for line in out.splitlines() if line.startswith(metric + " ")]
    check(metric + ": summary line", len(summary) == 1, out)
    if summary:
        words = summary[0].split()
        # launches, MAPE, max|error|, correlation (n/a: one launch)
        check(metric + ": summary values", words[1:5] == ["1", "%.2f%%" % abs(error), "%.2f%%" % abs(error), "n/a"],
              summary[0])
only = [line for line in out.splitlines() if line.startswith(label)]
check("only the metrics in both files", len(only) == len(hardware), out)

cycles_error = abs(errors["gpc__cycles_elapsed.max"])
status, out, err = compare("--metrics", "gpc__cycles_elapsed.max",
                           "--check", "gpc__cycles_elapsed.max:mape<=%.3f" % (cycles_error + 0.01),
                           "--check", "gpc__cycles_elapsed.max:max_error<=%.3f" % (cycles_error + 0.01))
check("passing checks exit 0", status == 0, err)
check("passing checks counted", "checks: 2 of 2 passed" in out, out)
check("--metrics restricts", "dram__bytes_read.sum" not in out, out)

status, out, err = compare("--check", "gpc__cycles_elapsed.max:mape<=%.3f" % (cycles_error / 2),
                           "--check", "lts__t_sector_hit_rate.pct:max_points<=1000",
                           "--check", "gpc__cycles_elapsed.max:corr>=0.9",
                           "--check", "sm__inst_executed_pipe_tensor.sum:mape<=10")
check("failing checks exit 1", status == 1, err)
check("failed MAPE check named", "check failed: gpc__cycles_elapsed.max:mape<=%.3f: MAPE is" % (cycles_error / 2) in err,
      err)
check("n/a correlation fails", "check failed: gpc__cycles_elapsed.max:corr>=0.9: correlation is n/a" in err, err)
check("metric without values fails",
      "check failed: sm__inst_executed_pipe_tensor.sum:mape<=10: no matched launch has "
      "sm__inst_executed_pipe_tensor.sum in both files" in err, err)
check("passing check not listed", "lts__t_sector_hit_rate.pct:max_points" not in err, err)
check("2 of 4 checks failed", "checks: 1 of 4 passed" in out, out)

# Bad input: a clear message naming the file (and line), exit status 2.
status, out, err = compare("--check", "gpc__cycles_elapsed.max:median<=3")
check("unknown check form", status == 2 and "error: --check gpc__cycles_elapsed.max:median<=3: expected" in err, err)
status, out, err = compare("--background", "warmUp")
check("background missing on one side", status == 2 and "error: --background: " + stats +
      " has 0 launch(es) of warmUp, not launch #0" in err, err)
status, out, err = compare("--background", "warmUp #x")
check("malformed background", status == 2 and "error: --background: 'warmUp #x' is not NAME or NAME #N" in err, err)
missing = os.path.join(work, "missing.csv")
result = subprocess.run([ptxsim, "compare", "--ncu", missing, "--stats", stats], capture_output=True, text=True)
check("missing CSV", result.returncode == 2 and missing + ": cannot open" in result.stderr, result.stderr)
bad_stats = os.path.join(work, "bad.jsonl")
with open(bad_stats, "w") as f:
    f.write(open(stats).readline())
    f.write('{"kernel": "_Z9vectorAddPKfS0_Pfi", "gpc__cycles_elapsed.max": \n')
result = subprocess.run([ptxsim, "compare", "--ncu", csv_path, "--stats", bad_stats], capture_output=True, text=True)
check("malformed JSON line", result.returncode == 2 and bad_stats + ":2: malformed JSON" in result.stderr,
      result.stderr)
other_stats = os.path.join(work, "other.jsonl")
with open(other_stats, "w") as f:
    f.write('{"kernel": "_Z5otherv", "gpc__cycles_elapsed.max": 5}\n')
result = subprocess.run([ptxsim, "compare", "--ncu", csv_path, "--stats", other_stats], capture_output=True,
                        text=True)
check("no matched launch", result.returncode == 2 and "error: no launch of" in result.stderr, result.stderr)

sys.exit(1 if failures else 0)
