#!/usr/bin/env python3
"""The README stays a front door and the user guide's links resolve: fails
when README.md is longer than 300 lines, or when a relative link in
README.md or docs/**/*.md names a file or folder that does not exist.
Usage: check_docs.py REPOSITORY_ROOT"""
import glob
import os
import re
import sys

MAX_README_LINES = 300
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def main(root):
    failures = []
    readme = os.path.join(root, "README.md")
    with open(readme) as f:
        lines = f.read().count("\n")
    if lines > MAX_README_LINES:
        failures.append("README.md has %d lines, more than %d: move reference material into docs/" %
                        (lines, MAX_README_LINES))
    pages = [readme] + sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    for page in pages:
        in_code = False
        with open(page) as f:
            for number, line in enumerate(f, 1):
                if line.lstrip().startswith("```"):
                    in_code = not in_code
                    continue
                if in_code:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                        continue
                    path = target.split("#", 1)[0]
                    if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(page), path))):
                        failures.append("%s:%d: link to %s, which does not exist" %
                                        (os.path.relpath(page, root), number, target))
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
