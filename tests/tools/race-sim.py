#!/usr/bin/env python3
# stop=ci's race (src/results/race.c, src/engine/cells.c) simulated
# against the rule it replaced: the false-claim rate with no true
# difference (a strategy said behind another, or a winner named), with a
# look after every round, with one resumed extension to the projected
# rounds, and with a naive look (a fixed-level interval at every round);
# and the repetitions each spends; of the extensions, how many decided.  Mirrors race.c: every pair's Student-t
# interval of the mean log ratio at alpha / (k(k-1)/2) spent over the looks
# (alpha_n = a / ((n-2)(n-1)), n >= 3), behind by any member, the leader the
# lowest median of the rest, equal within min_effect, futile from round 8
# when the projection (the rounds seen, then rounds like the typical ones)
# is beyond max_reps.  The old rule: every
# strategy every round, the leading pair's exact signed-rank interval at
# 1 - 0.05/m until its half-width is within 3% (8-10 rounds for five, 6-10
# for two), then the fastest against each at that level (any Holm
# rejection needs one at 0.05/m: the same event).
#   tests/tools/race-sim.py [TRIALS [SEED]]        (docs/verdict.md, "Racing")
import math, random, statistics, sys

ALPHA, BAND, FUTILE_FROM, MAX_REPS, CAP, EXT_CAP = 0.05, 0.05, 8, 40, 10000, 400
HEAVY = [False] # one round in ten at four times the spread


def noise(rng, sigma):
    s = sigma / math.sqrt(2)
    return rng.gauss(0, 4 * s if HEAVY[0] and rng.random() < 0.1 else s)


def incbeta(a, b, x):
    if x <= 0: return 0.0
    if x >= 1: return 1.0
    if x > (a + 1) / (a + b + 2): return 1 - incbeta(b, a, 1 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x)) / a
    f, c, d = 1.0, 1.0, 0.0
    for i in range(401):
        m = i // 2
        if i == 0: num = 1.0
        elif i % 2: num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
        else: num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1 + num * d; d = 1e-300 if abs(d) < 1e-300 else d; d = 1 / d
        c = 1 + num / c; c = 1e-300 if abs(c) < 1e-300 else c
        f *= c * d
        if abs(1 - c * d) < 1e-12: break
    return front * (f - 1)


def t_quantile(p, df):
    cdf = lambda t: 1 - 0.5 * incbeta(df / 2, 0.5, df / (df + t * t))
    lo, hi = 0.0, 1.0
    while cdf(hi) < p and hi < 1e12: hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf(mid) < p: lo = mid
        else: hi = mid
        if hi - lo <= 1e-12 * hi: break
    return (lo + hi) / 2


_q = {}
def margin_q(n, a, anytime):
    """t quantile of look n at pair budget a (anytime: a/((n-2)(n-1)))."""
    key = (n, a, anytime)
    if key not in _q:
        an = a / ((n - 2) * (n - 1)) if anytime else a
        _q[key] = t_quantile(1 - an / 2, n - 1)
    return _q[key]


def robust(d):
    c = statistics.median(d)
    return c, 1.4826 * statistics.median([abs(x - c) for x in d])


def needed(d, a, band, cap):
    """The first look that would decide it (anytime.c's projection), up to
    cap; 0 when none by then: the rounds seen stay in the interval, those
    to come are like the typical ones (robust center and spread)."""
    c, s = robust(d)
    n0 = len(d)
    mu0 = sum(d) / n0
    ss0 = sum((x - mu0) ** 2 for x in d)
    for n in range(max(3, n0 + 1), cap + 1):
        k = n - n0
        mu = (n0 * mu0 + k * c) / n
        sd = math.sqrt((ss0 + n0 * (mu0 - mu) ** 2 + k * (s * s + (c - mu) ** 2)) / (n - 1))
        m = margin_q(n, a, True) * sd / math.sqrt(n)
        if m < abs(mu) or m <= math.log1p(band) - abs(mu): return n
    return 0


def pair_ci(st, a, anytime):
    """(mean, margin) of a pair's running sums (n, s, ss); None below 3."""
    n, s, ss = st
    if n < 3: return None
    mu = s / n
    sd = math.sqrt(max(ss - n * mu * mu, 0) / (n - 1))
    return mu, margin_q(n, a, anytime) * sd / math.sqrt(n)


def look(x, st, k, a, anytime, band, cap, project):
    """One look: behind[], leader, decision, rounds needed (0: none in sight)."""
    behind = [False] * k
    for (i, j), p in st.items():
        ci = pair_ci(p, a, anytime)
        if ci is None: continue
        if ci[0] - ci[1] > 0: behind[i] = True
        elif ci[0] + ci[1] < 0: behind[j] = True
    med = [statistics.median(v) for v in x]
    ins = [i for i in range(k) if not behind[i]]
    lead = min(ins, key=lambda i: med[i])
    opened, need, hopeless = 0, 0, False
    for i in ins:
        if i == lead: continue
        p = st[(i, lead)] if (i, lead) in st else st[(lead, i)]
        ci = pair_ci(p, a, anytime)
        if ci is not None:
            mu = ci[0] if (i, lead) in st else -ci[0]
            if mu - ci[1] >= -math.log1p(band) and mu + ci[1] <= math.log1p(band): continue
        opened += 1
        if project:
            n = min(len(x[i]), len(x[lead]))
            nd = needed([x[i][r] - x[lead][r] for r in range(n)], a, band, cap)
            hopeless |= nd == 0
            need = max(need, nd)
    dec = "winner" if len(ins) == 1 else "equal" if not opened else "undecided"
    return behind, lead, dec, 0 if hopeless else need


def race(mean, sigma, rng, anytime=True, extend=False):
    k = len(mean); a = ALPHA / (k * (k - 1) / 2)
    x = [[] for _ in range(k)]
    st = {(i, j): [0, 0.0, 0.0] for i in range(k) for j in range(i + 1, k)}
    out, said_behind = [False] * k, [False] * k
    cap, rounds, reps, ext = MAX_REPS, 0, 0, False
    while True:
        rounds += 1
        for i in range(k):
            if not out[i]:
                x[i].append(math.log(mean[i]) + noise(rng, sigma)); reps += 1
        for (i, j), p in st.items():
            if not out[i] and not out[j]:
                d = x[i][-1] - x[j][-1]
                p[0] += 1; p[1] += d; p[2] += d * d
        if rounds < 3: continue
        behind, lead, dec, need = look(x, st, k, a, anytime, BAND, EXT_CAP + 1,
                                       rounds >= FUTILE_FROM)
        for i in range(k):
            if behind[i]: out[i] = said_behind[i] = True
        if dec != "undecided": break
        futile = rounds >= FUTILE_FROM and (need == 0 or need > cap)
        if rounds >= cap or futile:
            if extend and not ext and 0 < need <= EXT_CAP:
                ext, cap = True, need # `iostrat bench --resume DIR -D max_reps=N`
                continue
            break
    PROMISES[0] += ext; PROMISES[1] += ext and dec != "undecided"
    return said_behind, dec, lead, reps


# --- the old rule: width-only stop, exact signed-rank intervals ---------------
def crit(n, alpha):
    m = n * (n + 1) // 2
    c = [0] * (m + 1); c[0] = 1
    for r in range(1, n + 1):
        for s in range(m, r - 1, -1): c[s] += c[s - r]
    cdf, k, total = 0, -1, 2 ** n
    for t in range(m + 1):
        if 2 * t >= m: break
        cdf += c[t]
        if not (2 * cdf / total < alpha): break
        k = t
    return k


def sr_interval(d, k):
    n = len(d)
    w = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    return w[k], w[len(w) - 1 - k], statistics.median(w)


def old_rule(mean, sigma, rng):
    k = len(mean); m = k - 1; alpha = 0.05 / m
    floor = 6 if k == 2 else 8
    x = [[math.log(mean[i]) + noise(rng, sigma) for _ in range(10)]
         for i in range(k)]
    for n in range(floor, 11):
        med = [statistics.median(v[:n]) for v in x]
        order = sorted(range(k), key=lambda i: med[i])
        a, b = order[0], order[1]
        lo, hi, est = sr_interval([x[b][r] - x[a][r] for r in range(n)], crit(n, alpha))
        if (math.exp(hi) - math.exp(lo)) / 2 / math.exp(est) <= 0.03 or n == 10: break
    behind = [False] * k
    for j in order[1:]:
        lo, hi, _ = sr_interval([x[j][r] - x[a][r] for r in range(n)], crit(n, alpha))
        behind[j] = lo > 0
    return behind, ("winner" if all(behind[j] for j in order[1:]) else "other"), a, k * n


def false_claim(behind, dec, lead, mean):
    """A strategy said behind one that is not truly faster, or a wrong winner."""
    best = min(mean)
    wrong_behind = any(behind[i] and mean[i] <= best * 1.0000001 for i in range(len(mean)))
    wrong_winner = dec == "winner" and mean[lead] > best * 1.0000001
    return wrong_behind or wrong_winner


PROMISES = [0, 0] # extensions followed, and of them those that decided


def case(name, mean, sigma, trials, seed):
    rows = []
    for rule in ("race", "race + extension", "naive look", "old rule"):
        rng = random.Random(seed)
        bad = decided = reps = 0
        PROMISES[:] = [0, 0]
        for _ in range(trials):
            if rule == "old rule": b, dec, lead, r = old_rule(mean, sigma, rng)
            else: b, dec, lead, r = race(mean, sigma, rng, rule != "naive look",
                                         rule == "race + extension")
            bad += false_claim(b, dec, lead, mean); decided += dec in ("winner", "equal"); reps += r
        kept = (f"{PROMISES[1]} of {PROMISES[0]}" if rule == "race + extension" and PROMISES[0]
                else "-")
        rows.append((rule, bad / trials, decided / trials, reps / trials, kept))
    old = rows[-1][3]
    for rule, bad, dec, reps, kept in rows:
        print(f"| {name} | {sigma} | {rule} | {100 * bad:.2f}% | {100 * dec:.0f}% | "
              f"{reps:.1f} | {100 * (1 - reps / old):+.0f}% | {kept} |")
    sys.stdout.flush()


trials = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
print(f"{trials} cells per row, seed {seed}, min_effect {100 * BAND:.0f}%, max_reps {MAX_REPS}, "
      f"extension up to {EXT_CAP} rounds")
print("| cell (true times) | sd of a pair's log ratio | rule | false claims | decided | "
      "repetitions | saved vs old | extensions that decided |")
print("|---|---|---|---|---|---|---|---|")
for sigma in (0.05, 0.20):
    case("2 equal", [1, 1], sigma, trials, seed)
    case("5 equal", [1] * 5, sigma, trials, seed)
case("5, W=0-like: 1, 1.03, 1.08, 1.6, 2.1", [1, 1.03, 1.08, 1.6, 2.1], 0.20, trials, seed)
case("5, W=100-like: 1, 1.28, 1.40, 1.5, 1.6", [1, 1.28, 1.40, 1.5, 1.6], 0.05, trials, seed)
HEAVY[0] = True
case("5 equal, heavy tails (1 round in 10 at 4x the spread)", [1] * 5, 0.05, trials, seed)
case("2 equal, heavy tails", [1, 1], 0.05, trials, seed)
