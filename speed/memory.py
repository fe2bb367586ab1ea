"""make bench-memory: see speed/memory.sh.

Environment: FILES (default 4) and FILE_MB (default 300): the data set,
lines of 999 characters; LIMIT (memory_max, default 256M: 1.2 GB of
300 MB files is 4.5 times it, every file larger); REPS (rounds, default 3);
BENCH_DATA (default data/bench-memory).  Each round runs every strategy once unlimited and once
limited, the two in alternating order, the strategies rotated, so drift on
the machine falls on both sides of each ratio.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import bench_setup, gen, table  # noqa: E402

BIN, DATA, REPS = bench_setup("memory", 3)
FILES = int(os.environ.get("FILES", "4"))
FILE_MB = int(os.environ.get("FILE_MB", "300"))
LIMIT = os.environ.get("LIMIT", "256M")
OUT = DATA + "/out"
STRATS = ("stream", "buffer", "direct", "mmap", "uring")
GIB = float(1 << 30)


def one(strategy, src, limit=None, accounting=True):
    """One repetition: its row (also when the limit killed it) and the
    wall time of the whole `iostrat run`.  accounting: a cgroup also
    without a limit (both sides of a pair in a cgroup)."""
    cmd = [BIN, "run", "-s", strategy, src, OUT, "--reps", "1", "--json"]
    if limit:
        cmd += ["--memory-max", limit]
    if accounting:
        cmd += ["--accounting"]
    t0 = time.monotonic()
    out = subprocess.run(cmd, text=True, capture_output=True)
    wall = time.monotonic() - t0
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    if not rows or (out.returncode and not rows[0].get("oom_kill")):
        sys.exit(f"bench: {' '.join(cmd)} failed: {out.stderr.strip()}")
    rows[0]["wall_s"] = wall
    return rows[0]


def cpu(r):
    return r["user_s"] + r["sys_s"] + (r.get("kthread_s") or 0.0)


def spread(v):
    v = [x for x in v if x == x]
    if not v:
        return "-"
    return f"{statistics.median(v):.3f} ({min(v):.3f}..{max(v):.3f})"


def rounds(src):
    pairs = {s: [] for s in STRATS}
    for k in range(REPS):
        order = STRATS[k % len(STRATS):] + STRATS[:k % len(STRATS)]
        for s in order:
            sides = (None, LIMIT) if k % 2 == 0 else (LIMIT, None)
            got = {lim: one(s, src, lim) for lim in sides}
            pairs[s].append((got[None], got[LIMIT]))
    return pairs


def report(pairs, data_bytes):
    rows = []
    for s, ps in pairs.items():
        u = [p[0] for p in ps]
        lim = [p[1] for p in ps]
        ok = [(a, b) for a, b in ps if not b.get("oom_kill")]
        killed = sum(1 for b in lim if b.get("oom_kill"))
        rows.append([
            s, f"{killed}/{len(lim)}",
            f"{statistics.median(a['elapsed_s'] for a in u):.3f}",
            spread([b["elapsed_s"] / a["elapsed_s"] for a, b in ok]),
            spread([cpu(b) / cpu(a) for a, b in ok]),
            f"{statistics.median(cpu(a) for a in u) / data_bytes * GIB:.2f}",
            f"{statistics.median(cpu(b) for a, b in ok) / data_bytes * GIB:.2f}" if ok else "-",
            f"{statistics.median((a.get('kthread_s') or 0) / cpu(a) for a in u) * 100:.0f}%",
            f"{statistics.median((b.get('kthread_s') or 0) / cpu(b) for a, b in ok) * 100:.0f}%" if ok else "-",
            f"{statistics.median(a['mem_file_end_bytes'] or 0 for a in u) / 2**20:.0f}",
            f"{statistics.median(b['mem_file_end_bytes'] or 0 for a, b in ok) / 2**20:.0f}" if ok else "-",
            f"{max(b.get('mem_peak_bytes') or 0 for b in lim) / 2**20:.0f}",
        ])
    table(["strategy", "killed", "elapsed s", "x elapsed lim/unlim", "x CPU lim/unlim",
           "CPU s/GiB", "CPU s/GiB lim", "outside", "outside lim", "cache MiB",
           "cache MiB lim", "peak MiB lim"], rows)
    print("  x = paired ratio limited/unlimited per round: median (min..max), over the rounds "
          "the limited side completed; CPU = user + sys + kernel threads (kthread_s, "
          "system-wide); outside = kthread_s / CPU; cache = page cache charged to the "
          "repetition's cgroup at its end; peak = mem_peak_bytes of the limited runs")


def overhead():
    """The smallest repetition of the smoke profile (medium-short at scale
    0.005, W=0, stream), with and without the repetition's cgroup
    (--accounting), 2 x 31 repetitions in alternating order."""
    src = f"{DATA}/smoke-smallest"
    gen(BIN, src, "--preset", "medium-short", "--scale", "0.005")
    with_, without = [], []
    for k in range(31):
        sides = (False, True) if k % 2 else (True, False)
        for cg in sides:
            r = one("stream", src, accounting=cg)
            (with_ if cg else without).append(r)
    el = [a["elapsed_s"] / b["elapsed_s"] for a, b in zip(with_, without)]
    wall = [a["wall_s"] / b["wall_s"] for a, b in zip(with_, without)]
    print(f"cgroup accounting on the smoke profile's smallest repetition ({src}, stream, W=0): "
          f"elapsed with/without {spread(el)}, whole `iostrat run -r 1` wall {spread(wall)}; "
          f"median elapsed {statistics.median(a['elapsed_s'] for a in with_):.4f} s with, "
          f"{statistics.median(b['elapsed_s'] for b in without):.4f} s without")


def main():
    if os.geteuid() != 0:
        sys.exit("bench-memory: needs root (cgroups, drop_caches)")
    src = f"{DATA}/f{FILES}x{FILE_MB}MB"
    os.makedirs(DATA, exist_ok=True)
    want = FILES * FILE_MB * 10**6
    free = shutil.disk_usage(DATA).free
    if not os.path.isdir(src) and free < 3 * want:
        sys.exit(f"bench-memory: {DATA}: {free >> 20} MiB free, need {3 * want >> 20} "
                 f"(the data, the outputs, room)")
    gen(BIN, src, "--files", str(FILES), "--lines", str(FILE_MB * 1000), "--width", "999")
    data_bytes = sum(os.path.getsize(f"{src}/{f}") for f in os.listdir(src)
                     if not f.startswith("."))
    print(f"data {src}: {data_bytes / 1e6:.0f} MB in {len(os.listdir(src)) - 1} files; "
          f"limit {LIMIT}; {REPS} rounds; cold, W=0, 1 thread")
    report(rounds(src), data_bytes)
    overhead()


main()
