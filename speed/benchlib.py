"""Small helpers shared by the speed/*.py scripts (not part of iostrat)."""
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def bench_setup(name, default_reps):
    """What every bench starts from: the iostrat under test (the first
    argument, else build/iostrat), its data directory ($BENCH_DATA, else
    data/bench-NAME) and its repetitions, or rounds ($REPS, else
    default_reps)."""
    return (os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/iostrat"),
            os.path.abspath(os.environ.get("BENCH_DATA", "data/bench-" + name)),
            int(os.environ.get("REPS", str(default_reps))))


def sh(*args, **kw):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kw).stdout


def gen(bin_, path, *args):
    sh(bin_, "gen", path, *args)


def run_rows(bin_, strategy, src, dst, reps=3, **opts):
    """iostrat run --json: one dict per repetition (verified, or it exits)."""
    cmd = [bin_, "run", "-s", strategy, src, dst, "--reps", str(reps), "--json"]
    for k, v in opts.items():
        k = k.replace("_", "-")
        cmd += [f"--{k}"] if v is True else [f"--{k}", str(v)]
    out = subprocess.run(cmd, text=True, capture_output=True)
    if out.returncode:
        sys.exit(f"bench: {' '.join(cmd)} failed: {out.stderr.strip()}")
    return [json.loads(l) for l in out.stdout.splitlines() if l.strip()]


def interleaved(bin_, out, runs, reps):
    """runs: name -> (strategy, src, opts); one repetition of each per
    round, reps rounds, so a drift of the machine meets each alike."""
    rows = {name: [] for name in runs}
    for _ in range(reps):
        for name, (strat, src, opts) in runs.items():
            rows[name] += run_rows(bin_, strat, src, out, reps=1, **opts)
    return rows


def med(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else float("nan")


def drop_caches():
    os.sync()
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3")
        return True
    except OSError:
        return False


def timed_child(script, cache, files):
    """Run a bash script in one child: elapsed, user and sys CPU."""
    os.sync()
    if cache == "cold":
        drop_caches()
    elif cache == "warm":
        for f in files:
            with open(f, "rb") as fh:
                while fh.read(1 << 20):
                    pass
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(["bash", "-c", script], check=True)
    el = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return el, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def table(headers, rows):
    w = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(str(c).rjust(w[i]) for i, c in enumerate(cells))
    print(line(headers))
    print(line(["-" * x for x in w]))
    for r in rows:
        print(line(r))
