#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make the statistics fixtures (tests/fixtures/stats/) from SciPy.

The reference for src/results/paired.c, sharing no code with it: every
p-value is scipy.stats.mannwhitneyu's, every interval is
found by inverting that test over shifts (the shifts it does not reject
at 1 - level), Holm is statsmodels' multipletests, the MAD is
scipy.stats.median_abs_deviation.  The samples are fixed here (Python's
random with fixed seeds, whose stream does not change between versions).

    tests/tools/make-stat-fixtures.py DIR    write unpaired.txt,
                                             holm.txt, modz.txt into DIR

Rules the C code documents and this script encodes (docs/verdict.md):
- ratio = exp(median of log b_j - log a_i);
- Mann-Whitney: scipy's method "auto" (exact when a sample has at most 8
  values and there are no ties), with the continuity correction;
- no interval (rc EDOM) when the smallest exact p (2 / C(na+nb, na)) is
  not below 1 - level, or when the test rejects no shift at all.

tests/paired-fixtures.sh runs it into a temporary directory and compares
the result with tests/fixtures/stats/ byte for byte; tests/unit/paired.c
checks the C code against the files to 1e-6.
"""
import math
import os
import random
import sys
import warnings

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

warnings.simplefilter("ignore")


def fmt(x):
    """A float as the C test reads it back exactly (strtod)."""
    if isinstance(x, str):
        return x
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def invert(test, points, alpha):
    """The interval of the shifts `test` does not reject: the candidate
    points are the sorted distinct values at which the statistic changes;
    the shift is tried between each two and beyond both ends, and the
    interval is the closure of the gaps kept.  When no gap is kept (one
    distinct point: every log ratio the same), the points kept."""
    pts = sorted(set(points))
    tries = [pts[0] - 1.0] + [(x + y) / 2 for x, y in zip(pts, pts[1:])] + \
        [pts[-1] + 1.0]
    keep = [i for i, s in enumerate(tries) if not test(s) < alpha]
    if keep and (keep[0] == 0 or keep[-1] == len(tries) - 1):
        return None  # no shift rejected on a side: no interval
    if keep:
        return pts[keep[0] - 1], pts[keep[-1]]
    kept = [x for x in pts if not test(x) < alpha]
    return (kept[0], kept[-1]) if kept else None


def case_head(out, name, level, a, b):
    out.append("case " + name)
    out.append("level " + fmt(level))
    out.append("a " + " ".join(fmt(x) for x in a))
    out.append("b " + " ".join(fmt(x) for x in b))


def case_result(out, rc, ratio, lo, hi, p):
    out.append("rc " + rc)
    for k, v in (("ratio", ratio), ("lo", lo), ("hi", hi), ("p", p)):
        out.append("%s %s" % (k, fmt(v)))


def bad(a, b):
    return any(not (math.isfinite(x) and x > 0) for x in list(a) + list(b))


def mwu_p(x, y):
    return float(stats.mannwhitneyu(x, y, alternative="two-sided",
                                    method="auto").pvalue)


def unpaired(out, name, a, b, level=0.95):
    case_head(out, name, level, a, b)
    alpha = 1 - level
    if bad(a, b):
        return case_result(out, "EINVAL", math.nan, math.nan, math.nan, math.nan)
    if not a or not b:
        return case_result(out, "EDOM", math.nan, math.nan, math.nan, math.nan)
    la, lb = [math.log(x) for x in a], [math.log(y) for y in b]
    dd = [y - x for x in la for y in lb]
    ratio, p = math.exp(float(np.median(dd))), mwu_p(a, b)
    iv = invert(lambda s: mwu_p(lb, [x + s for x in la]), dd, alpha)
    if iv is None or 2.0 / math.comb(len(a) + len(b), len(a)) >= alpha:
        return case_result(out, "EDOM", ratio, math.nan, math.nan, p)
    case_result(out, "0", ratio, math.exp(iv[0]), math.exp(iv[1]), p)


def holm(out, name, p):
    out.append("case " + name)
    out.append("p " + " ".join(fmt(x) for x in p))
    adj = multipletests(p, method="holm")[1]
    out.append("adj " + " ".join(fmt(x) for x in adj))


def modz(out, name, v):
    out.append("case " + name)
    out.append("v " + " ".join(fmt(x) for x in v))
    med = float(np.median(v))
    mad = float(stats.median_abs_deviation(v, scale=1.0))
    z = []
    for x in v:
        if mad == 0:
            z.append(0.0 if x == med else math.copysign(math.inf, x - med))
        else:
            z.append(0.6745 * (x - med) / mad)
    out.append("z " + " ".join(fmt(x) for x in z))


def times(rng, n, base, spread, drift=0.0, digits=6):
    """n elapsed times around base, with a drift shared by the round."""
    return [round(base * (1 + drift * r) * (1 + rng.gauss(0, spread)), digits)
            for r in range(n)]


def unpaired_cases():
    out = []
    a8 = [10, 11, 12, 10.5, 11.2, 9.8, 10.1, 10.9]
    b8 = [11, 12.5, 12.9, 11.0, 12.1, 10.9, 10.4, 11.8]
    unpaired(out, "eight_against_eight", a8, b8)
    unpaired(out, "three_against_three", a8[:3], b8[:3])
    unpaired(out, "four_against_four", a8[:4], b8[:4])
    unpaired(out, "identical_samples", a8[:5], a8[:5])
    unpaired(out, "ties_normal", [1, 2, 2, 3, 4, 5, 5, 6, 7],
             [3, 4, 5, 6, 7, 8, 8, 9, 10])
    unpaired(out, "zero_variance", [5.0] * 6, [6.0] * 6)
    unpaired(out, "one_against_many", [3.0], [1, 2, 4, 5, 6])
    unpaired(out, "empty", [], [1.0, 2.0])
    unpaired(out, "non_positive", [1, -2], [1, 2])
    rng = random.Random(31)
    for i in range(30):
        na = rng.choice([4, 5, 6, 8, 9, 12, 20])
        nb = rng.choice([4, 5, 6, 8, 9, 12, 20, 30])
        base = 10 ** rng.uniform(-3, 2)
        a = times(rng, na, base, 0.08)
        b = times(rng, nb, base * rng.choice([1.0, 1.05, 1.2, 0.9]), 0.08)
        unpaired(out, "random_%02d_%d_%d" % (i, na, nb), a, b)
    return out


def holm_cases():
    out = []
    holm(out, "four", [0.01, 0.04, 0.03, 0.2])
    holm(out, "one", [0.03])
    holm(out, "ties", [0.02, 0.02, 0.02])
    holm(out, "capped_at_one", [0.5, 0.6, 0.01, 0.9, 0.3])
    holm(out, "not_monotone_raw", [0.001, 0.011, 0.012, 0.04, 0.045])
    rng = random.Random(32)
    for i in range(10):
        m = rng.randint(2, 6)
        holm(out, "random_%02d" % i, [rng.random() ** 3 for _ in range(m)])
    return out


def modz_cases():
    out = []
    modz(out, "warm_up_outlier", [15.0, 10.1, 10.0, 9.9, 10.2, 10.05])
    modz(out, "even_count", [1.0, 2.0, 3.0, 4.0, 100.0, 5.0])
    modz(out, "mad_zero", [5.0, 5.0, 5.0, 7.0, 5.0, 3.0])
    modz(out, "all_equal", [2.0, 2.0, 2.0])
    modz(out, "one_value", [4.0])
    rng = random.Random(33)
    for i in range(5):
        modz(out, "random_%02d" % i, [round(rng.gauss(10, 1), 3) for _ in range(rng.randint(3, 12))])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-stat-fixtures.py DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, make in (("unpaired", unpaired_cases),
                       ("holm", holm_cases), ("modz", modz_cases)):
        with open(os.path.join(sys.argv[1], name + ".txt"), "w") as f:
            f.write("# made by tests/tools/make-stat-fixtures.py\n")
            f.write("\n".join(make()) + "\n")


if __name__ == "__main__":
    main()
