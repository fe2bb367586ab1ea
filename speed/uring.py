#!/usr/bin/env python3
"""make bench-uring: the io_uring pipeline's three targets, measured side by
side in one run (repetitions interleaved, medians):

  1. W=0, cold cache, each data-set shape: uring vs the best of stream and
     buffer (target: >= 1.0x, >= 1.1x on medium and big);
  2. W=1000 (CPU-bound), uring with 2 workers vs 1 worker (target 1.8x);
  3. --sink null --direct vs fio --ioengine=io_uring --direct=1 --rw=read,
     same bs (chunk) and iodepth (qd), same file (target 0.95x).

  0. (PARTS=0 or SWEEP=1) the defaults: --chunk x --qd on big and
     medium-long, W=0 cold, --fsync end, median elapsed per pair.

Environment: BENCH_DATA (default data/bench-uring), REPS (5), FSYNC (end:
one syncfs at the end; 'file' fsyncs each file, which makes 'small' slow),
SCALE_<SET> to resize a data set, CHUNK (1M) and QD (8) for part 3,
PARTS (default 1,2,3; add 0 for the defaults sweep).
"""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import bench_setup, interleaved, gen, med, run_rows, table  # noqa: E402

BIN, DATA, REPS = bench_setup("uring", 5)
FSYNC = os.environ.get("FSYNC", "end")
CHUNK = os.environ.get("CHUNK", "1M")
QD = os.environ.get("QD", "8")
# ~250 MB each, but 'small' is 2,500 files of 10 KB: cold, each file costs
# a seek for stream and buffer (~2 ms), so 10,000 would take minutes.
SETS = [("small", "0.25"), ("medium-short", "0.25"), ("medium-long", "0.25"),
        ("big", "0.125")]
OUT = DATA + "/out"


def part_cold_w0():
    print(f"== 1. W=0, cold cache, --fsync {FSYNC}, threads 1, uring at its "
          f"defaults; median of {REPS} interleaved reps")
    out = []
    for name, scale in SETS:
        scale = os.environ.get("SCALE_" + name.upper().replace("-", "_"), scale)
        src = f"{DATA}/{name}"
        gen(BIN, src, "--preset", name, "--scale", scale)
        opts = dict(work=0, cache="cold", fsync=FSYNC)
        rows = interleaved(BIN, OUT, {s: (s, src, opts) for s in ("stream", "buffer", "uring")},
                           REPS)
        el = {s: med(r, "elapsed_s") for s, r in rows.items()}
        best = min(("stream", "buffer"), key=lambda s: el[s])
        # paired: each round's best of stream/buffer over that round's
        # uring, so slow drift of the (shared, virtual) disk cancels
        paired = statistics.median(
            min(a["elapsed_s"], b["elapsed_s"]) / u["elapsed_s"]
            for a, b, u in zip(rows["stream"], rows["buffer"], rows["uring"]))
        mb = rows["uring"][0]["bytes_in"] / 1e6
        out.append([name, rows["uring"][0]["files"], f"{mb:.0f}",
                    f"{el['stream']:.2f}", f"{el['buffer']:.2f}", f"{el['uring']:.2f}",
                    f"{rows['uring'][0]['maxrss_kb'] // 1024}",
                    f"{el[best] / el['uring']:.2f}x ({best})", f"{paired:.2f}x",
                    " ".join(f"{r['elapsed_s']:.2f}" for r in rows["uring"])])
    table(["set", "files", "MB", "stream_s", "buffer_s", "uring_s", "uring_rss_MiB",
           "uring speedup vs best", "paired", "uring reps (s)"], out)
    print("(speedup: ratio of medians; paired: median over rounds of "
          "min(stream, buffer) / uring in the same round)")


def part_cpu():
    print("\n== 2. W=1000 (CPU-bound), warm cache, --fsync none: uring 2 workers vs 1")
    src = f"{DATA}/cpu"
    gen(BIN, src, "--files", "4", "--lines", "4000", "--width", "1000")
    opts = dict(work=1000, cache="warm", fsync="none")
    rows = interleaved(BIN, OUT, {t: ("uring", src, dict(opts, threads=t)) for t in (1, 2)}, REPS)
    e1, e2 = med(rows[1], "elapsed_s"), med(rows[2], "elapsed_s")
    table(["workers", "elapsed_s", "user_s"],
          [[t, f"{med(rows[t], 'elapsed_s'):.2f}", f"{med(rows[t], 'user_s'):.2f}"]
           for t in (1, 2)])
    print(f"speedup 2 workers / 1 worker: {e1 / e2:.2f}x (target 1.8x)")


def fio_read(path, size):
    cmd = ["fio", "--name=uring-baseline", f"--filename={path}", "--ioengine=io_uring",
           "--direct=1", "--rw=read", f"--bs={CHUNK}", f"--iodepth={QD}",
           f"--size={size}", "--output-format=json"]
    out = subprocess.run(cmd, text=True, capture_output=True, check=True).stdout
    job = json.loads(out[out.index("{"):])["jobs"][0]
    return job["read"]["bw_bytes"] / 1e6


def part_fio():
    print(f"\n== 3. --sink null --direct vs fio io_uring direct read, bs={CHUNK} "
          f"iodepth={QD}, one 512 MiB file")
    src = f"{DATA}/one"
    gen(BIN, src, "--files", "1", "--lines", "524288", "--width", "1023")
    path = os.path.join(src, sorted(f for f in os.listdir(src) if not f.startswith("."))[0])
    size = os.path.getsize(path)
    us, ps, fs = [], [], []
    for _ in range(max(REPS, 5)):
        r = run_rows(BIN, "uring", src, OUT, reps=1, sink="null", direct=True,
                     chunk=CHUNK, qd=QD, cache="cold")[0]
        us.append(r["bytes_in"] / r["elapsed_s"] / 1e6)
        ps.append(r["bytes_in"] / r["pipeline_s"] / 1e6)
        fs.append(fio_read(path, size))
    u, f = statistics.median(us), statistics.median(fs)
    p = statistics.median(ps)
    table(["reader", "MB/s (median)", "reps"],
          [["iostrat uring --sink null --direct", f"{u:.0f}", " ".join(f"{x:.0f}" for x in us)],
           ["  same, pipeline only (no setup)", f"{p:.0f}", " ".join(f"{x:.0f}" for x in ps)],
           ["fio --ioengine=io_uring --direct=1", f"{f:.0f}", " ".join(f"{x:.0f}" for x in fs)]])
    print(f"uring / fio bandwidth: {u / f:.2f}x (target 0.95x); "
          f"interleaved, {len(us)} reps each")


def part_defaults():
    print(f"\n== 0. defaults: --chunk x --qd, W=0, cold, --fsync {FSYNC}; median "
          f"elapsed (s) of {REPS} interleaved reps")
    pairs = [(c, q) for c in ("256K", "512K", "1M", "2M") for q in (4, 8, 16)]
    for name in ("medium-long", "big"):
        src = f"{DATA}/{name}"
        runs = {f"{c}/{q}": ("uring", src, dict(work=0, cache="cold", fsync=FSYNC,
                                                 chunk=c, qd=q)) for c, q in pairs}
        rows = interleaved(BIN, OUT, runs, REPS)
        el = {k: med(r, "elapsed_s") for k, r in rows.items()}
        best = min(el, key=el.get)
        table(["chunk \\ qd", "4", "8", "16"],
              [[c] + [f"{el[f'{c}/{q}']:.3f}" for q in (4, 8, 16)]
               for c in ("256K", "512K", "1M", "2M")])
        print(f"{name}: best {best} ({el[best]:.3f} s)\n")


def main():
    os.makedirs(DATA, exist_ok=True)
    print(f"iostrat bench-uring: {BIN}, data in {DATA}, kernel {os.uname().release}, "
          f"{os.cpu_count()} CPUs")
    parts = os.environ.get("PARTS", "1,2,3").split(",")
    if os.environ.get("SWEEP") == "1":
        parts.append("0")
    # part 1 generates the data sets the sweep uses
    for p, fn in (("1", part_cold_w0), ("0", part_defaults), ("2", part_cpu),
                  ("3", part_fio)):
        if p in parts or (p == "1" and "0" in parts):
            fn()
            sys.stdout.flush()


if __name__ == "__main__":
    main()
