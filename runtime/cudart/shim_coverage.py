"""What the cudart shim implements of CUDA 13's libcudart.so.13 exports.

Shared by generate_stubs.py (which writes a stub for every function not
implemented) and coverage.py (which counts them): the export list, the
CUDART_EXPORT definitions in the shim's sources, and the groups left out by
design (left_out_by_design.txt).
"""
import re

# CUDART_EXPORT marks the runtime's functions, DRIVER_EXPORT the driver's;
# DRIVER_ALIAS(name, ...) exports a driver function under a second name.
EXPORT_PATTERN = re.compile(r"(?:CUDART|DRIVER)_EXPORT\s[^(;]*?\b(\w+)\(|DRIVER_ALIAS\((\w+),")


def exported_functions(listing):
    with open(listing) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def implemented_functions(sources):
    implemented = set()
    for path in sources:
        with open(path) as f:
            implemented.update(a or b for a, b in EXPORT_PATTERN.findall(f.read()))
    return implemented


def left_out_groups(path):
    """[(group, compiled pattern, why)] in file order."""
    groups = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            group, pattern, why = (field.strip() for field in line.split(" | "))
            groups.append((group, re.compile(pattern), why))
    return groups


def group_of(name, groups):
    for group, pattern, why in groups:
        if pattern.fullmatch(name):
            return group, why
    return None
