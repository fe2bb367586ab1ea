#!/usr/bin/env bash
# iostrat compare across hosts (docs/fleet.md): runs named by host, what
# differs between the machines, figure 6 across hosts, and the fleet
# summary (the verdict's fastest strategy per host, and where the hosts
# disagree), on results directories laid out as the playbook fetches them:
# fleet/<run>/<host>/.
. "$(dirname "$0")/lib.sh"

FIXTURE=$(mktemp -d /tmp/iostrat-fleet.XXXXXX)
trap 'rm -rf "$FIXTURE"' EXIT

# One real tiny bench (stream and buffer, 1 thread, 6 repetitions: the
# fewest paired rounds that give the verdict a 95% interval), made once.
bench_once() {
	[ -s "$FIXTURE/r/results.jsonl" ] && return 0
	printf '[global]\ndataset=big\nscale=0.0005\nreps=6\ncache=asis\n[t]\nstrategy=stream,buffer\nthreads=1\nwork=0\n' \
		>"$FIXTURE/p.ini"
	"$IOSTRAT" bench "$FIXTURE/p.ini" --out "$FIXTURE/r" --data "$FIXTURE/data" >/dev/null 2>&1 ||
		die "bench failed"
}

# host DIR NAME KERNEL SLOW: a copy of the bench as if made on host NAME
# running KERNEL, its times made steady (0.05 s + 1 ms a repetition: the
# tiny bench's own times swing 10x on a loaded machine, and the verdict
# rightly calls such a cell undecided) and 1 s added to every repetition
# of strategy SLOW (so the other one is the clear winner there).
host() {
	local dir=$1 name=$2 kernel=$3 slow=$4
	bench_once
	mkdir -p "$dir"
	cp "$FIXTURE/r/profile.ini" "$dir/" 2>/dev/null || true
	jq --arg h "$name" --arg k "$kernel" '.host = $h | .kernel = $k' "$FIXTURE/r/env.json" >"$dir/env.json"
	jq -c --arg h "$name" --arg k "$kernel" --arg slow "$slow" '.host = $h | .kernel = $k
		| if .kind == "run" then .elapsed_s = 0.05 + 0.001 * .rep else . end
		| if .strategy == $slow then .elapsed_s += 1.0 else . end' "$FIXTURE/r/results.jsonl" >"$dir/results.jsonl"
}

fleet_two_hosts() {
	host "$T/fleet/study/box-a" box-a 6.1.0-28-amd64 buffer
	host "$T/fleet/study/box-b" box-b 6.12.9-amd64 stream
}

compare_labels_runs_by_host() {
	fleet_two_hosts
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-b" --format json >"$T/c.json" ||
		die "compare failed"
	jq -e '(.meta.A | contains("host box-a")) and (.meta.B | contains("host box-b"))
		and ([.tables[] | select(.title | startswith("per configuration and run"))][0]
			| [.rows[] | [.run, .label]] | unique == [["A", "box-a"], ["B", "box-b"]])' "$T/c.json" >/dev/null ||
		die "runs not labelled by host: $(cat "$T/c.json")"
}

compare_names_what_differs_between_machines() {
	fleet_two_hosts
	out=$("$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-b")
	echo "$out" | grep -Eq '^  host +box-a +box-b' || die "no host row: $out"
	echo "$out" | grep -Eq '^  kernel +6\.1\.0-28-amd64 +6\.12\.9-amd64' || die "no kernel row: $out"
	echo "$out" | grep -q 'the machines differ in: .*host' || die "machines' differences not named: $out"
	echo "$out" | grep 'the machines differ in' | grep -q kernel || die "kernel not named: $out"
	! echo "$out" | grep 'the machines differ in' | grep -q cpu_model ||
		die "a key both hosts share named as a difference: $out"
}

fleet_summary_names_fastest_per_host_and_disagreement() {
	fleet_two_hosts
	host "$T/fleet/study/box-c" box-c 5.10.0-33-amd64 buffer
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-b" "$T/fleet/study/box-c" \
		--format json >"$T/c.json" || die "compare failed"
	jq -e '[.tables[] | select(.title | startswith("fleet: the fastest strategy"))]
		| length == 1 and (.[0] | .columns[:4] == ["cell", "A box-a", "B box-b", "C box-c"]
			and (.rows | length) == 1 and (.note | contains("(1 of 1 cells)"))
			and (.rows[0] | (.cell | startswith("big ("))
				and [.["A box-a"], .["B box-b"], .["C box-c"]] == ["stream", "buffer", "stream"]
				and .runs == "disagree" and (.why | contains("stream") and contains("buffer"))))' "$T/c.json" >/dev/null ||
		die "fleet table: $(cat "$T/c.json")"
	# hosts that agree say so
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-c" --format csv |
		grep -Eq '^"?big \(.*,stream,stream,agree,' || die "agreement not said: $("$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-c" --format csv)"
}

# A host whose run could not tell the two apart does not contradict
# another's winner when that winner is among its tied leaders.
fleet_not_distinguishable_is_no_disagreement() {
	fleet_two_hosts
	host "$T/fleet/study/box-d" box-d 6.1.0-28-amd64 none
	# every repetition of both strategies the same: no test can separate them
	jq -c 'if .kind == "run" then .elapsed_s = 0.5 + 0.01 * .rep else . end' \
		"$T/fleet/study/box-d/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/fleet/study/box-d/results.jsonl"
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-d" --format csv >"$T/c.csv"
	grep -Eq ',stream,(stream=buffer|buffer=stream),agree,' "$T/c.csv" || die "$(grep -A3 fleet "$T/c.csv")"
}

# Figure 6 across hosts: the bars named by host.
plot_compare_across_hosts() {
	need_cmd gnuplot
	fleet_two_hosts
	"$IOSTRAT" plot --compare "$T/fleet/study/box-a" "$T/fleet/study/box-b" -o "$T/fleet/study" \
		>"$T/out.txt" 2>"$T/err.txt" || die "plot --compare failed: $(cat "$T/err.txt")"
	[ -s "$T/fleet/study/plots/compare.svg" ] || die "no figure: $(cat "$T/out.txt")"
	head -1 "$T/fleet/study/plots/data/compare.dat" | grep -q '"A: box-a" .* "B: box-b"' ||
		die "bars not named by host: $(head -1 "$T/fleet/study/plots/data/compare.dat")"
}

# Runs of one host (a kernel or scheduler study) keep their directory names;
# two runs of one host beside another host are host:dir.
same_host_runs_keep_directory_labels() {
	fleet_two_hosts
	cp -r "$T/fleet/study/box-a" "$T/fleet/study/box-a-again"
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-a-again" --format csv >"$T/c.csv"
	grep -q ',A,box-a,' "$T/c.csv" && grep -q ',B,box-a-again,' "$T/c.csv" || die "$(cat "$T/c.csv")"
	grep -q '^# the fastest strategy per cell in each run' "$T/c.csv" || die "title: $(grep '^#' "$T/c.csv")"
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-a-again" "$T/fleet/study/box-b" \
		--format csv >"$T/c.csv"
	grep -q ',A,box-a,' "$T/c.csv" && grep -q ',B,box-a:box-a-again,' "$T/c.csv" &&
		grep -q ',C,box-b,' "$T/c.csv" || die "$(grep ',[ABC],box' "$T/c.csv" | head)"
}

t compare_labels_runs_by_host
t compare_names_what_differs_between_machines
t fleet_summary_names_fastest_per_host_and_disagreement
t fleet_not_distinguishable_is_no_disagreement
t plot_compare_across_hosts
t same_host_runs_keep_directory_labels
