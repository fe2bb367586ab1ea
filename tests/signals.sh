#!/usr/bin/env bash
# SIGINT and SIGTERM during long-running subcommands: no child process left
# behind, no temporary or half-written output, results kept and resumable.
. "$(dirname "$0")/lib.sh"

has_cmd() { "$IOSTRAT" --help | grep -q "^  $1 " || skip "iostrat $1 not built"; }

# no process whose command line mentions the test's directory survives
no_leftovers() {
	sleep 0.3
	if pgrep -f "$T" >/dev/null; then
		pgrep -af "$T"
		die "processes left behind"
	fi
}

has_files() { [ -n "$(ls -A "$1" 2>/dev/null)" ]; }
wait_for() { # CONDITION-COMMAND...: up to 20 s
	for _ in $(seq 200); do "$@" && return 0; sleep 0.1; done
	die "timed out waiting for: $*"
}

run_interrupted() {
	local sig=$1 want=$2
	"$IOSTRAT" gen "$T/in" --files 8 --lines 20000 --width 200 >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --work 400 --reps 5 --cache asis \
		>"$T/log" 2>"$T/err" &
	pid=$!
	wait_for has_files "$T/out"
	kill -"$sig" $pid
	rc=0; wait $pid || rc=$?
	[ "$rc" -eq "$want" ] || die "exit $rc, wanted $want: $(cat "$T/err")"
	grep -q 'interrupted by signal' "$T/err" || die "no message: $(cat "$T/err")"
	no_leftovers
	! ls -A "$T/out" | grep -q iostrat-tmp || die "temporary output left"
}

bench_interrupted_then_resumed() {
	local sig=$1
	has_cmd bench
	printf '[global]\ndataset=big\nscale=0.002\nreps=2\nmax_reps=2\n[a]\nstrategy=stream,buffer\nthreads=1,2\nwork=0,300\n' >"$T/p.ini"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for test -s "$T/r/results.jsonl"
	kill -"$sig" $pid
	rc=0; wait $pid || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 after $sig"
	no_leftovers
	n1=$(wc -l <"$T/r/results.jsonl")
	python3 -c "import json;[json.loads(l) for l in open('$T/r/results.jsonl')]" || die "rows unreadable"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench --resume "$T/r" >/dev/null 2>&1 || die "resume failed"
	n2=$(wc -l <"$T/r/results.jsonl")
	[ "$n2" -eq 16 ] || die "after resume $n2 rows (had $n1), wanted 16"
}

t run_sigint_stops_child_and_leaves_no_temporaries run_interrupted INT 130
t run_sigterm_stops_child_and_leaves_no_temporaries run_interrupted TERM 143
t bench_sigint_keeps_rows_and_resumes bench_interrupted_then_resumed INT
t bench_sigterm_keeps_rows_and_resumes bench_interrupted_then_resumed TERM
