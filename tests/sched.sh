#!/usr/bin/env bash
# iostrat sched on a loop device backing an ext4 image (never the real
# disk): each scheduler switched, verified, recorded and restored; SIGTERM
# and SIGKILL restore; a profile under two schedulers compared; errors
# before anything changes.
. "$(dirname "$0")/lib.sh"

# saved-state files go here, not /run/iostrat: tests run in parallel
export IOSTRAT_RUN_DIR

setup() {
	IOSTRAT_RUN_DIR=$T/run
	with_loop_ext4 "$T/mnt" 96
	D=$(basename "$LOOPDEV")
	Q=/sys/block/$D/queue
	[ -f "$Q/scheduler" ] || skip "$D has no scheduler file"
	# -D reps/max_reps pin the repetitions; cache asis: no global drop_caches
	cat >"$T/p.ini" <<-EOF
	[global]
	scale=0.001
	cache=asis
	reps=${1:-2}
	max_reps=${1:-2}

	[t]
	strategy=stream,buffer
	dataset=big
	work=0
	EOF
}
active() { sed 's/.*\[\(.*\)\].*/\1/' "$Q/scheduler"; }
avail() { tr -d '[]' <"$Q/scheduler"; }
has() { avail | tr ' ' '\n' | grep -qx "$1"; }
# the queue settings that must come back, tunables of the scheduler included
snapshot() {
	echo "sched=$(active)"
	for f in read_ahead_kb nr_requests wbt_lat_usec; do [ -f "$Q/$f" ] && echo "$f=$(cat "$Q/$f")"; done
	for f in "$Q"/iosched/*; do [ -f "$f" ] && echo "$(basename "$f")=$(cat "$f")"; done
	true
}
S() { "$IOSTRAT" sched --device "$D" --data "$T/mnt/data" "$@"; }
# wait until the disk's scheduler is $1 (sched has applied a setting)
wait_for() { for _ in $(seq 1 200); do [ "$(active)" = "$1" ] && return 0; sleep 0.05; done; die "scheduler never became $1"; }

each_scheduler_switched_verified_restored() {
	setup
	# a non-default starting point, so restoring is visible
	has mq-deadline || skip "no mq-deadline"
	echo mq-deadline >"$Q/scheduler"
	echo 321 >"$Q/iosched/read_expire"
	echo 300 >"$Q/read_ahead_kb"
	before=$(snapshot)
	list=$(avail | xargs | tr ' ' ',')
	S --schedulers "$list" --set read_ahead_kb=512 --out "$T/res" "$T/p.ini" >"$T/out" 2>"$T/err" || die "sched failed: $(tail -3 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not restored: $(diff <(echo "$before") <(snapshot) | tr '\n' ' ')"
	[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.json" ] || die "state file left"
	for s in $(avail); do
		grep -q "iostrat sched: $D: $s,read_ahead_kb=512 (verified" "$T/err" || die "$s not verified"
		f="$T/res/$s,read_ahead_kb=512/results.jsonl"
		[ "$(wc -l <"$f")" -eq 4 ] || die "$s: $(wc -l <"$f") rows"
		[ "$(grep -c "\"scheduler\":\"$s\"" "$f")" -eq 4 ] || die "$s: scheduler not in every row"
		[ "$(grep -c '"read_ahead_kb":512' "$f")" -eq 4 ] || die "$s: read_ahead_kb not in every row"
		grep -q '"iosched_tunables":' "$f"
		head -1 "$T/res/$s,read_ahead_kb=512/results.csv" | grep -q 'sched_setting,iosched_tunables'
	done
	grep -q "\"iosched/read_expire\": \"$(cat "$Q/iosched/read_expire")\"" "$T/res/sched.json" || die "original not in sched.json"
	if has bfq; then grep -q 'slice_idle=' "$T/res/bfq,read_ahead_kb=512/results.jsonl"; fi
}

two_schedulers_compared() {
	setup 3
	has mq-deadline && has bfq || skip "needs mq-deadline and bfq"
	# a stop=ci profile runs too: the pinned counts (max_reps 1, then 2,
	# under the 6 rounds of its cell) come with stop=rsd
	sed -i 's/^cache=asis$/&\nstop=ci/' "$T/p.ini"
	grep -qx 'stop=ci' "$T/p.ini" || die "no stop=ci in p.ini"
	before=$(snapshot)
	S --schedulers mq-deadline,bfq --interleave --reps 2 --out "$T/res" "$T/p.ini" >"$T/out" 2>"$T/err" || die "sched failed: $(tail -3 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not restored"
	# interleaved: round 1 of both before round 2 of either
	grep -o 'round [12]/2: [a-z-]*' "$T/err" | tr '\n' ' ' | grep -q 'round 1/2: mq-deadline round 1/2: bfq round 2/2: mq-deadline round 2/2: bfq' || die "not interleaved: $(grep round "$T/err")"
	for s in mq-deadline bfq; do
		[ "$(grep -c '"rep":[12],' "$T/res/$s/results.jsonl")" -eq 4 ] || die "$s: reps"
	done
	grep -q "mq-deadline" "$T/out" && grep -q "bfq" "$T/out" || die "no comparison: $(cat "$T/out")"
	# with iostrat compare built in: its table of medians and ratios
	if "$IOSTRAT" compare --help >/dev/null 2>&1; then
		grep -q 'B/A' "$T/out" || die "compare did not run: $(head -3 "$T/out")"
	fi
}

# A loop disk on mq-deadline with a read_expire of its own (324, not the
# kernel's 500), and its state then in $before.
mq_deadline_at_324() {
	setup 1
	has mq-deadline && has bfq || skip "needs mq-deadline and bfq"
	echo mq-deadline >"$Q/scheduler"
	echo 324 >"$Q/iosched/read_expire"
	before=$(snapshot)
}

# Every round of a setting runs under the same tunables: a switch back to
# mq-deadline after bfq would reset read_expire to the kernel's default,
# so round 1 (the device's own 324) and rounds 2-3 (500) used to differ.
interleaved_rounds_keep_the_first_rounds_tunables() {
	mq_deadline_at_324
	S --schedulers mq-deadline,bfq --interleave --reps 3 --out "$T/res" "$T/p.ini" >"$T/out" 2>"$T/err" || die "sched failed: $(tail -3 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not restored: $(diff <(echo "$before") <(snapshot) | tr '\n' ' ')"
	for s in mq-deadline bfq; do
		f=$T/res/$s/results.jsonl
		[ "$(wc -l <"$f")" -eq 6 ] || die "$s: $(wc -l <"$f") rows, want 6"
		n=$(grep -o '"iosched_tunables":"[^"]*"' "$f" | sort -u | wc -l)
		[ "$n" -eq 1 ] || die "$s: rounds ran under $n sets of tunables: $(grep -o '"rep":[0-9]*\|read_expire=[0-9]*\|slice_idle=[0-9]*' "$f" | tr '\n' ' ')"
	done
	[ "$(grep -o 'read_expire=[0-9]*' "$T/res/mq-deadline/results.jsonl" | sort -u)" = read_expire=324 ] ||
		die "mq-deadline did not keep the device's read_expire=324"
	grep -q 'iostrat sched: .*: mq-deadline (verified; .*read_expire=324' "$T/err" || die "tunables not stated: $(grep verified "$T/err")"
}

# Settings of one scheduler (crossed with --set) share its tunables too:
# mq-deadline,read_ahead_kb=256 runs after bfq, whose switch back used to
# give it read_expire=500 where mq-deadline,read_ahead_kb=128 had 324.
settings_of_one_scheduler_share_its_tunables() {
	mq_deadline_at_324
	S --schedulers mq-deadline,bfq --set read_ahead_kb=128,256 --out "$T/res" "$T/p.ini" >"$T/out" 2>"$T/err" || die "sched failed: $(tail -3 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not restored"
	for ra in 128 256; do
		f=$T/res/mq-deadline,read_ahead_kb=$ra/results.jsonl
		[ "$(grep -o 'read_expire=[0-9]*' "$f" | sort -u)" = read_expire=324 ] ||
			die "mq-deadline,read_ahead_kb=$ra: $(grep -o 'read_expire=[0-9]*' "$f" | sort -u | tr '\n' ' ')"
	done
}

# Ctrl-C (SIGINT to the whole process group) in round 2 of an interleaved
# run, bfq active: the disk is left on mq-deadline with read_expire=324,
# as it started, not with the default a switch back would give.
ctrl_c_mid_interleave_leaves_scheduler_and_tunables_as_found() {
	mq_deadline_at_324
	setsid "$IOSTRAT" sched --device "$D" --data "$T/mnt/data" --schedulers mq-deadline,bfq --interleave --reps 50 \
		--out "$T/res" "$T/p.ini" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for bfq
	for _ in $(seq 1 400); do grep -q 'round 2/50: bfq' "$T/err" && break; sleep 0.05; done
	grep -q 'round 2/50: bfq' "$T/err" || die "round 2 never came: $(tail -2 "$T/err")"
	kill -INT -- "-$pid"
	rc=0; wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || die "rc $rc: $(tail -2 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not as found after Ctrl-C: $(diff <(echo "$before") <(snapshot) | tr '\n' ' ')"
	[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.json" ] || die "state file left"
}

sigterm_restores() { # [N]: N signals in a row; sched never ends before it restored
	local n=${1:-1}
	setup 400
	has bfq || skip "no bfq"
	before=$(snapshot)
	"$IOSTRAT" sched --device "$D" --data "$T/mnt/data" --schedulers bfq --out "$T/res" "$T/p.ini" >/dev/null 2>"$T/err" &
	pid=$!
	wait_for bfq
	sleep 0.5 # into the measuring, past the setting
	# a second iostrat meanwhile must leave the live run's settings alone
	"$IOSTRAT" bench --help >/dev/null
	[ "$(active)" = bfq ] || die "a live run's settings were restored under it"
	for _ in $(seq "$n"); do kill -TERM "$pid"; done
	rc=0; wait "$pid" || rc=$?
	[ "$rc" -eq 143 ] || die "rc $rc: $(tail -2 "$T/err")"
	[ "$(snapshot)" = "$before" ] || die "not restored after SIGTERM"
	[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.json" ] || die "state file left"
	grep -q "restored" "$T/err"
	# the rows it kept carry the setting too
	f=$T/res/bfq/results.jsonl
	[ ! -s "$f" ] || [ "$(grep -c '"sched_setting":"bfq"' "$f")" -eq "$(wc -l <"$f")" ] || die "kept rows lack the setting"
}

# SIGKILL the whole run (sched and its bench), then a new iostrat `$1`
# must restore: bench and sched both check at start.
sigkill_then_next_start_restores() {
	setup 400
	has kyber || skip "no kyber"
	before=$(snapshot)
	for next in bench sched; do
		setsid "$IOSTRAT" sched --device "$D" --data "$T/mnt/data" --schedulers kyber --set read_ahead_kb=64 \
			--out "$T/res-$next" "$T/p.ini" >/dev/null 2>&1 &
		pid=$!
		wait_for kyber
		sleep 0.3 # into the measuring, past the setting
		kill -KILL -- "-$pid"
		wait "$pid" 2>/dev/null || true
		[ "$(active)" = kyber ] && [ "$(cat "$Q/read_ahead_kb")" = 64 ] || die "SIGKILL left nothing to restore?"
		[ -e "$IOSTRAT_RUN_DIR/sched-$D.json" ] || die "no saved state file"
		"$IOSTRAT" "$next" --help >/dev/null 2>"$T/err"
		grep -q "$D: restored the queue settings a killed iostrat" "$T/err" || die "$next: no restore message: $(cat "$T/err")"
		[ "$(snapshot)" = "$before" ] || die "$next did not restore: $(snapshot | head -3 | tr '\n' ' ')"
		[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.json" ] || die "state file left"
		# and only once
		"$IOSTRAT" bench --help >/dev/null 2>"$T/err"; [ ! -s "$T/err" ]
	done
}

# Rows get the setting as they are written, not in a rewrite after the
# bench: a SIGKILL mid-run leaves rows that already carry it.
rows_carry_the_setting_as_written() {
	setup 400
	has bfq || skip "no bfq"
	setsid "$IOSTRAT" sched --device "$D" --data "$T/mnt/data" --schedulers bfq \
		--out "$T/res" "$T/p.ini" >/dev/null 2>"$T/err" &
	pid=$!
	f=$T/res/bfq/results.jsonl
	for _ in $(seq 1 400); do [ -s "$f" ] && break; sleep 0.05; done
	# the group may be gone already (sched ended): then its stderr says why
	kill -KILL -- "-$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# its repetition's child too, before the disk is restored and unmounted
	wait_gone "sched --device $D" 10 || die "sched's processes outlived SIGKILL"
	"$IOSTRAT" bench --help >/dev/null 2>&1 # restores the disk
	[ -s "$f" ] || die "no row written in 20 s: $(tail -n 3 "$T/err")"
	[ "$(grep -c '"sched_setting":"bfq"' "$f")" -eq "$(grep -c . "$f")" ] ||
		die "rows written without the setting: $(grep -vc sched_setting "$f") of $(grep -c . "$f")"
}

errors_before_changes() {
	setup
	before=$(snapshot)
	expect_fail "foo: unknown scheduler for $D \(available: " S --schedulers none,foo --out "$T/r1" "$T/p.ini"
	expect_fail "^iostrat: nosuchdisk9: no such block device" "$IOSTRAT" sched --device nosuchdisk9 --data "$T/mnt/data" "$T/p.ini"
	expect_fail -- '--set max_sectors_kb: not a setting' S --set max_sectors_kb=64 "$T/p.ini"
	expect_fail -- '--set read_ahead_kb: bad value .x.' S --set read_ahead_kb=128,x "$T/p.ini"
	expect_fail "is on .*, not $D" "$IOSTRAT" sched --device "$D" --data "$T/elsewhere" --schedulers none "$T/p.ini"
	expect_fail 'nope.ini: profile' S --schedulers none "$T/nope.ini"
	# the profile is checked before the scheduler is touched
	printf '[a\nstrategy=stream\n' >"$T/bad1.ini"
	expect_fail 'bad1.ini:1: not a \[section\]' S --schedulers none --out "$T/r2" "$T/bad1.ini"
	printf '[a]\nstrategy=zzz\ndataset=big\n' >"$T/bad2.ini"
	expect_fail "unknown strategy 'zzz'" S --schedulers none --out "$T/r3" "$T/bad2.ini"
	printf '[a]\nstrategy=stream\ndataset=%s\n' "$T/nothere" >"$T/bad3.ini"
	expect_fail "nothere: data set: No such file.*" S --schedulers none --out "$T/r4" "$T/bad3.ini"
	if [ -e /sys/block/zram0 ] && [ ! -e /sys/block/zram0/queue/scheduler ]; then
		expect_fail 'zram0: has no I/O scheduler to choose' "$IOSTRAT" sched --device zram0 --data "$T/mnt/data" "$T/p.ini"
	fi
	chmod 755 "$T"; chmod -R a+rwX "$T/mnt"
	if command -v setpriv >/dev/null; then
		expect_fail "$D: changing the I/O scheduler needs root" \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSTRAT" sched --device "$D" --data "$T/mnt/data" --schedulers bfq "$T/p.ini"
	fi
	[ "$(snapshot)" = "$before" ] || die "something changed"
	[ ! -e "$T/r1" ] && [ ! -e "$T/r2" ] && [ ! -e "$IOSTRAT_RUN_DIR/sched-$D.json" ]
}

default_device_is_the_disk_under_data() {
	setup
	"$IOSTRAT" sched --data "$T/mnt/data" --out "$T/res" "$T/p.ini" >/dev/null 2>"$T/err" || die "$(tail -2 "$T/err")"
	grep -q "iostrat sched: device $D (the disk under $T/mnt/data: $D, via loop)" "$T/err" || die "$(head -2 "$T/err")"
	[ -s "$T/res/$(active)/results.jsonl" ]
}

# sched stopped by a signal says why in one line, and leaves no lock file.
stopped_says_why_and_leaves_no_lock() {
	sigterm_restores 1
	grep -q "^iostrat: sched: stopped early by signal 15 (Terminated); finished runs kept in $T/res" "$T/err" ||
		die "does not say why: $(cat "$T/err")"
	[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.lock" ] || die "lock file left"
}

# A sched that ends by itself removes its lock file too.
ended_leaves_no_lock() {
	setup 1
	S --schedulers "$(active)" --out "$T/res" "$T/p.ini" >/dev/null 2>"$T/err" || die "sched failed: $(tail -3 "$T/err")"
	[ ! -e "$IOSTRAT_RUN_DIR/sched-$D.lock" ] || die "lock file left: $(ls "$IOSTRAT_RUN_DIR")"
}

t each_scheduler_switched_verified_restored
t two_schedulers_interleaved_and_compared two_schedulers_compared
t interleaved_rounds_keep_the_first_rounds_tunables
t settings_of_one_scheduler_share_its_tunables
t ctrl_c_mid_interleave_leaves_scheduler_and_tunables_as_found
t sigterm_restores
t three_sigterms_in_a_row_still_restore sigterm_restores 3
t sigkill_then_next_bench_or_sched_restores sigkill_then_next_start_restores
t rows_carry_the_setting_as_written
t errors_before_anything_changes errors_before_changes
t default_device_is_the_disk_under_data
t stopped_early_says_why_and_leaves_no_lock stopped_says_why_and_leaves_no_lock
t a_sched_that_ends_leaves_no_lock_file ended_leaves_no_lock
