#!/usr/bin/env bash
# make bench-verdict: what a user of `make run` gets, and whether a busy
# machine changes it (docs/verdict.md, "How far to trust it").  Clones this
# checkout's HEAD into a temporary directory (removed after, also on
# Ctrl-C), runs `make run` there on a quiet machine (fresh: build, data
# generation, the default profile, report, figures), then again beside a
# CPU hog (a busy loop at the same priority, bounded by HOG_S seconds and
# killed when the run ends).  Prints each wall time (goal <= 180 s), the
# share of cells whose verdict names a winner, and the conflicts: cells
# where both runs name a winner and not the same one (goal 0).  The
# verdict is read from each run's report (the "verdict figures" table:
# decision = winner, else distinguishable for a report without it).
#   speed/verdict.sh                      both runs (minutes)
#   speed/verdict.sh --compare A.json B.json   only the comparison, of two
#                                         `iostrat report DIR --format json`
# KEEP=DIR keeps the two reports' JSON, the logs and both results
# directories (quiet-results, busy-results) there.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
goal_s=180
hog_s=${HOG_S:-900}

# The comparison of two reports (JSON): one line per run, then conflicts.
compare() {
	python3 - "$goal_s" "$@" <<'PY'
import json, sys

goal = float(sys.argv[1])
args = sys.argv[2:]

def winners(path):
    """cell -> winner (None: no winner named) from the verdict figures."""
    doc = json.load(open(path))
    tabs = [t for t in doc.get("tables", []) if t.get("title") == "verdict figures"]
    if not tabs:
        sys.exit(f"{path}: no 'verdict figures' table (no run configurations?)")
    out = {}
    for r in tabs[0].get("rows", []):
        if "decision" in r and r["decision"] is not None:
            named = r["decision"] == "winner"
        else:  # a report from before the decision column
            named = bool(r.get("distinguishable"))
        out[r.get("cell")] = r.get("fastest") if named else None
    return out

runs = []
for spec in args:
    parts = spec.split("=", 2)  # LABEL=PATH[=WALL_S]
    label, path = parts[0], parts[1]
    wall = parts[2] if len(parts) > 2 else ""
    w = winners(path)
    runs.append((label, w))
    named = sum(1 for v in w.values() if v)
    share = 100.0 * named / len(w) if w else 0.0
    t = ""
    if wall:
        t = f"make run {float(wall):6.1f} s ({'within' if float(wall) <= goal else 'over'} the {goal:.0f} s goal); "
    print(f"{label}: {t}{named}/{len(w)} cells name a winner ({share:.0f}%)")
(la, a), (lb, b) = runs[0], runs[1]
conflicts = [c for c in a if c in b and a[c] and b[c] and a[c] != b[c]]
one_only = [c for c in a if c in b and bool(a[c]) != bool(b[c])]
for c in conflicts:
    print(f"  conflict: {c}: {la} names {a[c]}, {lb} names {b[c]}")
for c in one_only:
    print(f"  named in one run only: {c}: {la} {a[c] or '-'}, {lb} {b[c] or '-'}")
print(f"conflicts: {len(conflicts)} of {sum(1 for c in a if c in b)} cells (goal 0); "
      f"a winner in one run only: {len(one_only)}")
PY
}

if [ "${1:-}" = "--compare" ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --compare A.json B.json" >&2; exit 2; }
	compare "quiet=$2" "busy=$3"
	exit
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iostrat-bench-verdict.XXXXXX")
hog=
cleanup() {
	if [ -n "$hog" ]; then
		kill "$hog" 2>/dev/null || true
		wait "$hog" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A busy loop of the shell, at the priority it was started with, that ends
# by itself after hog_s seconds if nobody kills it.
start_hog() {
	(end=$((SECONDS + hog_s)); while [ "$SECONDS" -lt "$end" ]; do :; done) &
	hog=$!
}

stop_hog() {
	kill "$hog" 2>/dev/null || true
	wait "$hog" 2>/dev/null || true
	hog=
}

# make run in the clone: its wall time into $wall, its report as JSON.
run_once() {
	local name=$1 log=$tmp/$1.log t0 t1 dir
	t0=$(date +%s.%N)
	if ! (cd "$tmp/iostrat" && make run >"$log" 2>&1); then
		echo "make run ($name) failed; the last lines of its log:" >&2
		tail -n 8 "$log" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	wall=$(echo "$t1 - $t0" | bc)
	dir=$(sed -n 's#^report: \(.*\)/report.html$#\1#p' "$log" | tail -n 1)
	[ -n "$dir" ] || { echo "make run ($name): no 'report:' line in its log" >&2; exit 1; }
	"$tmp/iostrat/build/iostrat" report "$tmp/iostrat/$dir" --format json >"$tmp/$name.json"
	results[$name]=$tmp/iostrat/$dir
}
declare -A results

git clone -q "$top" "$tmp/iostrat"
echo "bench-verdict: make run in a fresh clone of $(git -C "$top" rev-parse --short HEAD) ($tmp)"
run_once quiet
quiet_wall=$wall
start_hog
run_once busy
busy_wall=$wall
stop_hog
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$tmp"/quiet.json "$tmp"/busy.json "$tmp"/quiet.log "$tmp"/busy.log "$KEEP/"
	cp -r "${results[quiet]}" "$KEEP/quiet-results"
	cp -r "${results[busy]}" "$KEEP/busy-results"
fi
echo "quiet: the fresh clone, nothing beside it; busy: the same clone again (built, data" \
	"cached) beside a CPU hog"
compare "quiet=$tmp/quiet.json=$quiet_wall" "busy=$tmp/busy.json=$busy_wall"
