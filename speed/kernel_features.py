#!/usr/bin/env python3
"""make bench-kernel-features: --dontcache and --sqpoll, measured side by
side (one repetition of each configuration per round, rounds interleaved;
each ratio is paired: the two runs of the same round, so a slow drift of
the shared, virtual disk cancels).

  1. W=0, cold, `big` x SCALE (600 MB): stream, buffer and uring each
     with and without --dontcache, and direct: elapsed / direct's elapsed
     in the same round (median and range over the rounds), CPU time
     (user + sys) and the page cache left (cache_left_mib: inputs and
     outputs still cached just after the repetition).
  2, 3. uring --sqpoll against plain uring, cold, at W=0 (the data set
     of part 1) and W=100 (`big` x SCALE_CPU, 200 MB: the transform is what
     takes the time there): elapsed sqpoll / plain per round, and the CPU
     each used (the SQ thread's time is the run's own sys time).

Environment: REPS (rounds, 5), SCALE (0.3), SCALE_CPU (0.1),
BENCH_DATA (default data/bench-kernel-features).  Needs a kernel with
RWF_DONTCACHE (6.14) for part 1's --dontcache rows: without it they are
skipped with iostrat's reason.
"""
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import bench_setup, interleaved, gen, med, table  # noqa: E402

BIN, DATA, REPS = bench_setup("kernel-features", 5)
SCALE = os.environ.get("SCALE", "0.3")
SCALE_CPU = os.environ.get("SCALE_CPU", "0.1")
OUT = DATA + "/out"



def cpu(r):
    return r["user_s"] + r["sys_s"]


def paired(a, b):
    """a's elapsed over b's, round by round: (median, min, max)."""
    q = [x["elapsed_s"] / y["elapsed_s"] for x, y in zip(a, b)]
    return statistics.median(q), min(q), max(q)


def ratio_text(r):
    return f"{r[0]:.2f} [{r[1]:.2f}-{r[2]:.2f}]"


def refused(strategy, src, opts):
    """iostrat's one-line refusal of opts here, or None when it runs."""
    cmd = [BIN, "run", "-s", strategy, src, OUT, "-r", "1", "--cache", "asis",
           "--sink", "null"] + [f"--{k}" for k in opts]
    out = subprocess.run(cmd, text=True, capture_output=True)
    return out.stderr.strip().splitlines()[-1] if out.returncode else None


def part_dontcache(src):
    mb = sum(os.path.getsize(os.path.join(src, f)) for f in os.listdir(src)
             if not f.startswith(".")) / 1e6
    print(f"== 1. --dontcache: W=0, cold, --fsync file, threads 1, {mb:.0f} MB "
          f"(big x {SCALE}), {REPS} interleaved rounds")
    why = refused("stream", src, ["dontcache"])
    runs = {"direct": ("direct", src, {})}
    for s in ("stream", "buffer", "uring"):
        runs[s] = (s, src, {})
        if not why:
            runs[s + " --dontcache"] = (s, src, {"dontcache": True})
    for k in runs:
        runs[k][2].update(work=0, cache="cold")
    rows = interleaved(BIN, OUT, runs, REPS)
    out = []
    for name, r in rows.items():
        out.append([name, f"{med(r, 'elapsed_s'):.3f}",
                    ratio_text(paired(r, rows["direct"])),
                    f"{statistics.median(cpu(x) for x in r):.3f}",
                    f"{med(r, 'cache_left_mib'):.1f}"])
    table(["configuration", "elapsed_s", "x direct (paired) [range]", "cpu_s",
           "cache_left_MiB"], out)
    print("(x direct: median over rounds of elapsed / direct's elapsed in the "
          "same round, > 1 is slower; cpu_s: user + sys, median; cache_left: "
          "MiB of inputs and outputs still cached after the repetition, median)")
    for s in ("stream", "buffer", "uring"):
        if s + " --dontcache" in rows:
            print(f"  {s}: --dontcache / plain, paired: "
                  f"{ratio_text(paired(rows[s + ' --dontcache'], rows[s]))}")
    if why:
        print(f"  --dontcache rows skipped: {why}")


def part_sqpoll(part, w, src, label):
    print(f"\n== {part}. uring --sqpoll vs plain: W={w}, cold, {label}, {REPS} "
          "interleaved rounds")
    why = refused("uring", src, ["sqpoll"])
    if why:
        print(f"  skipped: {why}")
        return
    opts = dict(work=w, cache="cold")
    rows = interleaved(BIN, OUT, {"uring": ("uring", src, dict(opts)),
                        "uring --sqpoll": ("uring", src, dict(opts, sqpoll=True))},
                       REPS)
    table(["configuration", "elapsed_s", "user_s", "sys_s", "cpu_s", "ring_flags"],
          [[n, f"{med(r, 'elapsed_s'):.3f}", f"{med(r, 'user_s'):.3f}",
            f"{med(r, 'sys_s'):.3f}", f"{statistics.median(cpu(x) for x in r):.3f}",
            r[0].get("ring_flags")] for n, r in rows.items()])
    print(f"  sqpoll / plain elapsed, paired: "
          f"{ratio_text(paired(rows['uring --sqpoll'], rows['uring']))} "
          "(< 1: --sqpoll faster)")
    q = [cpu(a) / cpu(b) for a, b in zip(rows["uring --sqpoll"], rows["uring"])]
    print(f"  sqpoll / plain CPU (user + sys), paired: "
          f"{ratio_text((statistics.median(q), min(q), max(q)))}")


def main():
    os.makedirs(DATA, exist_ok=True)
    free = shutil.disk_usage(DATA).free
    if free < 3 * 10**9:
        sys.exit(f"bench: {DATA}: {free / 1e9:.1f} GB free, needs 3 GB "
                 "(the data set, its outputs, the W=100 set)")
    print(f"iostrat bench-kernel-features: {BIN}, data in {DATA}, kernel "
          f"{os.uname().release}, {os.cpu_count()} CPUs")
    big, small = f"{DATA}/big-{SCALE}", f"{DATA}/big-{SCALE_CPU}"
    gen(BIN, big, "--preset", "big", "--scale", SCALE)
    gen(BIN, small, "--preset", "big", "--scale", SCALE_CPU)
    part_dontcache(big)
    sys.stdout.flush()
    part_sqpoll(2, 0, big, f"big x {SCALE}")
    part_sqpoll(3, 100, small, f"big x {SCALE_CPU}")


if __name__ == "__main__":
    main()
