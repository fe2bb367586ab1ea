"""make bench-core-strategies: see speed/core-strategies.sh.

Environment: SCALE (matrix data set, default 0.01 of `big` = 20 MB),
FIO_SCALE (the fio comparison, default 0.55 of `big` = 1.1 GB), REPS (3),
BENCH_DATA (default data/bench-core-strategies).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import bench_setup, drop_caches, gen, med, run_rows, table  # noqa: E402

BIN, DATA, REPS = bench_setup("core-strategies", 3)
SCALE = os.environ.get("SCALE", "0.01")
FIO_SCALE = os.environ.get("FIO_SCALE", "0.55")
OUT = DATA + "/out"
STRATS = ("stream", "buffer", "direct", "mmap")
CHUNK = 1 << 20  # direct's default chunk; fio uses the same block size


def cell(rows, base=None):
    mb = med(rows, "mb_s")
    return [f"{mb:.1f}", f"{mb / base:.2f}" if base else "1.00",
            f"{med(rows, 'user_s'):.3f}", f"{med(rows, 'sys_s'):.3f}",
            int(max(r["maxrss_kb"] for r in rows))], mb


def matrix(path):
    rows = []
    for cache in ("cold", "warm"):
        for w in (0, 100):
            for th in (1, 2):
                base = None
                for s in STRATS:
                    r = run_rows(BIN, s, path, OUT, REPS, work=w, threads=th, cache=cache)
                    c, mb = cell(r, base)
                    base = base or mb
                    rows.append([s, cache, w, th] + c)
    table(["strategy", "cache", "W", "thr", "MB/s", "x stream", "user s", "sys s",
           "peak RSS KiB"], rows)


def knobs(path):
    """The two defaults this issue asked to measure before choosing, at
    W=0 where I/O decides (at W=100 the transform does)."""
    variants = (("direct", {}, "qd 1"), ("direct", {"qd": 2}, "qd 2"),
                ("mmap", {}, "write"), ("mmap", {"mmap_out": True}, "mmap-out"))
    rows = []
    for cache in ("cold", "warm"):
        for w in (0,):
            base = {}
            for s, opts, label in variants:
                r = run_rows(BIN, s, path, OUT, REPS, work=w, cache=cache, **opts)
                c, mb = cell(r, base.get(s))
                base.setdefault(s, mb)
                rows.append([s, label, cache, w] + c)
    table(["strategy", "variant", "cache", "W", "MB/s", "x default", "user s", "sys s",
           "peak RSS KiB"], rows)


def fio_rate(rw, files, extra):
    cmd = ["fio", f"--name={rw}", f"--rw={rw}", "--direct=1", f"--bs={CHUNK}",
           "--ioengine=psync", "--file_service_type=sequential",
           "--filename=" + ":".join(files), "--output-format=json"] + extra
    out = subprocess.run(cmd, text=True, capture_output=True, check=True).stdout
    job = json.loads(out[out.index("{"):])["jobs"][0][rw]
    return job["bw_bytes"]


def fio_copy(path, files):
    """fio reading the inputs, then writing as many bytes to new files:
    the same sequence of O_DIRECT I/O as `direct` at qd 1 (read a chunk,
    write a chunk), so the copy rate is bytes / (t_read + t_write)."""
    scratch = f"{DATA}/fio-scratch"
    os.makedirs(scratch, exist_ok=True)
    size = os.path.getsize(f"{path}/{files[0]}")
    outs = [f"{scratch}/{f}" for f in files]
    rates = []
    for _ in range(REPS):
        for f in outs:
            if os.path.exists(f):
                os.unlink(f)
        drop_caches()
        rd = fio_rate("read", [f"{path}/{f}" for f in files], [])
        wr = fio_rate("write", outs, [f"--filesize={size}", "--fallocate=none",
                                      "--fsync_on_close=1"])
        rates.append((rd, wr, 1 / (1 / rd + 1 / wr)))
    for f in outs:
        os.unlink(f)
    rates.sort(key=lambda x: x[2])
    return rates[len(rates) // 2]


def fio_compare(path):
    files = sorted(f for f in os.listdir(path) if not f.startswith("."))
    total = sum(os.path.getsize(f"{path}/{f}") for f in files)
    rd, wr, copy = fio_copy(path, files)
    print(f"\nfio vs direct: {len(files)} files, {total / 2**30:.2f} GiB, W=0, cold, "
          f"threads 1, bs = chunk = {CHUNK >> 10} KiB, {REPS} reps (medians)")
    print(f"  fio read  {rd / 1e6:8.1f} MB/s   fio write {wr / 1e6:8.1f} MB/s   "
          f"fio copy (read then write, same bytes) {copy / 1e6:8.1f} MB/s")
    for label, opts in (("direct", {}), ("direct --qd 2", {"qd": 2})):
        r = run_rows(BIN, "direct", path, OUT, REPS, work=0, cache="cold", **opts)
        mb = med(r, "mb_s")
        ratio = mb * 1e6 / copy
        print(f"  {label:14s} {mb:8.1f} MB/s   {ratio:.2f}x fio copy (target >= 0.8x) "
              f"{'ok' if ratio >= 0.8 else 'MISSED'}   dio_align {r[0]['dio_align']}")


def main():
    small = f"{DATA}/big-{SCALE}"
    large = f"{DATA}/big-{FIO_SCALE}"
    gen(BIN, small, "--preset", "big", "--scale", SCALE)
    print(f"bench-core-strategies: big x {SCALE}, {REPS} reps, medians; "
          "MB/s = input MB / elapsed (fsync file); x stream = ratio to stream "
          "in the same cell")
    matrix(small)
    print("\nknobs: direct --qd 2 and mmap --mmap-out against their defaults (W=0, threads 1)")
    knobs(small)
    gen(BIN, large, "--preset", "big", "--scale", FIO_SCALE)
    fio_compare(large)


main()
