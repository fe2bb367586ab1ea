#!/usr/bin/env bash
# eBPF probes: `iostrat trace`, `iostrat run --trace`.
# Figures are checked on a fresh ext4 on a loop device (direct I/O, so the
# requests reach the loop device's own queue) against independent sources:
# the file's page count and the cachestat() syscall (bpftrace in
# trace-bpftrace.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace.inc"

cold_sequential_read_is_sequential() {
	setup_fs
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- cat "$F" >/dev/null
	check "$T/r.json" 'blk_read_reqs > 10 and seq_pct_read >= 90'
}

fio_random_reads_are_random() {
	need_cmd fio
	setup_fs
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- fio --name=rr \
		--filename="$F" --rw=randread --bs=4k --size=64m --io_size=4m \
		--ioengine=psync --randseed=7 --output=/dev/null
	check "$T/r.json" 'blk_read_reqs >= 1000 and seq_pct_read <= 10'
	check "$T/r.json" 'req_p50_kb == 4'
}

# Keep the file's pages mapped in a process outside the traced tree, so a
# drop_caches by a concurrent test cannot evict them (it skips mapped
# pages) while the warm read is measured.  Sets HOLDER.
hold_pages() {
	python3 -c '
import mmap, sys, time
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
m.madvise(22)  # MADV_POPULATE_READ: map every page
print("held", flush=True)
time.sleep(120)' "$1" >"$T/holder.out" &
	HOLDER=$!
	for _ in $(seq 50); do
		grep -q held "$T/holder.out" 2>/dev/null && return 0
		sleep 0.1
	done
	die "could not hold the file's pages"
}

stop_holder() {
	[ -z "${HOLDER:-}" ] || { kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null; }
	HOLDER=
	return 0
}

# One cold and one warm read, checked against cachestat before and after.
# Returns 75 when cachestat shows someone else evicting the file during the
# cold read (a drop_caches by a concurrent test): the figures are not ours.
cold_warm_once() {
	local b0 a0 b1 a1
	evict "$F"
	b0=$(cachestat "$F")
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/cold.json" -- cat "$F" >/dev/null
	a0=$(cachestat "$F")
	echo "cachestat: cold $b0 -> $a0; pages $PAGES"
	[ "$b0" -le $((PAGES / 100)) ] || die "not cold before: $b0 pages cached"
	[ "$a0" -ge $((PAGES * 95 / 100)) ] || return 75
	# cold: every page missed, and cachestat saw them arrive
	check "$T/cold.json" "abs(pc_misses - $PAGES) <= $PAGES * 0.05"
	check "$T/cold.json" "abs(pc_misses - ($a0 - $b0)) <= $PAGES * 0.05"
	check "$T/cold.json" 'pc_hit_ratio < 0.05'
	hold_pages "$F"
	b1=$(cachestat "$F")
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/warm.json" -- cat "$F" >/dev/null
	a1=$(cachestat "$F")
	stop_holder
	echo "cachestat: warm $b1 -> $a1"
	# warm: nothing new in the cache, nearly everything a hit
	check "$T/warm.json" "abs(pc_misses - ($a1 - $b1)) <= $PAGES * 0.05"
	check "$T/warm.json" 'pc_hit_ratio > 0.95'
	check "$T/warm.json" "abs(pc_requested - $PAGES) <= $PAGES * 0.05"
}

cold_then_warm_hits_match_cachestat() {
	setup_fs
	HOLDER=
	trap 'stop_holder; cleanup_loop' EXIT
	local rc
	for _ in 1 2 3; do
		rc=0
		cold_warm_once || rc=$?
		[ "$rc" -eq 75 ] || return "$rc"
		echo "file evicted by someone else during the cold read; again"
	done
	# not a wrong figure: no valid measurement could be made
	skip "the page cache kept being dropped by something else during the reads"
}

every_attach_mode_loads() {
	need_probes
	local m
	for m in tp_btf raw_tp tracepoint; do
		IOSTRAT_TRACE_MODE=$m "$IOSTRAT" trace --json -o "$T/$m.json" -- \
			cat /etc/hostname >/dev/null 2>"$T/$m.err" &
	done
	wait
	for m in tp_btf raw_tp tracepoint; do
		[ -s "$T/$m.json" ] || die "$m: $(cat "$T/$m.err")"
		check "$T/$m.json" "trace_mode == '$m' and pc_read_calls >= 1"
	done
}

# Every row names the source of each figure; asking for a source the
# kernel refuses (fentry on this project's 6.18 host) falls back per attach
# point to one it offers, with no figure lost.
rows_name_each_figures_source() {
	need_probes
	local m
	for m in "" fentry kprobe; do
		IOSTRAT_TRACE_MODE=$m "$IOSTRAT" trace --json -o "$T/r.json" -- \
			cat /etc/hostname >/dev/null 2>"$T/err" || die "${m:-default}: $(cat "$T/err")"
		check "$T/r.json" "all(x in ('tp_btf', 'raw_tp', 'tracepoint', 'fentry', 'kprobe')
			for x in (blk_source, pc_source, ra_source)) and pc_read_calls >= 1"
		! grep -q 'none (' "$T/err" || die "${m:-default}: a figure lost: $(cat "$T/err")"
	done
}

# A kernel without some attach points (IOSTRAT_TRACE_WITHOUT plays one):
# only their figures go, null, each with one line saying which and why;
# the others and the command's exit status stay.
missing_attach_point_costs_only_its_figures() {
	need_probes
	IOSTRAT_TRACE_WITHOUT=rq_issue,rq_complete "$IOSTRAT" trace --json -o "$T/b.json" -- \
		cat /etc/hostname >/dev/null 2>"$T/b.err" || die "exit $?: $(cat "$T/b.err")"
	check "$T/b.json" "(blk_source == 'none' and seq_pct is None and blk_reqs is None and
		lat_p50_us is None and pc_source != 'none' and pc_read_calls >= 1)"
	[ "$(grep -c . "$T/b.err")" -eq 2 ] || die "not one line per figure: $(cat "$T/b.err")"
	grep -q '^iostrat: warning: trace: block requests: none (rq_issue: ' "$T/b.err" ||
		die "no line for block requests: $(cat "$T/b.err")"
	grep -q '^iostrat: warning: trace: block latency: none (rq_complete: ' "$T/b.err" ||
		die "no line for block latency: $(cat "$T/b.err")"
	IOSTRAT_TRACE_WITHOUT=reads,sync_ra "$IOSTRAT" trace --json \
		-o "$T/p.json" -- cat /etc/hostname >/dev/null 2>"$T/p.err" || die "exit $?: $(cat "$T/p.err")"
	check "$T/p.json" "(pc_source == 'none' and pc_hits is None and pc_hit_ratio is None and
		ra_source == 'none' and ra_pages is None and blk_source != 'none')"
	[ "$(grep -c . "$T/p.err")" -eq 2 ] || die "not one line per figure: $(cat "$T/p.err")"
	grep -q '^iostrat: warning: trace: page-cache hits and misses: none (reads: withheld' "$T/p.err" ||
		die "no line for the page cache: $(cat "$T/p.err")"
	rc=0
	IOSTRAT_TRACE_WITHOUT=rq_issue "$IOSTRAT" trace -o "$T/r.txt" -- sh -c 'exit 3' 2>/dev/null || rc=$?
	[ "$rc" -eq 3 ] || die "exit status $rc, expected the command's 3"
}

# A machine booted without tracefs (seen after a restart here): iostrat
# mounts it for itself, says so, and the system's mounts stay as they were.
# The test hides tracefs (and debugfs) in a namespace of its own when the
# machine has them.
missing_tracefs_is_mounted_for_iostrat_only() {
	need_probes
	local before
	before=$(grep -c -E ' (tracefs|debugfs) ' /proc/mounts || true)
	in_private_mount_ns sh -c '
		umount -l /sys/kernel/tracing 2>/dev/null; umount -l /sys/kernel/debug 2>/dev/null
		test ! -e /sys/kernel/tracing/events || exit 9
		IOSTRAT_TRACE_MODE=tracepoint "$0" trace --json -o "$1" -- cat /etc/hostname' \
		"$IOSTRAT" "$T/tp.json" >/dev/null 2>"$T/err" || die "exit $?: $(cat "$T/err")"
	grep -q 'tracefs was not mounted; mounted it at /sys/kernel/tracing' "$T/err" ||
		die "no note: $(cat "$T/err")"
	check "$T/tp.json" "trace_mode == 'tracepoint' and pc_read_calls >= 1"
	[ "$(grep -c -E ' (tracefs|debugfs) ' /proc/mounts || true)" = "$before" ] ||
		die "the system's mounts changed"
}

# in_system_chroot PREP CHECK: in a mount namespace of its own, a chroot
# of this system at $T/root ($r in the shell texts) readied by PREP, then
# `iostrat trace` of cat in it asking for tracepoints (rows in
# $T/root/out/tp.json), then CHECK, whose status is the script's; its
# stderr in $T/err
in_system_chroot() {
	mkdir -p "$T/root/out"
	# shellcheck disable=SC2016 # expanded by the inner shell
	in_private_mount_ns bash -c "$(declare -f chroot_of_system)"'
		r=$0
		chroot_of_system "$r" || exit 7
		'"$1"'
		IOSTRAT_TRACE_MODE=tracepoint chroot "$r" "$IOSTRAT" trace --json \
			-o /out/tp.json -- cat /etc/hostname || exit
		'"$2" "$T/root" >/dev/null 2>"$T/err" || die "exit $?: $(cat "$T/err")"
}

# In a chroot / is not a mount point, and making it a slave fails (EINVAL):
# iostrat still mounts tracefs for itself, and the mount stays in its own
# namespace.  The chroot is made of this system's directories, in a
# namespace of the test's own; its /sys is made shared there, so a tracefs
# mount that escaped iostrat's namespace would show in the test's.
tracefs_is_mounted_in_a_chroot_too() {
	need_probes
	need_cmd chroot
	# shellcheck disable=SC2016 # expanded by the inner shell
	in_system_chroot '
		umount -l "$r/sys/kernel/tracing" 2>/dev/null
		umount -l "$r/sys/kernel/debug" 2>/dev/null
		mount --make-rshared "$r/sys"
		test ! -e "$r/sys/kernel/tracing/events" || exit 9
		! mountpoint -q "$r" || exit 8' \
		'! grep -E " $r/sys/kernel/(tracing|debug) " /proc/self/mounts'
	grep -q 'tracefs was not mounted; mounted it at /sys/kernel/tracing' "$T/err" ||
		die "no note: $(cat "$T/err")"
	! grep -q 'fell back' "$T/err" || die "fell back: $(cat "$T/err")"
	check "$T/root/out/tp.json" "trace_mode == 'tracepoint' and trace_fallback is None and pc_read_calls >= 1"
}

# A chroot whose /sys/kernel/tracing is a directory of its own root (no
# /sys mount: only the BTF and CPU directories bound): iostrat cannot make
# that mount a slave, so it does not mount tracefs there, and says why in
# the fallback line and the rows.
tracefs_on_a_chroots_own_root_is_not_mounted() {
	need_probes
	need_cmd chroot
	# shellcheck disable=SC2016 # expanded by the inner shell
	in_system_chroot '
		umount -R "$r/sys" && rmdir "$r/sys" || exit 7
		for d in kernel/btf devices/system/cpu; do
			mkdir -p "$r/sys/$d" && mount --bind "/sys/$d" "$r/sys/$d" || exit 7
		done
		mkdir "$r/sys/kernel/tracing"' \
		'! grep -E " $r/sys/kernel/tracing " /proc/self/mounts'
	grep -q '^iostrat: warning: trace: fell back from tracepoint (IOSTRAT_TRACE_MODE) to tp_btf .*in this chroot no mount of its own holds it' "$T/err" ||
		die "unclear: $(cat "$T/err")"
	check "$T/root/out/tp.json" "trace_mode == 'tp_btf' and 'no mount of its own holds it' in trace_fallback"
}

# A source asked for (IOSTRAT_TRACE_MODE) but not taken is said: one line,
# and trace_fallback in the rows, naming the source taken instead and why.
# IOSTRAT_TRACE_WITHOUT=tracefs plays a machine without tracefs, not mountable.
fallback_from_the_asked_attach_mode_is_said() {
	need_probes
	IOSTRAT_TRACE_MODE=tracepoint IOSTRAT_TRACE_WITHOUT=tracefs "$IOSTRAT" trace \
		--json -o "$T/tp.json" -- cat /etc/hostname >/dev/null 2>"$T/err" ||
		die "exit $?: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "not one line: $(cat "$T/err")"
	grep -Eq '^iostrat: warning: trace: fell back from tracepoint \(IOSTRAT_TRACE_MODE\) to [a-z_, ]+ for [0-9]+ of [0-9]+ attach points: .*tracefs withheld' "$T/err" ||
		die "unclear line: $(cat "$T/err")"
	check "$T/tp.json" "trace_mode != 'tracepoint' and 'fell back from tracepoint' in trace_fallback"
	# the default order, where nothing falls back: no line, null
	"$IOSTRAT" trace --json -o "$T/d.json" -- cat /etc/hostname >/dev/null 2>"$T/err"
	[ ! -s "$T/err" ] || die "default order: $(cat "$T/err")"
	check "$T/d.json" "trace_fallback is None"
}

# A mode that names no source is refused before anything runs, by every
# command that traces; also where the build has no probes.
trace_mode_naming_no_source_is_refused() {
	local re='^iostrat: IOSTRAT_TRACE_MODE=bogus: not an attach mode \(tp_btf, raw_tp, tracepoint, fentry, kprobe'
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	IOSTRAT_TRACE_MODE=bogus expect_fail "$re" "$IOSTRAT" trace -- touch "$T/ran"
	[ ! -e "$T/ran" ] || die "the command ran"
	IOSTRAT_TRACE_MODE=bogus expect_fail "$re" "$IOSTRAT" run -s stream "$T/in" "$T/out" \
		--reps 1 --cache asis --trace
	[ ! -e "$T/out" ] || [ -z "$(ls -A "$T/out")" ] || die "run wrote outputs"
	printf '[global]\nscale=0.001\nreps=1\n[t]\nstrategy=stream\ndataset=small\ntrace=1\n' >"$T/p.ini"
	IOSTRAT_TRACE_MODE=bogus expect_fail "$re" "$IOSTRAT" bench "$T/p.ini" --out "$T/res" \
		--data "$T/data"
	[ ! -e "$T/data" ] || die "bench generated data first"
	IOSTRAT_TRACE_MODE='' "$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 1 --cache asis \
		>/dev/null 2>&1 || die "an empty IOSTRAT_TRACE_MODE is the default order"
}

# Bad -o and -d are found before the command runs, and a command that
# cannot run exits as a shell would: 127 not found, 126 not executable.
trace_checks_its_arguments_before_running() {
	expect_fail "$T/nodir/r.txt: opening the report: No such file" \
		"$IOSTRAT" trace -o "$T/nodir/r.txt" -- touch "$T/ran"
	[ ! -e "$T/ran" ] || die "the command ran although its report could not be written"
	expect_fail "$T/missing/path: No such file or directory" \
		"$IOSTRAT" trace -d "$T/missing/path" -- touch "$T/ran"
	[ ! -e "$T/ran" ] || die "the command ran with a bad -d"
	need_probes
	local rc=0
	"$IOSTRAT" trace -o "$T/r.txt" -- "$T/nope" 2>/dev/null || rc=$?
	[ "$rc" -eq 127 ] || die "not found: exit $rc, expected 127"
	mkdir "$T/adir"
	rc=0
	"$IOSTRAT" trace -o "$T/r.txt" -- "$T/adir" 2>/dev/null || rc=$?
	[ "$rc" -eq 126 ] || die "not executable: exit $rc, expected 126"
}

trace_reports_and_passes_exit_status() {
	need_probes
	"$IOSTRAT" trace -- cat /etc/hostname >/dev/null 2>"$T/r.txt"
	grep -q 'block layer' "$T/r.txt" || die "no block view: $(cat "$T/r.txt")"
	grep -q 'hit ratio' "$T/r.txt" || die "no page-cache view: $(cat "$T/r.txt")"
	rc=0
	"$IOSTRAT" trace -o "$T/r2.txt" -- sh -c 'exit 3' || rc=$?
	[ "$rc" -eq 3 ] || die "exit status $rc, expected the command's 3"
	expect_fail 'no command' "$IOSTRAT" trace
	expect_fail 'not a disk' "$IOSTRAT" trace -d nosuchdisk -- true
}

# The options end at CMD: what follows it is CMD's, --help and --json too.
trace_options_end_at_the_command() {
	need_probes
	local out
	out=$("$IOSTRAT" trace -o "$T/r.txt" printf '%s %s\n' --help --json) ||
		die "trace failed: $out"
	[ "$out" = "--help --json" ] || die "CMD did not get its own arguments: $out"
	grep -q 'block layer' "$T/r.txt" || die "no text report: $(cat "$T/r.txt")"
}

run_trace_rows_carry_figures() {
	setup_fs
	"$IOSTRAT" gen "$T/m/in" --files 4 --lines 20000 --width 100 >/dev/null
	sync
	"$IOSTRAT" run -s stream "$T/m/in" "$T/m/out" --reps 2 --cache cold \
		--trace --json >"$T/rows" 2>"$T/err"
	[ ! -s "$T/err" ] || die "stderr: $(cat "$T/err")"
	# 2 timed repetitions and 3 traced (trace_reps' default); each starts
	# cold and is reset: the inputs miss once
	jq -se '[.[] | select(.role == "traced")] | length == 3 and
		all(.[]; (.bytes_in / 4096) as $p | .traced == true
		and all(.seq_pct, .pc_hits, .pc_misses, .pc_hit_ratio, .ra_pages, .req_p50_kb,
			.lat_p50_us, .lat_p99_us; . != null)
		and (.pc_misses - $p | fabs) <= $p * 0.05 + 4
		and .pc_hit_ratio < 0.05 and .blk_read_reqs > 0)' "$T/rows" >/dev/null ||
		die "bad rows: $(cat "$T/rows")"
	# warm: nearly all hits (again if something else dropped the cache)
	for _ in 1 2 3; do
		"$IOSTRAT" run -s buffer "$T/m/in" "$T/m/out" --reps 1 --cache warm \
			--trace --json >"$T/rows"
		jq -se '[.[] | select(.role == "traced")] | length == 3 and
			all(.[]; .pc_hit_ratio > 0.95 and .blk_read_reqs == 0)' "$T/rows" \
			>/dev/null && return 0
		sleep 1 # let whatever dropped the cache be done before the next try
	done
	die "warm row: $(cat "$T/rows")"
}

bench_trace_reuses_probes_per_rep() {
	setup_fs
	"$IOSTRAT" bench --help >/dev/null 2>&1 || skip "no iostrat bench"
	printf '[global]\nscale=0.001\ncache=cold\nreps=3\nmax_reps=3\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\n' >"$T/p.ini"
	(cd "$T/m" && "$IOSTRAT" bench "$T/p.ini" --out "$T/m/res" -D trace=1 \
		-D trace_reps=2 --data "$T/m/data" >"$T/out" 2>&1) ||
		die "bench: $(tail -n 3 "$T/out")"
	# traced, reset between repetitions, counted for the inputs only
	bad=$(jq -sr '[.[] | select(.role == "traced")] |
		if length != 4 then "expected 4 traced rows, got \(length)" else .[]
		| (.bytes_in / 4096) as $p
		| select(.traced == true and (.pc_misses - $p | fabs) <= $p * 0.05 + 4
			and (.pc_hit_ratio | type) == "number" and .pc_hit_ratio < 0.05
			and .mmap_pages == 0 | not)
		| "\(.strategy) rep \(.rep): traced \(.traced), misses \(.pc_misses) of \($p) pages, hit ratio \(.pc_hit_ratio), mmap \(.mmap_pages)"
		end' "$T/m/res/results.jsonl") || die "rows unreadable: $bad"
	[ -z "$bad" ] || die "$bad"
	"$IOSTRAT" report "$T/m/res" >"$T/report" || die "report failed"
	grep -q 'kernel view' "$T/report" || die "no kernel view in the report: $(cat "$T/report")"
	grep -A6 'kernel view' "$T/report" | grep -q 'big/stream' || die "no stream row: $(cat "$T/report")"
}

# trace=1: the timed repetitions run without the probes (no probe
# columns), the traced ones (role traced, one a round from round 1) with
# them; the report and run's summary give the probes' cost.
timed_rows_are_untraced_with_trace() {
	need_probes
	printf '[global]\nscale=0.0005\ncache=asis\nreps=3\ntrace=1\ntrace_reps=2\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\n' >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/res" --data "$T/data" >"$T/out" 2>&1 ||
		die "bench: $(tail -n 3 "$T/out")"
	jq -se '([.[] | select(.role == "timed")] | length == 6 and all(.[]; .traced == false
			and .seq_pct == null and .pc_hit_ratio == null and .lat_p50_us == null))
		and ([.[] | select(.role == "traced")] | length == 4 and all(.[]; .traced == true
			and .seq_pct != null and .pc_hit_ratio != null and .round <= 2))' \
		"$T/res/results.jsonl" >/dev/null || die "rows: $(cat "$T/res/results.jsonl")"
	"$IOSTRAT" report "$T/res" >"$T/report" || die "report failed"
	grep -A4 "probes' cost" "$T/report" | grep -q 'big/stream' ||
		die "no probes' cost: $(cat "$T/report")"
	"$IOSTRAT" gen "$T/in" --files 2 --lines 1000 --width 50 >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out2" --reps 2 --cache asis --trace >"$T/sum" ||
		die "run --trace failed"
	grep -q 'n=2,' "$T/sum" || die "the summary counts the traced rep: $(cat "$T/sum")"
	grep -q 'probes   traced reps 1, 2, 3 .*x the untraced (range of the pairs [0-9.]*-[0-9.]*)' "$T/sum" ||
		die "no probes' line: $(cat "$T/sum")"
}

# Rows that --trace (or trace=1) asked for and did not get say why in
# trace_error, the warning's reason: every attach point withheld here, or a
# build without probes.
untraced_rows_say_why() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 100 --width 50 >/dev/null
	IOSTRAT_TRACE_WITHOUT=rq_issue,rq_complete,reads,add,map_pages,fault,sync_ra,async_ra,ra_order,ra_unbounded,fork,rl_insert,rl_issue,rl_complete,uring_submit,uring_complete,rl_fork \
		"$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 2 --cache asis --trace --json \
		>"$T/rows" 2>"$T/err" || die "run failed: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "not one warning: $(cat "$T/err")"
	why=$(sed -n 's/^iostrat: warning: --trace: \(.*\); running untraced (traced=false)$/\1/p' "$T/err")
	[ -n "$why" ] || die "no reason in the warning: $(cat "$T/err")"
	# 2 timed repetitions (untraced by design) and the traced one that could not be
	# (probes that failed once are not tried again: no 2nd and 3rd)
	jq -se --arg why "$why" 'length == 3 and all(.[]; .traced == false) and
		([.[] | select(.role == "traced")] | length == 1 and .[0].trace_error == $why)' \
		"$T/rows" >/dev/null ||
		die "rows: $(cat "$T/rows"); warning: $(cat "$T/err")"
}

unprivileged_run_warns_once() {
	need_probes # as root: else the warning is why they do not load at all
	need_cmd setpriv
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	chmod 755 "$T"
	"$IOSTRAT" gen "$T/in" --files 2 --lines 100 --width 50 >/dev/null
	mkdir "$T/out" && chmod 777 "$T/out"
	local as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups
			 --inh-caps=-all)
	"${as_nobody[@]}" true 2>/dev/null || skip "setpriv cannot drop to nobody"
	"${as_nobody[@]}" "$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 2 \
		--cache asis --trace --json >"$T/rows" 2>"$T/err" || die "run failed: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "expected one warning: $(cat "$T/err")"
	grep -q 'warning: --trace: .*not permitted.*traced=false' "$T/err" ||
		die "unclear warning: $(cat "$T/err")"
	jq -se 'length == 3 and all(.[]; .traced == false and has("pc_hits") and .pc_hits == null)' "$T/rows" >/dev/null ||
		die "rows: $(cat "$T/rows")"
	expect_fail 'not permitted' "${as_nobody[@]}" "$IOSTRAT" trace -- true
}

t cold_sequential_read_is_sequential
t fio_random_reads_are_random
t cold_then_warm_hits_match_cachestat
t every_attach_mode_loads
t rows_name_each_figures_source
t missing_attach_point_costs_only_its_figures
t missing_tracefs_is_mounted_for_iostrat_only
t tracefs_is_mounted_in_a_chroot_too
t tracefs_on_a_chroots_own_root_is_not_mounted
t fallback_from_the_asked_attach_mode_is_said
t trace_mode_naming_no_source_is_refused
t timed_rows_are_untraced_with_trace
t trace_checks_its_arguments_before_running
t trace_reports_and_passes_exit_status
t trace_options_end_at_the_command
t run_trace_rows_carry_figures
t bench_trace_reuses_probes_per_rep
t untraced_rows_say_why
t unprivileged_run_warns_once
