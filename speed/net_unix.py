"""The TCP-vs-Unix-socket table of make bench-net-unix (not part of iostrat):
median msgs/s of each mode, size and family in a results directory."""
import json
import statistics
import sys

MODES = ["nodelay", "buffered", "writev", "cork", "uring", "pingpong-unbuffered",
         "pingpong-buffered", "pingpong-pipelined"]


def load(path):
    by = {}
    for line in open(path + "/results.jsonl"):
        r = json.loads(line)
        if r.get("kind") == "net" and not r.get("error"):
            by.setdefault((r["msg_size"], r["mode"], r.get("family", "tcp")), []).append(r)
    return by


def med(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def main(path):
    by = load(path)
    print(f'{"mode":20} {"size":>4} {"tcp msgs/s":>10} {"unix msgs/s":>11} {"unix/tcp":>8} '
          f'{"tcp x nd":>8} {"unix x nd":>9} {"p50 tcp":>7} {"p50 unix":>8}')
    for size in sorted({k[0] for k in by}):
        base = {f: med(by.get((size, "nodelay", f), []), "msgs_s") for f in ("tcp", "unix")}
        for m in MODES:
            t, u = by.get((size, m, "tcp")), by.get((size, m, "unix"))
            if not t or not u:
                continue
            mt, mu = med(t, "msgs_s"), med(u, "msgs_s")
            pt, pu = med(t, "rtt_p50_us"), med(u, "rtt_p50_us")
            xt = f"{mt / base['tcp']:8.2f}" if base["tcp"] else f'{"-":>8}'
            xu = f"{mu / base['unix']:9.2f}" if base["unix"] else f'{"-":>9}'
            p50 = f"{pt:7.1f} {pu:8.1f}" if pt is not None else f'{"-":>7} {"-":>8}'
            print(f"{m:20} {size:4} {mt:10.0f} {mu:11.0f} {mu / mt:8.2f} {xt} {xu} {p50}")


if __name__ == "__main__":
    main(sys.argv[1])
