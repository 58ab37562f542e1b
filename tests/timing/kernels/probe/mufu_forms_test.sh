#!/usr/bin/env bash
# The multi-function unit's PTX forms against the H100's SM:
# mufu_forms_probe.cu (its output recorded on the device machine's H200
# into h200/mufu_forms.stdout) runs under `ptxsim run --timing` with the
# default preset; each form's cycles a step of its chain must be within 10%
# of the recording's (pipe.mufu.latency, pipe.mufu.scaled_latency,
# pipe.mufu.reduced_latency; sim/src/timing/pipeline_of.h, sassAround).
# Usage: mufu_forms_test.sh PTXSIM WORK_DIR
set -euo pipefail
source "$(dirname "$0")/probe_test_env.sh" mufu_forms_probe "$@"
(cd "$work" && "$ptxsim" run --timing -- ./mufu_forms_probe >"$work/mufu_forms.stdout")
python3 - "$here/h200/mufu_forms.stdout" "$work/mufu_forms.stdout" <<'PY'
import re
import sys

def steps(path):
    return {m.group(1): float(m.group(2))
            for m in re.finditer(r"^(\S+) chain of 64: \d+ cycles, ([\d.]+) a step$", open(path).read(), re.M)}

recorded, simulated = steps(sys.argv[1]), steps(sys.argv[2])
if set(recorded) != set(simulated) or not recorded:
    sys.exit(f"mufu_forms_test: forms recorded {sorted(recorded)}, simulated {sorted(simulated)}")
off = 0
for form, cycles in recorded.items():
    error = simulated[form] / cycles - 1
    off += abs(error) > 0.10
    print(f"{form:22} H200 {cycles:6.2f} cycles a step, ptxsim {simulated[form]:6.2f} ({100 * error:+5.1f}%)"
          f"{'  off' if abs(error) > 0.10 else ''}")
sys.exit(1 if off else 0)
PY
