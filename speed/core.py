"""make bench-core: see speed/core.sh.  Prints tables and target ratios.

Environment: SCALE (default 0.05 of the study's data sets), REPS (3),
STRATEGIES (default "stream buffer"), BENCH_DATA (default data/bench-core).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import bench_setup, gen, med, run_rows, table, timed_child  # noqa: E402

BIN, DATA, REPS = bench_setup("core", 3)
SCALE = os.environ.get("SCALE", "0.05")
STRATS = os.environ.get("STRATEGIES", "stream buffer").split()
OUT = DATA + "/out"
CAT_OUT = DATA + "/cat-out"  # not OUT: iostrat refuses a directory it did not write


def cat_copy(src, cache):
    files = sorted(f for f in os.listdir(src) if not f.startswith("."))
    os.makedirs(CAT_OUT, exist_ok=True)
    # cat each file and fsync it, as iostrat's default --fsync file does
    script = "; ".join(f"cat {src}/{f} > {CAT_OUT}/{f} && sync {CAT_OUT}/{f}" for f in files)
    runs = sorted(timed_child(script, cache, [f"{src}/{f}" for f in files])[0]
                  for _ in range(REPS))
    size = sum(os.path.getsize(f"{src}/{f}") for f in files)
    return size / runs[len(runs) // 2] / 1e6


def main():
    sets = {}
    for ds in ("medium-short", "big"):
        path = f"{DATA}/{ds}"
        gen(BIN, path, "--preset", ds, "--scale", SCALE)
        sets[ds] = path
    rows = []
    ratios = {}
    for ds, path in sets.items():
        for cache in ("cold", "warm"):
            cat_mb = cat_copy(path, cache)
            rows.append([ds, "cat", cache, "-", "-", f"{cat_mb:.1f}", "1.00", "-", "-", "-"])
            for w in (0, 100):
                for th in (1, 2):
                    for s in STRATS:
                        r = run_rows(BIN, s, path, OUT, REPS, work=w, threads=th, cache=cache)
                        mb = med(r, "mb_s")
                        ratios[(ds, cache, w, th, s)] = mb / cat_mb
                        rows.append([ds, s, cache, w, th, f"{mb:.1f}", f"{mb / cat_mb:.2f}",
                                     f"{med(r, 'user_s'):.3f}", f"{med(r, 'sys_s'):.3f}",
                                     int(max(x['maxrss_kb'] for x in r))])
    print(f"bench-core: scale {SCALE}, {REPS} reps, medians; MB/s = input MB / elapsed; "
          "x cat = ratio to cat+fsync copying the same files in this run")
    table(["dataset", "strategy", "cache", "W", "thr", "MB/s", "x cat", "user s", "sys s",
           "peak RSS KiB"], rows)

    print("\nmemory: peak RSS on a 10 MiB file vs a 1 GiB file (W=0, warm, 1 thread)")
    mem = []
    for name, lines in (("10MiB", 10240), ("1GiB", 1048576)):
        path = f"{DATA}/one-{name}"
        gen(BIN, path, "--files", "1", "--lines", str(lines), "--width", "1023")
        for s in STRATS:
            r = run_rows(BIN, s, path, OUT, 1, cache="warm", fsync="none")
            mem.append([name, s, int(r[0]["maxrss_kb"])])
    table(["file", "strategy", "peak RSS KiB"], mem)

    print("\nW cost: W=100 vs W=10 on the same data (stream, warm, 1 thread)")
    t10 = med(run_rows(BIN, "stream", sets["big"], OUT, REPS, work=10, cache="warm"), "elapsed_s")
    t100 = med(run_rows(BIN, "stream", sets["big"], OUT, REPS, work=100, cache="warm"), "elapsed_s")
    print(f"  W=10 {t10:.3f} s, W=100 {t100:.3f} s, ratio {t100 / t10:.1f}x (target >= 5x)")

    print("\ntargets (W=0 warm, threads 1, big):")
    for s, target in (("buffer", 0.8), ("stream", 0.6)):
        if ("big", "warm", 0, 1, s) in ratios:
            v = ratios[("big", "warm", 0, 1, s)]
            print(f"  {s}: {v:.2f}x cat (target >= {target}x) {'ok' if v >= target else 'MISSED'}")
    for name, s, rss in mem:
        if s == "stream":
            print(f"  stream RSS on {name}: {rss} KiB (target < 4096) {'ok' if rss < 4096 else 'MISSED'}")


main()
