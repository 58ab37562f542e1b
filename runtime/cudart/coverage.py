#!/usr/bin/env python3
"""Counts the CUDA Runtime (or, with --api driver, Driver) API functions
ptxsim implements.

Prints how many of the functions CUDA 13.0's libcudart.so.13 exports
(exported_functions.txt) the shim's sources define with CUDART_EXPORT, how
many are left out by design, by group (left_out_by_design.txt), and how many
are not supported yet; with --api driver, the same for libcuda.so.1
(runtime/driver: DRIVER_EXPORT and DRIVER_ALIAS). With --list, also names
the functions of each kind. With --check FILE (repeatable: README.md and
the coverage page in docs/), fails unless each file states the current
figure, once, as "implements N of the M functions" ("... M driver
functions"); --update FILE (repeatable) writes it there.

Usage: coverage.py [--api runtime|driver] [--list] [--check FILE ... | --update FILE ...]
"""
import argparse
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from shim_coverage import exported_functions, group_of, implemented_functions, left_out_groups  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
APIS = {
    # api: (source folder, library, the figure's words)
    "runtime": (HERE, "libcudart.so.13", "functions"),
    "driver": (os.path.join(HERE, "..", "driver"), "libcuda.so.1", "driver functions"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", choices=sorted(APIS), default="runtime", help="which API to count")
    parser.add_argument("--list", action="store_true", help="name the functions of each kind")
    parser.add_argument("--check", metavar="FILE", action="append", default=[],
                        help="check the figure FILE states (repeatable)")
    parser.add_argument("--update", metavar="FILE", action="append", default=[],
                        help="write the current figure into FILE (repeatable)")
    args = parser.parse_args()

    folder, library, words = APIS[args.api]
    figure = re.compile(r"implements\s+(\d+)\s+of\s+the\s+(\d+)\s+" + r"\s+".join(words.split()) + r"\b")
    phrase = "implements %s of the %s " + words
    exported = exported_functions(os.path.join(folder, "exported_functions.txt"))
    implemented = implemented_functions(sorted(glob.glob(os.path.join(folder, "*.cpp"))))
    groups = left_out_groups(os.path.join(folder, "left_out_by_design.txt"))
    done = [name for name in exported if name in implemented]
    by_group = {group: [] for group, _, _ in groups}
    not_yet = []
    for name in exported:
        if name in implemented:
            continue
        found = group_of(name, groups)
        (by_group[found[0]] if found else not_yet).append(name)

    left_out = sum(len(names) for names in by_group.values())
    print("implemented: %d of the %d functions %s exports" % (len(done), len(exported), library))
    print("left out by design: %d (%s)" %
          (left_out, ", ".join("%s %d" % (group, len(names)) for group, names in by_group.items())))
    print("not supported yet: %d" % len(not_yet))
    if args.list:
        for title, names in [("implemented", done)] + list(by_group.items()) + [("not supported yet", not_yet)]:
            print("\n%s:\n  %s" % (title, "\n  ".join(names)))

    current = (str(len(done)), str(len(exported)))
    for path in args.update:
        with open(path) as f:
            text = f.read()
        text, replaced = figure.subn(phrase % current, text)
        if replaced != 1:
            print("%s: expected one \"%s\", found %d" % (path, phrase % ("N", "M"), replaced), file=sys.stderr)
            return 1
        with open(path, "w") as f:
            f.write(text)
    failed = 0
    for path in args.check:
        with open(path) as f:
            stated = figure.findall(f.read())
        if stated != [current]:
            print("%s states %s; the current figure is: %s (update it)" %
                  (path, " and ".join(phrase % s for s in stated) or "no figure", phrase % current),
                  file=sys.stderr)
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
