#!/usr/bin/env python3
# stop=ci's stopping rule under no true difference: how often a cell ends
# with an interval that excludes 1 (a false winner) when it stops on
# significance (the first interval that excludes 1 or is narrow), at a fixed
# number of rounds, and on the interval's width alone (src/harness/engine/
# cells.c).  Mirrors src/results/paired.c: the Hodges-Lehmann estimate of
# the log ratios, the exact signed-rank interval (Walsh averages k+1 and
# M-k), back-transformed; the half-width relative to the estimate.
#   tests/tools/stop-sim.py [TRIALS [SD,SD...]]     (docs/verdict.md)
import math, random, statistics, sys

def crit(n, alpha):
    m = n * (n + 1) // 2
    c = [0] * (m + 1); c[0] = 1
    for r in range(1, n + 1):
        for s in range(m, r - 1, -1):
            c[s] += c[s - r]
    cdf, k, total = 0, -1, 2 ** n
    for t in range(m + 1):
        if 2 * t >= m: break
        cdf += c[t]
        if not (2 * cdf / total < alpha): break
        k = t
    return k

def interval(d, k):
    n = len(d)
    w = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(w)
    return math.exp(w[k]), math.exp(w[m - 1 - k]), math.exp(statistics.median(w))

def run(level, floor, maxr, sigma, target, trials, seed):
    alpha = 1 - level
    ks = {n: crit(n, alpha) for n in range(floor, maxr + 1)}
    assert ks[floor] >= 0 and (floor == 1 or crit(floor - 1, alpha) < 0)
    rng = random.Random(seed)
    old = fixed = new = 0; new_rounds = old_rounds = 0
    for _ in range(trials):
        d = [rng.gauss(0, sigma) for _ in range(maxr)]
        ivs = {n: interval(d[:n], ks[n]) for n in range(floor, maxr + 1)}
        excl = lambda iv: iv[0] > 1 or iv[1] < 1
        narrow = lambda iv: (iv[1] - iv[0]) / 2 / iv[2] <= target
        # old: excludes 1 -> stop (decided); narrow -> stop; else on to max_reps
        for n in range(floor, maxr + 1):
            iv = ivs[n]
            if excl(iv) or narrow(iv) or n == maxr:
                old += excl(iv); old_rounds += n; break
        fixed += excl(ivs[maxr])
        # new: narrow -> stop; else on to max_reps; never on exclusion
        for n in range(floor, maxr + 1):
            iv = ivs[n]
            if narrow(iv) or n == maxr:
                new += excl(iv); new_rounds += n; break
    return old / trials, fixed / trials, new / trials, old_rounds / trials, new_rounds / trials

trials = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
SIGMAS = [float(x) for x in (sys.argv[2].split(",") if len(sys.argv) > 2 else ["0.02", "0.05"])]
for name, level, floor in (("2 strategies", 0.95, 6), ("5 strategies", 1 - 0.05 / 4, 8)):
    for sigma in SIGMAS:
        o, f, nw, orr, nr = run(level, floor, 10, sigma, 0.03, trials, 1)
        print(f"{name}: level {level:.4f}, rounds {floor}..10, sd(log ratio) {sigma}, "
              f"target_ci 3%, {trials} trials: old {o:.4f} (mean rounds {orr:.2f}), "
              f"fixed 10 rounds {f:.4f}, new width rule {nw:.4f} (mean rounds {nr:.2f}), "
              f"nominal {1 - level:.4f}")
