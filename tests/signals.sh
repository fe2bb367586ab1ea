#!/usr/bin/env bash
# SIGINT and SIGTERM during long-running subcommands: no child process left
# behind, no temporary or half-written output, results kept and resumable.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace.inc"


# no process whose command line mentions the test's directory survives
no_leftovers() {
	if ! wait_gone "$T" 3; then
		pgrep -af "$T"
		die "processes left behind"
	fi
}

has_files() { names_in "$1" 2>/dev/null | grep -qvx .iostrat-output; } # the mark of OUT is no output
wait_for() { # CONDITION-COMMAND...: up to 20 s
	for _ in $(seq 200); do "$@" && return 0; sleep 0.1; done
	die "timed out waiting for: $*"
}

run_interrupted() { # SIG WANT [N]: N signals in a row (run never ends hard: temporaries to remove)
	local sig=$1 want=$2 n=${3:-1}
	"$IOSTRAT" gen "$T/in" --files 8 --lines 20000 --width 200 >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --work 400 --reps 5 --cache asis \
		>"$T/log" 2>"$T/err" &
	pid=$!
	wait_for has_files "$T/out"
	for _ in $(seq "$n"); do kill -"$sig" $pid; done
	rc=0; wait $pid || rc=$?
	[ "$rc" -eq "$want" ] || die "exit $rc, wanted $want: $(cat "$T/err")"
	grep -q 'interrupted by signal' "$T/err" || die "no message: $(cat "$T/err")"
	no_leftovers
	! names_in "$T/out" | grep -q iostrat-tmp || die "temporary output left"
}

bench_interrupted_then_resumed() {
	local sig=$1
	printf '[global]\ndataset=big\nscale=0.002\nreps=2\nmax_reps=2\n[a]\nstrategy=stream,buffer\nthreads=1,2\nwork=0,300\n' >"$T/p.ini"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for test -s "$T/r/results.jsonl"
	kill -"$sig" $pid
	rc=0; wait $pid || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 after $sig"
	no_leftovers
	n1=$(wc -l <"$T/r/results.jsonl")
	jq -e 'type == "object"' "$T/r/results.jsonl" >/dev/null || die "rows unreadable"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench --resume "$T/r" >/dev/null 2>&1 || die "resume failed"
	n2=$(wc -l <"$T/r/results.jsonl")
	[ "$n2" -eq 16 ] || die "after resume $n2 rows (had $n1), wanted 16"
}

# bench stopped in the middle of a long repetition (about 25 s of
# transform on an idle machine): the engine kills the repetition's child,
# so bench ends within seconds, exit 128+signal, and the cut repetition is
# no row (it used to run to its end and be kept as a measurement).
bench_long_rep_stopped() {
	local sig=$1 t0
	"$IOSTRAT" gen "$T/in" --files 1 --lines 2000 --width 200 >/dev/null
	printf '[a]\ndataset=%s\nstrategy=stream\nwork=1000000\nsink=null\ncache=asis\nreps=2\n' \
		"$T/in" >"$T/p.ini"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for pgrep -P $pid >/dev/null
	sleep 0.5
	t0=$(date +%s)
	kill -"$sig" $pid
	for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill -0 $pid 2>/dev/null && { kill -9 $pid; die "still running 10 s after $sig"; }
	rc=0; wait $pid || rc=$?
	[ $(($(date +%s) - t0)) -le 5 ] || die "ended $(($(date +%s) - t0)) s after $sig"
	[ "$rc" -eq $((128 + $(signum "$sig"))) ] || die "exit $rc: $(cat "$T/err")"
	grep -q "interrupted by signal $(signum "$sig"); the repetition in progress was stopped (no row); 0 repetitions kept" "$T/err" ||
		die "no message: $(cat "$T/err")"
	no_leftovers
	[ -e "$T/r/results.jsonl" ] || die "no results.jsonl"
	[ ! -s "$T/r/results.jsonl" ] || die "a row for the cut repetition: $(cat "$T/r/results.jsonl")"
}

# A stop signal before the repetition's child exists (in the sync and cache
# drop before the fork, or the data sets before it): the command ends promptly
# and no repetition started after the signal is a row.  Several trials, as
# the signal lands at different points of the preparation.
early_stop() { # run|bench SIG
	local what=$1 sig=$2 t0 ms rows
	"$IOSTRAT" gen "$T/in" --files 2 --lines 20000 --width 200 >/dev/null
	printf '[a]\ndataset=%s\nstrategy=stream\nwork=300\nreps=3\nmax_reps=3\n' "$T/in" >"$T/p.ini"
	for trial in 1 2 3 4; do
		rm -rf "$T/out" "$T/r"
		if [ "$what" = run ]; then
			"$IOSTRAT" run -s stream --work 300 -r 3 --json "$T/in" "$T/out" >"$T/rows" 2>"$T/err" &
		else
			IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" &
		fi
		pid=$!
		sleep 0.1
		t0=$(date +%s%N)
		kill -"$sig" $pid
		wait_exit $pid
		ms=$((($(date +%s%N) - t0) / 1000000))
		[ "$rc" -eq $((128 + $(signum "$sig"))) ] || die "trial $trial: exit $rc: $(cat "$T/err")"
		[ "$ms" -le 600 ] || die "trial $trial: ended $ms ms after the signal"
		if [ "$what" = run ]; then rows=$(grep -c config_id "$T/rows" || true)
		else rows=0; [ ! -e "$T/r/results.jsonl" ] || rows=$(wc -l <"$T/r/results.jsonl"); fi
		[ "$rows" -eq 0 ] || die "trial $trial: $rows rows of repetitions started after the signal"
		grep -q 'interrupted by signal' "$T/err" || die "trial $trial: no message: $(cat "$T/err")"
		! grep -q -e '^resume with' -e 'killed by signal' "$T/err" ||
			die "trial $trial: not one line, or the strategy blamed: $(cat "$T/err")"
		no_leftovers
	done
}

# wait for PID (up to 30 s, then SIGKILL and fail); sets rc
wait_exit() {
	local pid=$1
	for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid"
		die "still running 30 s after the signal"
	fi
	rc=0; wait "$pid" || rc=$?
}

signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; TERM) echo 15 ;; esac; }

# The settings a subcommand could touch (none of these three should):
# they must read the same after it was interrupted.
settings() {
	local f
	for f in /proc/sys/kernel/perf_event_paranoid /proc/sys/kernel/bpf_stats_enabled \
		/proc/sys/kernel/unprivileged_bpf_disabled /sys/block/vda/queue/scheduler \
		/proc/sys/net/ipv4/tcp_wmem /proc/sys/net/core/wmem_max; do
		[ -r "$f" ] && printf '%s=%s\n' "$f" "$(cat "$f")"
	done
	true
}

# results.jsonl: complete rows only, as many as results.csv holds
rows_kept() { # DIR: prints the number of rows
	if [ ! -s "$1/results.jsonl" ] || [ -n "$(tail -c 1 "$1/results.jsonl")" ]; then
		echo "last row incomplete" >&2
		return 1
	fi
	# no failed row kept; results.csv the same rows in the same order
	jq -se --slurpfile c <(csv_rows "$1/results.csv") '
		if all(.[]; .error == null) and [$c[].config_id] == [.[].config_id]
		then length else false end' "$1/results.jsonl"
}

# iostrat fio with a job that runs 2 s a repetition, reading the inputs and
# writing outputs from forked job processes (thread=0): interrupted in its
# second repetition, fio and its jobs are gone, the first row is kept, the
# second leaves neither row, JSON, log nor output file.
fio_interrupted() {
	local sig=$1
	need_cmd fio
	"$IOSTRAT" gen "$T/in" --files 2 --lines 2000 --width 500 >/dev/null
	cat >"$T/long.fio" <<'FIO'
; mirrors: -
[global]
ioengine=psync
bs=4k
thread=0
time_based=1
runtime=2
[read]
rw=randread
filename=${IOSTRAT_FILES}
[write]
rw=write
filename=${IOSTRAT_OUTFILES}
size=${IOSTRAT_SIZE}
FIO
	before=$(settings)
	"$IOSTRAT" fio "$T/long.fio" --dataset "$T/in" --cache asis --fsync none --reps 5 \
		--out "$T/r" >"$T/log" 2>"$T/err" &
	pid=$!
	wait_for test -s "$T/r/results.jsonl"
	wait_for pgrep -f "rep2.json" >/dev/null
	sleep 0.3 # into the second repetition, not at its start
	kill -"$sig" $pid
	wait_exit $pid
	[ "$rc" -eq $((128 + $(signum "$sig"))) ] || die "exit $rc: $(cat "$T/err")"
	grep -q 'interrupted by signal.*1 repetitions kept' "$T/err" || die "no message: $(cat "$T/err")"
	no_leftovers
	[ "$(rows_kept "$T/r")" -eq 1 ] || die "rows kept: $(rows_kept "$T/r")"
	left=$(names_in "$T/r" | grep -vxE 'env.json|results.jsonl|results.csv|summary.csv|fio-long-rep1.json' || true)
	[ -z "$left" ] || die "left in the results directory: $left"
	[ "$(settings)" = "$before" ] || die "settings changed"
}

# iostrat net: the run in progress ends, its row is kept if complete, the
# results directory is finished (results.csv, summary.csv).
net_interrupted() {
	local sig=$1
	before=$(settings)
	"$IOSTRAT" net --mode nodelay,buffered,pingpong-buffered --count 3000 --reps 200 \
		--out "$T/r" >"$T/log" 2>"$T/err" &
	pid=$!
	wait_for test -s "$T/r/results.jsonl"
	kill -"$sig" $pid
	wait_exit $pid
	[ "$rc" -eq $((128 + $(signum "$sig"))) ] || die "exit $rc: $(cat "$T/err")"
	grep -q 'net: interrupted by signal.*repetitions kept' "$T/err" || die "no message: $(cat "$T/err")"
	no_leftovers
	n=$(rows_kept "$T/r") || die "rows wrong"
	[ "$n" -ge 1 ] && [ "$n" -lt 600 ] || die "$n rows"
	[ -s "$T/r/summary.csv" ] || die "no summary.csv"
	[ "$(settings)" = "$before" ] || die "settings changed"
}

# iostrat trace -- CMD, where CMD leaves a child that ignores SIGINT in the
# background (as a shell's background jobs do): the signal reaches CMD,
# the report is still written, nothing CMD started survives, and every bpf
# link the tracer held is gone.
two_tails() { [ "$(pgrep -fc "tail -f $T/x")" -eq 2 ]; }
trace_interrupted() {
	local sig=$1
	need_probes
	: >"$T/x"
	printf 'tail -f %s/x &\ntail -f %s/x\n' "$T" "$T" >"$T/tree.sh"
	before=$(settings)
	"$IOSTRAT" trace -o "$T/report" -- bash "$T/tree.sh" 2>"$T/err" &
	pid=$!
	trap 'kill -9 $pid $(pgrep -f "tail -f $T/x") 2>/dev/null' EXIT
	wait_for two_tails
	links=$(grep -h '^link_id:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{print $2}')
	[ -n "$links" ] || die "no bpf links held while tracing"
	kill -"$sig" $pid
	wait_exit $pid
	[ "$rc" -ne 0 ] || die "exit 0 after $sig"
	grep -q "killed by signal" "$T/report" || die "no report: $(cat "$T/report" "$T/err")"
	no_leftovers
	for l in $links; do
		! bpftool link show id "$l" >/dev/null 2>&1 || die "bpf link $l left"
	done
	trap - EXIT
	[ "$(settings)" = "$before" ] || die "settings changed"
}

# gen: a signal abandons the data set and removes its temporary; the
# temporary a SIGKILLed gen leaves is swept by the next gen.
gen_interrupted() {
	local sig=$1 want=$2
	"$IOSTRAT" gen "$T/d" --files 40 --lines 20000 --width 1000 >/dev/null 2>"$T/err" &
	pid=$!
	wait_for test -d "$T/d.tmp-$pid"
	kill -"$sig" $pid
	rc=0; wait $pid || rc=$?
	[ "$rc" -eq "$want" ] || die "exit $rc, wanted $want: $(cat "$T/err")"
	grep -q 'interrupted by signal' "$T/err" || die "no message: $(cat "$T/err")"
	! names_in "$T" | grep -q '^d' || die "left behind: $(ls -A "$T")"
}
gen_killed_then_swept() {
	"$IOSTRAT" gen "$T/d" --files 40 --lines 20000 --width 1000 >/dev/null 2>&1 &
	pid=$!
	wait_for test -d "$T/d.tmp-$pid"
	kill -KILL $pid; wait $pid 2>/dev/null || true
	[ -d "$T/d.tmp-$pid" ] || die "no temporary to sweep"
	"$IOSTRAT" gen "$T/d" --files 2 --lines 10 --width 10 >/dev/null 2>"$T/err" || die "gen: $(cat "$T/err")"
	[ ! -e "$T/d.tmp-$pid" ] || die "stale temporary of pid $pid kept"
	grep -q "d.tmp-$pid: removing the temporary of an interrupted gen" "$T/err" || die "not said: $(cat "$T/err")"
}
queue_entry_interrupted() { # SIG N: run-next records the attempt, whatever comes, and exits 128 + SIG
	local sig=$1 n=$2 q="$T/q"
	"$IOSTRAT" queue --state-dir "$q" add --name s -- sleep 67.3 >/dev/null
	"$IOSTRAT" queue --state-dir "$q" run-next --settle 0 --reboot-cmd "touch $T/rebooted" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for pgrep -f "^sleep 67.3$"
	for _ in $(seq "$n"); do kill -"$sig" $pid; done
	rc=0; wait $pid || rc=$?
	[ "$rc" -eq $((128 + $(signum "$sig"))) ] || die "exit $rc: $(cat "$T/err")"
	grep -q '"outcome":"interrupted"' "$q/history.jsonl" || die "attempt not recorded: $(cat "$q/history.jsonl")"
	[ ! -e "$T/rebooted" ] || die "rebooted after a signal"
	! pgrep -f "^sleep 67.3$" >/dev/null || die "the entry's command survived"
}
t queue_run_next_sigterm_records_the_attempt queue_entry_interrupted TERM 1
t queue_run_next_three_sigints_still_record_it queue_entry_interrupted INT 3
t gen_sigint_leaves_no_temporary gen_interrupted INT 130
t gen_sigterm_leaves_no_temporary gen_interrupted TERM 143
t gen_sighup_leaves_no_temporary gen_interrupted HUP 129
t run_sighup_stops_child_and_leaves_no_temporaries run_interrupted HUP 129
t run_three_sigterms_still_leave_no_temporaries run_interrupted TERM 143 3
t gen_sigkill_temporary_swept_by_next_gen gen_killed_then_swept
t run_sigint_stops_child_and_leaves_no_temporaries run_interrupted INT 130
t run_sigterm_stops_child_and_leaves_no_temporaries run_interrupted TERM 143
t bench_sigint_keeps_rows_and_resumes bench_interrupted_then_resumed INT
t bench_sigterm_keeps_rows_and_resumes bench_interrupted_then_resumed TERM
t bench_sigterm_mid_repetition_kills_it_and_keeps_no_row bench_long_rep_stopped TERM
t bench_sighup_mid_repetition_kills_it_and_keeps_no_row bench_long_rep_stopped HUP
t run_sigterm_before_the_fork_stops_promptly_without_a_row early_stop run TERM
t bench_sigint_before_the_fork_stops_promptly_without_a_row early_stop bench INT
for sig in INT TERM; do
	t "fio_sig${sig,,}_stops_fio_and_its_jobs_keeps_rows" fio_interrupted $sig
	t "net_sig${sig,,}_ends_the_plan_keeps_rows" net_interrupted $sig
	t "trace_sig${sig,,}_reaches_cmd_and_its_children_unloads_probes" trace_interrupted $sig
done
