#!/usr/bin/env bash
# make bench-verdict: what a user of `make run` gets (docs/verdict.md,
# "How far to trust it").  From a fresh clone of this checkout's HEAD:
# `make run` (build, data generation, the default profile, report, figures,
# report.html), then `make run` again in the same clone (warm: built, data
# cached) -- RUNS times, each in its own clone.  Prints each wall time, the
# share of configurations that met the RSD target, and, for every cell
# where one run's verdict names a winner, whether the other runs name the
# same one, and how often an "X ahead of Y" of one run (p < 0.05) keeps its
# order in the other runs' medians.  OUT (default /tmp/iostrat-bench-verdict) keeps the clones.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-1}
out=${OUT:-/tmp/iostrat-bench-verdict}
rm -rf "$out"
mkdir -p "$out"
dirs=()
for i in $(seq "$runs"); do
	c=$out/clone$i
	git clone -q "$top" "$c"
	for kind in fresh warm; do
		t0=$(date +%s.%N)
		(cd "$c" && make run >"$out/run$i-$kind.log" 2>&1) ||
			{ echo "make run failed: $out/run$i-$kind.log" >&2; tail -n 5 "$out/run$i-$kind.log" >&2; exit 1; }
		t1=$(date +%s.%N)
		d=$c/$(sed -n 's#^report: \(.*\)/report.html$#\1#p' "$out/run$i-$kind.log" | tail -n 1)
		printf 'run %d %-5s make run %6.1f s  %s\n' "$i" "$kind" "$(echo "$t1 - $t0" | bc)" "$d"
		dirs+=("$d")
		"$c/build/iostrat" report "$d" --format json >"$out/run$i-$kind.json"
	done
done
python3 - "$out"/run*.json <<'PY'
import json, re, sys, itertools
def cell_key(label):  # "big (400 MB), W=0, 1 thread" -> ("big", "0", "1")
    m = re.match(r"(\S+) \(.*?\), W=(\d+), (\d+) thread", label)
    return m.groups()
runs = []
for p in sys.argv[1:]:
    doc = json.load(open(p))
    t = {x["title"]: x for x in doc["tables"]}
    cells = {r["cell"]: r for r in t["verdict figures"]["rows"]}
    conf = t["configurations (kind run)"]["rows"]
    med = {}
    for r in conf:
        ds, strat, th, w = r["config_id"].split("/")[:4]
        med[(ds, w[1:], th[1:], strat)] = r["median_s"]
    met = sum(1 for r in conf if "rsd>" not in (r["flags"] or ""))
    runs.append((p.rsplit("/", 1)[1], cells, med))
    named = sum(1 for c in cells.values() if c["distinguishable"])
    claims = sum(1 for c in cells.values() if c["distinguishable"] or c["ahead_of"])
    print(f"{runs[-1][0]}: {met}/{len(conf)} configurations met the RSD target; "
          f"{named}/{len(cells)} cells name a winner; {claims}/{len(cells)} say who is "
          f"ahead of whom (p < 0.05)")
agree = total = same_fastest = ctotal = cagree = 0
for (na, a, ma), (nb, b, mb) in itertools.permutations(runs, 2):
    for cell, x in a.items():
        if cell not in b:
            continue
        y = b[cell]
        # a claim "X ahead of Y" (the winner over the runner-up, or the
        # fastest over the first it beats): does the other run's median agree?
        for loser in ([x["runner_up"]] if x["distinguishable"] else []) + \
                     ([x["ahead_of"]] if x["ahead_of"] else []):
            k = cell_key(cell)
            ctotal += 1
            cagree += mb[k + (x["fastest"],)] < mb[k + (loser,)]
        if not x["distinguishable"]:
            continue
        total += 1
        agree += y["distinguishable"] and y["fastest"] == x["fastest"]
        same_fastest += y["fastest"] == x["fastest"]
        print(f"  {na} -> {nb}: {cell}: {x['fastest']} / "
              f"{y['fastest'] if y['distinguishable'] else 'not distinguishable (' + y['fastest'] + ' by median)'}")
if total:
    print(f"winner named again: {agree}/{total} ({100 * agree / total:.0f}%); "
          f"same fastest by median: {same_fastest}/{total}")
else:
    print("no cell named a winner in any run: nothing to agree on")
if ctotal:
    print(f"'X ahead of Y' claims whose order the other run's medians keep: "
          f"{cagree}/{ctotal} ({100 * cagree / ctotal:.0f}%)")
PY
