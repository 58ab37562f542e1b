#!/usr/bin/env python3
"""`ptxsim compare --html` rendered in headless Chromium: the page must say
(title and <body data-rendered>) that Chart.js drew every chart without an
error, and its screenshot must exist and not be blank. The page is
self-contained: Chromium loads it from a file with no network.
Usage: compare_html_test.py PTXSIM FIXTURE_DIR WORK_DIR"""

import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

ptxsim, fixtures, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)

chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium is None:
    sys.exit("compare_html_test: FAILED: chromium not found; install the Debian package chromium "
             "(apt-get install chromium, or run scripts/setup.sh)")

page = os.path.join(work, "compare.html")
result = subprocess.run([ptxsim, "compare", "--ncu", os.path.join(fixtures, "suite.csv"), "--stats",
                         os.path.join(fixtures, "suite.jsonl"), "--html", page], capture_output=True, text=True,
                        timeout=60)
if result.returncode != 0:
    sys.exit("compare_html_test: ptxsim compare failed (%d): %s" % (result.returncode, result.stderr))
html = open(page, encoding="utf-8").read()
if re.search(r"<script[^>]*\bsrc=|<link[^>]*\bhref=", html):
    sys.exit("compare_html_test: FAILED: the page loads a script or style sheet from elsewhere")

base = [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
        "--user-data-dir=" + os.path.join(work, "chromium-profile"), "--virtual-time-budget=5000"]
url = "file://" + os.path.abspath(page)
dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=180)
failures = []
charts = 4  # the fixtures' metrics in both files
if "<title>ptxsim compare: rendered %d charts</title>" % charts not in dom.stdout:
    title = re.search(r"<title>(.*?)</title>", dom.stdout)
    failures.append("title after load: %s" % (title.group(1) if title else "none (chromium: %s)" % dom.stderr[-500:]))
if 'data-rendered="%d"' % charts not in dom.stdout:
    failures.append("<body data-rendered=\"%d\"> missing" % charts)
if dom.stdout.count("<canvas") != charts:
    failures.append("%d canvases, expected %d" % (dom.stdout.count("<canvas"), charts))

screenshot = os.path.join(work, "compare.png")
if os.path.exists(screenshot):
    os.remove(screenshot)
shot = subprocess.run(base + ["--screenshot=" + screenshot, "--window-size=1500,1700", url], capture_output=True,
                      text=True, timeout=180)


def png_colours(path):
    """The distinct colours of an 8-bit RGB or RGBA PNG (the standard library has no PNG reader)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type = header[:4]
    if depth != 8 or colour_type not in (2, 6):
        raise ValueError("unexpected PNG form: depth %d, colour type %d" % (depth, colour_type))
    pixel = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * pixel
    previous, colours, at = bytearray(stride), set(), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - pixel] if i >= pixel else 0
            up, up_left = previous[i], previous[i - pixel] if i >= pixel else 0
            if kind == 1: line[i] = (line[i] + left) & 255
            elif kind == 2: line[i] = (line[i] + up) & 255
            elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, pixel * 4))  # every 4th pixel suffices
        previous = line
    return width, height, colours


if not os.path.exists(screenshot):
    failures.append("no screenshot (chromium: %s)" % shot.stderr[-500:])
else:
    width, height, colours = png_colours(screenshot)
    blue = any(c[2] > 150 and c[0] < 120 for c in colours)  # the points' colour
    print("screenshot %s: %dx%d, %d colours" % (screenshot, width, height, len(colours)))
    if len(colours) < 50:
        failures.append("screenshot nearly blank: %d colours" % len(colours))
    if not blue:
        failures.append("no blue scatter points in the screenshot")

for failure in failures:
    print("FAILED:", failure, file=sys.stderr)
if not failures:
    print("ok: %d charts rendered by Chart.js in Chromium; screenshot %s" % (charts, screenshot))
sys.exit(1 if failures else 0)
