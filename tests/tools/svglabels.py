#!/usr/bin/env python3
# Do any two texts of a gnuplot SVG overlap?  Each <text> of two or more
# characters (a lone '*' marks a bar, not a label) is a box len x 0.55 x
# font-size wide (DejaVu Sans averages about that) from 0.75 font-size
# above its baseline to 0.2 below, anchored start, middle or end at its
# translate() and turned by its rotate(); boxes that intersect by more
# than half a pixel are printed, exit 1 if any.
#   tests/tools/svglabels.py FIG.svg
import math, re, sys


def box(x, y, deg, fs, anchor, n):
    L = n * fs * 0.55
    x0 = {"end": -L, "middle": -L / 2}.get(anchor, 0)
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(x + u * c - v * s, y + u * s + v * c)
            for u, v in ((x0, -0.75 * fs), (x0 + L, -0.75 * fs), (x0 + L, 0.2 * fs), (x0, 0.2 * fs))]


def apart(p, q):
    """Separating axis test on two convex quads, with half a pixel to spare."""
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            ax, ay = y1 - y2, x2 - x1
            n = math.hypot(ax, ay) or 1
            a = [(px * ax + py * ay) / n for px, py in p]
            b = [(px * ax + py * ay) / n for px, py in q]
            if max(a) <= min(b) + 0.5 or max(b) <= min(a) + 0.5:
                return True
    return False


svg = open(sys.argv[1]).read()
texts = []
for m in re.finditer(r'<g (transform="translate[^>]*)>\s*<text>(.*?)</text>', svg, re.S):
    attrs, txt = m.groups()
    txt = re.sub(r'<[^>]+>', '', txt).strip()
    if len(txt) < 2:
        continue
    x, y = map(float, re.search(r'translate\(([-\d.]+),([-\d.]+)\)', attrs).groups())
    r = re.search(r'rotate\(([-\d.]+)\)', attrs)
    fs = float(re.search(r'font-size="([\d.]+)"', attrs + txt).group(1))
    an = re.search(r'text-anchor="(\w+)"', attrs)
    texts.append((txt, box(x, y, float(r.group(1)) if r else 0, fs, an.group(1) if an else "start", len(txt))))
bad = [f"{a!r} overlaps {b!r}" for i, (a, p) in enumerate(texts)
       for b, q in texts[i + 1:] if not apart(p, q)]
print("\n".join(bad))
sys.exit(1 if bad else 0)
