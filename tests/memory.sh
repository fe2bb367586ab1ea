#!/usr/bin/env bash
# memory_max and a repetition's whole cost: its own cgroup (limited, read,
# removed), an out-of-memory repetition as a row, the kernel's work columns.
. "$(dirname "$0")/lib.sh"

# 100 MB of text in $T/in (one file)
bigdata() { mkdir -p "$T/in"; yes "the quick brown fox jumps over the lazy dog 0123456789" | head -c 100M >"$T/in/a"; }
# The directories iostrat's cgroups would be made under: this shell's
# cgroup in the v1 memory hierarchy and in the v2 one.
own_cgroups() {
	local mnt path
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	[ -z "$mnt" ] || echo "$mnt$path"
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	path=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	[ -z "$mnt" ] || echo "$mnt$path"
}
left_behind() { own_cgroups | while read -r d; do find "$d" -maxdepth 2 -name 'iostrat-*' 2>/dev/null; done; }
# The repetition cgroups there now: v1 OWN/iostrat-PID-..., v2 OWN/iostrat-PID/... (not main)
rep_cgroups() {
	own_cgroups | while read -r d; do
		find "$d" -mindepth 1 -maxdepth 2 -type d -path '*/iostrat-*' ! -name main \
			! -regex '.*/iostrat-[0-9]*' 2>/dev/null
	done
}
# SKIP unless this host lets iostrat limit a repetition
need_limit() {
	need_root
	mkdir -p "$T/probe"; echo x >"$T/probe/f"
	"$IOSTRAT" run -s stream --memory-max 64M -r 1 "$T/probe" "$T/probe-out" >/dev/null 2>"$T/probe-err" ||
		skip "no memory cgroup here: $(cat "$T/probe-err")"
}

refused_without_a_cgroup() {
	mkdir -p "$T/in" "$T/notcg"; echo x >"$T/in/f"
	IOSTRAT_CGROUP_ROOT=$T/notcg expect_fail "memory_max: cannot limit a repetition's memory here: .*not a cgroup" \
		"$IOSTRAT" run -s stream --memory-max 64M -r 1 "$T/in" "$T/out"
	# a directory that looks like one, where mkdir makes no cgroup
	: >"$T/notcg/memory.limit_in_bytes"
	IOSTRAT_CGROUP_ROOT=$T/notcg expect_fail "memory_max: .*not a cgroup file system" \
		"$IOSTRAT" run -s stream --memory-max 64M -r 1 "$T/in" "$T/out"
	[ -z "$(find "$T/notcg" -mindepth 1 -type d)" ] || die "left a directory in the fake cgroup"
	# without a limit the run goes on and the row says why it has no cgroup
	IOSTRAT_CGROUP_ROOT=$T/notcg "$IOSTRAT" run -s stream -r 1 --accounting "$T/in" "$T/out" --json >"$T/row" ||
		die "run without a limit failed"
	jq -e '.cgroup == null and (.cgroup_error | test("not a cgroup"))' "$T/row" >/dev/null ||
		die "row does not say why: $(cat "$T/row")"
}

# cgroup v2's leaf move (iostrat into OWN/iostrat-PID/main) and its undoing,
# where a cgroup2 hierarchy without the memory controller is mounted (a v1
# hybrid host): the limit is refused, saying why, and nothing is left.
v2_leaf_move_is_undone() {
	need_root
	local mnt path own
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	path=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	[ -n "$mnt" ] || skip "no cgroup2 hierarchy mounted"
	own=$mnt${path%/}
	! grep -qw memory "$own/cgroup.controllers" ||
		skip "cgroup v2 has the memory controller here: the other cases run on it"
	mkdir -p "$T/in"; echo x >"$T/in/f"
	IOSTRAT_CGROUP_ROOT=$own expect_fail "memory_max: .*$own: cannot give the memory controller" \
		"$IOSTRAT" run -s stream --memory-max 64M -r 1 "$T/in" "$T/out"
	IOSTRAT_CGROUP_ROOT=$own "$IOSTRAT" run -s stream -r 1 --accounting "$T/in" "$T/out" --json >"$T/row"
	jq -e '.verified and (.cgroup_error | test("cannot give the memory controller"))' "$T/row" >/dev/null ||
		die "row: $(cat "$T/row")"
	[ -z "$(find "$own" -maxdepth 2 -name 'iostrat-*')" ] || die "left: $(find "$own" -name 'iostrat-*')"
}

buffer_killed_is_a_row() {
	need_limit; bigdata
	rc=0
	"$IOSTRAT" run -s buffer --memory-max 32M -r 1 "$T/in" "$T/out" --json >"$T/row" 2>"$T/err" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 for a killed repetition"
	grep -q 'killed by the out-of-memory killer at [0-9]* MiB charged (memory_max 32 MiB)' "$T/err" ||
		die "stderr does not say so: $(cat "$T/err")"
	jq -e '.oom_kill == true and .memory_max == 33554432 and .mem_peak_bytes > 0 and
	       (.error | test("out-of-memory"))' "$T/row" >/dev/null || die "row: $(cat "$T/row")"
	[ -z "$(find "$T/out" -name '*.iostrat-tmp')" ] || die "temporary left: $(ls -A "$T/out")"
	[ ! -e "$T/out/a" ] || [ "$(stat -c %s "$T/out/a")" -eq 104857600 ] || die "half-written output"
	[ -z "$(left_behind)" ] || die "cgroup left: $(left_behind)"
}

stream_fits_the_same_limit() {
	need_limit; bigdata
	"$IOSTRAT" run -s stream --memory-max 32M -r 1 "$T/in" "$T/out" --json >"$T/row" ||
		die "stream failed in 32 MiB"
	jq -e '.verified == true and .oom_kill == false and .mem_peak_bytes <= 33554432' "$T/row" >/dev/null ||
		die "row: $(cat "$T/row")"
}

no_cgroup_left_after_sigint() {
	need_limit; bigdata
	"$IOSTRAT" run -s stream --work 50 --memory-max 64M -r 20 "$T/in" "$T/out" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 50); do [ -n "$(left_behind)" ] && break; sleep 0.1; done
	[ -n "$(left_behind)" ] || die "no repetition cgroup seen while running"
	kill -INT "$pid"
	wait "$pid" || true
	[ -z "$(left_behind)" ] || die "cgroup left after SIGINT: $(left_behind)"
}

cost_columns_present() {
	mkdir -p "$T/in"; echo "a line" >"$T/in/f"
	"$IOSTRAT" run -s stream -r 1 "$T/in" "$T/out" --json >"$T/row"
	jq -e '.cgroup == null and (.cgroup_error | test("none asked"))' "$T/row" >/dev/null ||
		die "a cgroup without memory_max or accounting: $(cat "$T/row")"
	for c in kthread_s kswapd_s kworker_s ksoftirqd_s psi_io_some_us psi_mem_some_us psi_source \
		 pgscan pgsteal workingset_refault reclaim_source oom_kill mem_peak_bytes cgroup cgroup_error \
		 dev_read_bytes dev_source; do
		jq -e --arg c "$c" 'has($c)' "$T/row" >/dev/null || die "no column $c"
	done
	[ ! -r /proc/pressure/io ] || jq -e '.psi_source != null and .kthread_s >= 0' "$T/row" >/dev/null ||
		die "PSI or kernel-thread CPU missing: $(cat "$T/row")"
}

bench_counts_a_killed_configuration_as_a_result() {
	need_limit; bigdata
	printf '[run]\ncache=warm\nreps=2\ndataset=%s\nmemory_max=32M\nstrategy=stream,buffer\n' \
		"$T/in" >"$T/oom.ini"
	"$IOSTRAT" bench "$T/oom.ini" --out "$T/res" >"$T/out" 2>&1 || die "bench failed: $(tail -n 2 "$T/out")"
	grep -q '1 configurations ran out of memory' "$T/out" || die "no note: $(cat "$T/out")"
	[ "$(jq -s '[.[] | select(.strategy == "buffer")] | length' "$T/res/results.jsonl")" -eq 1 ] ||
		die "a killed configuration was run again"
	[ "$(jq -s '[.[] | select(.strategy == "stream" and .verified)] | length' "$T/res/results.jsonl")" -eq 2 ] ||
		die "stream did not run its repetitions"
	"$IOSTRAT" report "$T/res" | grep -q 'killed: buffer' || die "the memory verdict does not name buffer"
	# resumed, the killed configuration is a result already: not run again
	"$IOSTRAT" bench --resume "$T/res" >"$T/out" 2>&1 || die "resume failed: $(tail -n 2 "$T/out")"
	[ "$(jq -s '[.[] | select(.strategy == "buffer")] | length' "$T/res/results.jsonl")" -eq 1 ] ||
		die "--resume ran the killed configuration again"
}

# The memory profile runs here as shipped (small: 60 MB against 16 MiB, one
# repetition): every configuration gives a row, each in its own cgroup,
# the memory verdict says which strategies scale, and no cgroup is left.
memory_profile_runs() {
	skip_under_sanitizers "the profile as shipped: 32 configurations of the paths the cases above run under the sanitizers"
	need_limit
	local n want=32
	SCALE=0.03 MEMORY_MAX=16M REPS=1 "$IOSTRAT" bench "$TOP/profiles/memory.ini" \
		--out "$T/mp" --data "$T/mp-data" >"$T/out" 2>&1 || die "bench failed: $(tail -n 3 "$T/out")"
	# 5 strategies x 2 W x 2 limits, and 3 more with --dontcache where it runs
	grep -q 'RWF_DONTCACHE' "$T/out" && want=20
	n=$(jq -s '[.[] | select(.kind == "run")] | map(.config_id) | unique | length' "$T/mp/results.jsonl")
	[ "$n" -eq "$want" ] || die "$n configurations with a row, not $want: $(tail -n 2 "$T/out")"
	jq -se 'all(.[] | select(.kind == "run"); .cgroup != null and .cgroup != "none")' \
		"$T/mp/results.jsonl" >/dev/null || die "a row without its cgroup: $(jq -c .cgroup_error "$T/mp/results.jsonl" | sort -u)"
	"$IOSTRAT" report "$T/mp" >"$T/rep" 2>&1 || die "report failed"
	grep -Eq '^  big( dontcache)? in 16 MiB \(data [0-9.]+x the limit\): ' "$T/rep" ||
		die "no memory verdict: $(sed -n '/^memory verdict/,/^$/p' "$T/rep")"
	[ -z "$(left_behind)" ] || die "left: $(left_behind | head -n 3)"
}

# A repetition cgroup that cannot be removed (a process put in it from
# outside) is said in one warning, and the next configuration's repetition
# 1 still gets a cgroup of its own: names count the process's cgroups, not
# repetition numbers (rep-1 of each configuration was one name: EEXIST).
stuck_cgroup() {
	cleanup() {
		[ -z "${sleeper:-}" ] || { kill "$sleeper"; wait "$sleeper"; } 2>/dev/null || true
		[ -z "${cg:-}" ] || rmdir "$cg" 2>/dev/null || true
		case ${cg:-} in */iostrat-*/*) rmdir "${cg%/*}" 2>/dev/null || true ;; esac
	}
	need_limit; bigdata
	trap cleanup EXIT
	# every repetition long enough (W >= 50 on 100 MB) to be caught in its
	# cgroup: a round's order is shuffled, so the first may be any of them
	printf '[run]\ncache=warm\nreps=1\ndataset=%s\naccounting=1\nstrategy=stream\nwork=50,100,150\n' \
		"$T/in" >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/res" >"$T/out" 2>&1 &
	pid=$!
	sleep 1000 & sleeper=$!
	# a repetition's cgroup, the sleeper moved in (another one where that
	# repetition ended and took its cgroup with it in between)
	for _ in $(seq 200); do
		cg=$(rep_cgroups | head -n 1)
		[ -n "$cg" ] && echo "$sleeper" 2>/dev/null >"$cg/cgroup.procs" && break
		cg=
		sleep 0.05
	done
	[ -n "$cg" ] || die "no repetition cgroup seen while running"
	wait "$pid" || die "bench failed: $(tail -n 3 "$T/out")"
	[ "$(grep -c "warning: $cg: cannot remove" "$T/out")" -eq 1 ] ||
		die "no one warning about $cg: $(cat "$T/out")"
	[ "$(jq -s '[.[] | select(.cgroup != null)] | length' "$T/res/results.jsonl")" -eq 3 ] ||
		die "a repetition without its cgroup: $(jq -c .cgroup_error "$T/res/results.jsonl")"
}

# cgroup v1 with swap accounting: memory + swap limited to the limit too
# (memory.memsw.limit_in_bytes), as v2's memory.swap.max 0: on a host with
# swap a limited repetition is OOM-killed, not swapped out.
memsw_limited_too() {
	need_limit; bigdata
	local memsw v='' x
	memsw=$(own_cgroups | head -n 1)/memory.memsw.limit_in_bytes
	[ -e "$memsw" ] || skip "no cgroup v1 swap accounting (memory.memsw.limit_in_bytes) here"
	"$IOSTRAT" run -s stream --work 50 --memory-max 64M -r 1 "$T/in" "$T/out" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		cg=$(rep_cgroups | head -n 1)
		[ -z "$cg" ] || ! x=$(cat "$cg/memory.memsw.limit_in_bytes" 2>/dev/null) || v=$x
		[ "$v" != 67108864 ] || break
		sleep 0.05
	done
	wait "$pid" || die "the run failed"
	[ "$v" = 67108864 ] || die "memory.memsw.limit_in_bytes of the repetition: ${v:-none seen}"
}

# The child's move into its cgroup refused (IOSTRAT_FAKE_CGROUP_ENTER_FAIL,
# cgroup.h): with a limit the repetition never starts and its error names
# the step, in one line (not "killed by signal 9", not a death by SIGPIPE
# with the cgroup left); with accounting only it runs, and its row says why
# it has no cgroup figures instead of the empty cgroup's zeros.
move_refused() {
	need_limit
	mkdir -p "$T/in"; echo x >"$T/in/f"
	IOSTRAT_FAKE_CGROUP_ENTER_FAIL=1 expect_fail \
		"^iostrat: memory_max: moving the repetition into .*iostrat-[^ ]*: Permission denied$" \
		"$IOSTRAT" run -s stream --memory-max 64M -r 1 "$T/in" "$T/out"
	[ -z "$(left_behind)" ] || die "cgroup left: $(left_behind)"
	IOSTRAT_FAKE_CGROUP_ENTER_FAIL=1 "$IOSTRAT" run -s stream -r 1 --accounting \
		"$T/in" "$T/out" --json >"$T/row" || die "run without a limit failed"
	jq -e '.verified and .cgroup == null and .mem_peak_bytes == null and
	       (.cgroup_error | test("moving the repetition into .*: Permission denied"))' \
		"$T/row" >/dev/null || die "row: $(cat "$T/row")"
	[ -z "$(left_behind)" ] || die "cgroup left: $(left_behind)"
}

# A configuration killed in a traced and in a timed repetition is one
# configuration in the bench's note, and the memory verdict counts its
# timed repetitions only.  A resume makes the order certain: a good timed
# row of buffer (a killed one, doctored) lets round 1 run only its traced
# repetition (killed: that does not stop it), round 2 its timed one.
traced_and_timed_kill_is_one_configuration() {
	need_limit; bigdata
	"$IOSTRAT" trace --json -o "$T/probe.json" -- true 2>"$T/probe.err" ||
		skip "probes do not load: $(cat "$T/probe.err")"
	printf '[run]\ncache=warm\nreps=1\ndataset=%s\nmemory_max=32M\nstrategy=buffer\n' \
		"$T/in" >"$T/oom.ini"
	"$IOSTRAT" bench "$T/oom.ini" --out "$T/res" >/dev/null 2>&1 || die "bench failed"
	jq -c '.error = null | .oom_kill = false | .elapsed_s = 1.0 | .bytes_in = 104857600' \
		"$T/res/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/res/results.jsonl"
	"$IOSTRAT" bench --resume "$T/res" -D reps=2 -D trace=1 >"$T/out" 2>&1 ||
		die "resume failed: $(tail -n 2 "$T/out")"
	[ "$(jq -s '[.[] | select(.oom_kill)] | map(.role) | sort | join(",")' "$T/res/results.jsonl")" = '"timed,traced"' ] ||
		die "not a killed traced and timed repetition: $(jq -c '[.role, .oom_kill]' "$T/res/results.jsonl")"
	grep -q '^note: 1 configurations ran out of memory' "$T/out" || die "note: $(grep note "$T/out")"
	"$IOSTRAT" report "$T/res" >"$T/report"
	grep -q 'buffer cannot run in 32 MiB with these files (killed at [0-9]* MiB in 1 of 2 repetitions)' "$T/report" ||
		die "verdict: $(grep 'buffer cannot' "$T/report")"
}

# A cgroup under ours on the v1 memory hierarchy limited to 16 MiB, in $P
# (named after the test: a leftover of one never blocks the next)
# (removed on the way out, also on failure), standing for a caller's limit.
enclosing_16m() {
	local mnt path
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	[ -n "$mnt" ] || skip "no cgroup v1 memory hierarchy to make the enclosing limit in"
	P=$mnt${path%/}/enclosing-limit-$$-${FUNCNAME[1]}
	mkdir "$P"
	trap 'for _ in $(seq 50); do rmdir "$P" 2>/dev/null && break; sleep 0.1; done' EXIT
	echo 16M >"$P/memory.limit_in_bytes"
	[ ! -e "$P/memory.memsw.limit_in_bytes" ] || echo 16M >"$P/memory.memsw.limit_in_bytes"
}
# CMD... run inside $P
in_enclosing() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$P" "$@"; }

# Killed by the enclosing 16 MiB, not by its own memory_max of 1 GiB: a
# failure naming the enclosing limit, never charged to memory_max.
killed_by_an_enclosing_limit() {
	need_limit; bigdata; enclosing_16m
	rc=0
	in_enclosing "$IOSTRAT" run -s buffer --memory-max 1G -r 1 --cache asis "$T/in" "$T/out" --json \
		>"$T/row" 2>"$T/err" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 for a killed repetition"
	grep -q "not by its memory_max (1024 MiB): the limit of the enclosing cgroup .*enclosing-limit-$$-[a-z_]* (16 MiB)" "$T/err" ||
		die "stderr does not name the enclosing limit: $(cat "$T/err")"
	jq -e '.oom_kill != true and (.error | test("enclosing"))' "$T/row" >/dev/null ||
		die "row charged to memory_max: $(cat "$T/row")"
	[ -z "$(left_behind)" ] || die "cgroup left: $(left_behind)"
}

# In a bench the same kill is a failure, and --resume runs it again.
bench_reruns_an_enclosing_kill() {
	need_limit; bigdata; enclosing_16m
	printf '[a]\ndataset=%s\nstrategy=buffer\nmemory_max=1G\nreps=1\nmax_reps=1\ncache=asis\n' \
		"$T/in" >"$T/p.ini"
	rc=0
	IOSTRAT_DATA="$T/data" in_enclosing "$IOSTRAT" bench "$T/p.ini" --out "$T/res" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0: $(cat "$T/err")"
	! grep -q "ran out of memory under memory_max" "$T/err" || die "counted as out of memory: $(cat "$T/err")"
	jq -e '.oom_kill != true and .error != null' "$T/res/results.jsonl" >/dev/null ||
		die "row: $(cat "$T/res/results.jsonl")"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench --resume "$T/res" >/dev/null 2>"$T/err2" ||
		die "resume failed: $(cat "$T/err2")"
	[ "$(jq -s 'map(select(.verified == true)) | length' "$T/res/results.jsonl")" -eq 1 ] ||
		die "not run again on resume: $(jq -c '[.error, .verified]' "$T/res/results.jsonl")"
}

# A limit below what a repetition needs to start is refused up front,
# naming the floor, before any repetition (no row, no cgroup).
below_the_floor_refused() {
	mkdir -p "$T/in"; echo x >"$T/in/f"
	expect_fail "memory_max: 512 KiB is below the 1 MiB a repetition needs to start" \
		"$IOSTRAT" run -s stream --memory-max 512K -r 1 "$T/in" "$T/out"
	printf '[a]\ndataset=%s\nstrategy=stream\nmemory_max=0,100K\n' "$T/in" >"$T/p.ini"
	expect_fail "memory_max: 100 KiB is below the 1 MiB" "$IOSTRAT" bench "$T/p.ini" --dry-run
}

# A limit that is not whole MiB prints as given (1536 KiB, not "2 MiB").
limit_prints_as_given() {
	need_limit; bigdata
	rc=0
	"$IOSTRAT" run -s buffer --memory-max 1536K -r 1 --cache asis "$T/in" "$T/out" 2>"$T/err" >/dev/null || rc=$?
	[ "$rc" -ne 0 ] || die "buffer of 100 MB ran in 1536 KiB"
	grep -q "(memory_max 1536 KiB)" "$T/err" || die "limit not as given: $(cat "$T/err")"
}

# A row its memory_max killed is a result: the report's header counts it
# apart from the failed, and summary.csv's errors column leaves it out.
oom_row_is_not_a_failure_in_the_report() {
	need_limit; bigdata
	printf '[run]\ncache=asis\nreps=1\nmax_reps=1\ndataset=%s\nmemory_max=32M\nstrategy=buffer\n' \
		"$T/in" >"$T/oom.ini"
	"$IOSTRAT" bench "$T/oom.ini" --out "$T/res" >"$T/out" 2>&1 || die "bench failed: $(tail -n 2 "$T/out")"
	"$IOSTRAT" report "$T/res" >"$T/rep" 2>&1 || die "report failed: $(cat "$T/rep")"
	grep -q '1 repetitions, 1 configurations, 0 failed, 1 out of memory under memory_max' "$T/rep" ||
		die "header: $(grep -i repetitions "$T/rep")"
	errs=$(python3 -c 'import csv, sys; print(next(csv.DictReader(open(sys.argv[1])))["errors"])' \
		"$T/res/summary.csv")
	[ "$errs" = 0 ] || die "summary.csv errors $errs: $(cat "$T/res/summary.csv")"
}

# Progress lines say the configuration's memory_max (two limits of one
# strategy are two different lines).
progress_shows_the_limit() {
	need_limit
	mkdir -p "$T/in"; echo x >"$T/in/f"
	printf '[run]\ncache=asis\nreps=1\nmax_reps=1\ndataset=%s\nmemory_max=0,64M\nstrategy=stream\n' \
		"$T/in" >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/res" >"$T/out" 2>&1 || die "bench failed: $(tail -n 2 "$T/out")"
	grep -q '\] stream threads=1 work=0 memory_max=64 MiB in rep 1/1' "$T/out" ||
		die "no limit in the progress: $(cat "$T/out")"
	grep -q '\] stream threads=1 work=0 in rep 1/1' "$T/out" || die "the unlimited one: $(cat "$T/out")"
}

t memory_max_is_refused_in_one_line_without_a_cgroup refused_without_a_cgroup
t cgroup_v2_leaf_move_is_undone_where_v2_has_no_memory v2_leaf_move_is_undone
t buffer_killed_by_the_limit_is_a_row_not_a_crash buffer_killed_is_a_row
t stream_runs_verified_in_the_same_limit stream_fits_the_same_limit
t no_cgroup_left_after_a_run_or_sigint no_cgroup_left_after_sigint
t kernel_thread_cpu_and_psi_columns_are_present cost_columns_present
t bench_counts_a_killed_configuration_as_a_result_and_runs_it_once bench_counts_a_killed_configuration_as_a_result
t the_memory_profile_runs_here_as_shipped memory_profile_runs
t a_stuck_cgroup_is_warned_about_and_its_name_not_reused stuck_cgroup
t cgroup_v1_limits_memory_and_swap_together memsw_limited_too
t a_refused_move_into_the_cgroup_is_said_not_run_unlimited move_refused
t a_configuration_killed_traced_and_timed_is_counted_once traced_and_timed_kill_is_one_configuration
t a_kill_by_an_enclosing_limit_is_not_charged_to_memory_max killed_by_an_enclosing_limit
t bench_runs_a_kill_by_an_enclosing_limit_again_on_resume bench_reruns_an_enclosing_kill
t memory_max_below_the_floor_is_refused_naming_it below_the_floor_refused
t a_limit_not_in_whole_mib_prints_as_given limit_prints_as_given
t an_oom_row_is_not_counted_as_failed_in_the_report oom_row_is_not_a_failure_in_the_report
t progress_lines_show_the_memory_max progress_shows_the_limit
