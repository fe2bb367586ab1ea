#!/usr/bin/env python3
# Does every text of a gnuplot SVG stay on its canvas?  Each <text> is
# placed at its translate(), turned by its rotate(), anchored start, middle
# or end, and taken as len x 0.55 x font-size wide (DejaVu Sans averages
# about that); prints the texts that reach outside, exit 1 if any.
#   tests/tools/svgfit.py FIG.svg
import math, re, sys
svg = open(sys.argv[1]).read()
W = float(re.search(r'<svg[^>]*width="([\d.]+)"', svg).group(1))
H = float(re.search(r'<svg[^>]*height="([\d.]+)"', svg).group(1))
bad = []
for m in re.finditer(r'<g (transform="translate[^>]*)>\s*<text>(.*?)</text>', svg, re.S):
    attrs, txt = m.groups()
    x, y = map(float, re.search(r'translate\(([-\d.]+),([-\d.]+)\)', attrs).groups())
    r = re.search(r'rotate\(([-\d.]+)\)', attrs)
    a = math.radians(float(r.group(1)) if r else 0)
    fs = float((re.search(r'font-size="([\d.]+)"', attrs) or re.search(r'font-size="([\d.]+)"', txt)).group(1))
    an = re.search(r'text-anchor="(\w+)"', attrs)
    txt = re.sub(r'<[^>]+>', '', txt)
    L = len(txt) * fs * 0.55
    dx, dy = math.cos(a) * L, math.sin(a) * L
    for f in {"end": (-1, 0), "middle": (-0.5, 0.5)}.get(an.group(1) if an else "start", (0, 1)):
        px, py = x + f * dx, y + f * dy
        if px < -1 or px > W + 1 or py < -1 or py > H + 1:
            bad.append(f"{txt!r} reaches ({px:.0f},{py:.0f}) outside {W:.0f}x{H:.0f}")
            break
print("\n".join(bad))
sys.exit(1 if bad else 0)
