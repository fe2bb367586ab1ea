"""make bench-trace: iostrat bench profiles/smoke.ini with and without
-D trace=1; per configuration the ratio traced / untraced of the median
elapsed time and of the median sys CPU; overall, their geometric means.
Then the worst case (warm 4 KiB reads) per attach source the kernel offers
(tp_btf, raw_tp, tracepoint, fentry, kprobe).  SOURCES_ONLY=1: that last
part alone."""
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchlib import table

# A B B A twice: a drift in time cancels.  The smoke profile's runs are
# 20-150 ms on a shared virtual disk: 2 benches each way left per-config
# ratios of 0.84-1.41 (noise), so 4 each way.
ROUNDS = ("off", "on", "on", "off") * 2


def bench(bin_, profile, out, data, traced):
    cmd = [bin_, "bench", profile, "--out", out, "--data", data]
    if traced:
        cmd += ["-D", "trace=1"]
    r = subprocess.run(cmd, text=True, capture_output=True)
    res = os.path.join(out, "results.jsonl")
    if r.returncode and not os.path.exists(res):
        sys.exit(f"bench-trace: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    warn = [l for l in r.stderr.splitlines() if "warning: " in l and "trace" in l]
    rows = [json.loads(l) for l in open(res)]
    bad = [r for r in rows if r.get("error")]
    if bad:  # e.g. a strategy this machine cannot run; compared without it
        print(f"  ({len(bad)} failed repetitions left out: {bad[0]['error'][:100]})")
    rows = [r for r in rows if r.get("kind") == "run" and not r.get("error")]
    if traced and (warn or not all(r.get("traced") for r in rows)):
        sys.exit("bench-trace: the traced runs were not traced: "
                 + (warn[0] if warn else "traced=false in rows"))
    return rows


def warm_worst_case(bin_, tmp, reps=5):
    """Warm page-cache reads with a small buffer: the most probe events per
    byte (one mm_filemap_get_pages per read call) and no device time to
    hide them in.  iostrat run, A B B A, sink null."""
    src = os.path.join(tmp, "warm")
    subprocess.run([bin_, "gen", src, "--preset", "big", "--scale", "0.01"],
                   check=True, capture_output=True)
    el = {"off": [], "on": []}
    for mode in ROUNDS:
        cmd = [bin_, "run", "-s", "stream", src, os.path.join(tmp, "out"),
               "--reps", str(reps), "--cache", "warm", "--sink", "null",
               "--bufsize", "4k", "--json"] + (["--trace"] if mode == "on" else [])
        r = subprocess.run(cmd, text=True, capture_output=True, check=True)
        el[mode] += [json.loads(l)["elapsed_s"] for l in r.stdout.splitlines()]
    a, b = statistics.median(el["off"]), statistics.median(el["on"])
    return a, b, len(el["off"])


SOURCES = ("tp_btf", "raw_tp", "tracepoint", "fentry", "kprobe")


def per_source(bin_, tmp, rounds=6, reps=5):
    """The worst case again, once per attach source forced with
    IOSTRAT_TRACE_MODE, untraced beside it in every round (the order
    rotating round by round).  A source is kept only where the rows say it
    was used: where the kernel lacks it, iostrat falls back to another.
    Per source: the median over rounds of the paired ratio (median elapsed
    traced / untraced in the same round)."""
    # 200 MB: runs of 40-50 ms here, long enough for a 5% difference to
    # stand above the timer and the scheduler.
    src = os.path.join(tmp, "warm-200M")
    subprocess.run([bin_, "gen", src, "--preset", "big", "--scale", "0.1"],
                   check=True, capture_output=True)
    modes = ("off",) + SOURCES
    med = {m: [] for m in modes}
    missing = {}
    for rnd in range(rounds):
        order = modes[rnd % len(modes):] + modes[:rnd % len(modes)]
        for m in order:
            if m in missing:
                continue
            cmd = [bin_, "run", "-s", "stream", src, os.path.join(tmp, "out"),
                   "--reps", str(reps), "--cache", "warm", "--sink", "null",
                   "--bufsize", "4k", "--json"] + (["--trace"] if m != "off" else [])
            env = dict(os.environ, IOSTRAT_TRACE_MODE=m) if m != "off" else None
            r = subprocess.run(cmd, text=True, capture_output=True, check=True, env=env)
            rows = [json.loads(l) for l in r.stdout.splitlines()]
            used = {x.get("pc_source") for x in rows} if m != "off" else {"off"}
            if used != {m}:
                missing[m] = ",".join(sorted(str(u) for u in used))
                continue
            med[m].append(statistics.median(x["elapsed_s"] for x in rows))
    out = []
    for m in SOURCES:
        if m in missing:
            out.append([m, "-", "-", f"not on this kernel (fell back to {missing[m]})"])
            continue
        ratios = [b / a for a, b in zip(med["off"], med[m])]
        out.append([m, f"{statistics.median(med[m]) * 1e3:.1f}",
                    f"x{statistics.median(ratios):.3f}",
                    f"{min(ratios):.3f}..{max(ratios):.3f} over {len(ratios)} rounds"])
    print(f"\nper source (warm page cache, 4 KiB reads, sink null; untraced "
          f"{statistics.median(med['off']) * 1e3:.1f} ms median, {reps} runs a round):")
    table(["source", "median ms", "traced/untraced", "paired ratios"], out)


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    bin_ = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/iostrat")
    profile = os.path.abspath(os.environ.get("PROFILE", "profiles/smoke.ini"))
    if os.geteuid() != 0:
        sys.exit("bench-trace: needs root (the eBPF probes)")
    tmp = tempfile.mkdtemp(prefix="iostrat-bench-trace.")
    if os.environ.get("SOURCES_ONLY"):
        try:
            per_source(bin_, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return
    data = os.environ.get("IOSTRAT_DATA", os.path.join(tmp, "data"))
    by = {"off": {}, "on": {}}
    try:
        for i, mode in enumerate(ROUNDS):
            print(f"round {i + 1}/{len(ROUNDS)}: trace {mode}", flush=True)
            rows = bench(bin_, profile, os.path.join(tmp, f"r{i}"), data, mode == "on")
            for r in rows:
                d = by[mode].setdefault(r["config_id"], {"el": [], "sys": []})
                d["el"].append(r["elapsed_s"])
                d["sys"].append(r["sys_s"])
        print("worst case: warm reads, 4 KiB buffer", flush=True)
        wa, wb, wn = warm_worst_case(bin_, tmp)
        print("worst case per attach source", flush=True)
        per_source(bin_, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out, el_ratios, sys_ratios = [], [], []
    for cid in sorted(set(by["off"]) & set(by["on"])):
        a, b = by["off"][cid], by["on"][cid]
        ea, eb = statistics.median(a["el"]), statistics.median(b["el"])
        sa, sb = statistics.median(a["sys"]), statistics.median(b["sys"])
        el_ratios.append(eb / ea)
        if sa > 0 and sb > 0:
            sys_ratios.append(sb / sa)
        out.append([cid, len(a["el"]), f"{ea * 1e3:.1f}", f"{eb * 1e3:.1f}",
                    f"{eb / ea:.3f}", f"{sb / sa:.2f}" if sa > 0 else "-"])
    table(["config", "n", "off ms", "on ms", "elapsed on/off", "sys on/off"], out)
    g, s = gmean(el_ratios), gmean(sys_ratios)
    print(f"\ntrace overhead: elapsed x{g:.3f} ({(g - 1) * 100:+.1f}%, target < +3%), "
          f"sys CPU x{s:.3f}; geometric means over {len(el_ratios)} configurations, "
          f"medians of {ROUNDS.count('off')} benches each way (A B B A x2)")
    print(f"worst case (warm page cache, 4 KiB reads, {wn} runs each way): "
          f"off {wa * 1e3:.1f} ms, on {wb * 1e3:.1f} ms, x{wb / wa:.3f} "
          f"({(wb / wa - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
