#!/usr/bin/env bash
# The reboot queue: its systemd unit, a simulated loop of boots with the
# reboot replaced by a no-op, crash safety, pausing, locking, kernels.
. "$(dirname "$0")/lib.sh"

Q() { "$IOSTRAT" queue --state-dir "$T/s" "$@"; }
# One "boot": what the service runs, rebooting by appending to a file.
boot() { Q run-next --settle 0 --reboot-cmd "echo reboot >>'$T/reboots'" "$@"; }
reboots() { [ -f "$T/reboots" ] && wc -l <"$T/reboots" || echo 0; }
# "STATE ATTEMPTS" of entry $1, or "gone"
entry() { Q list | awk -v id="$1" '$1==id {print $2, $3; f=1} END {if (!f) print "gone"}'; }
hist() { grep -c -- "$1" "$T/s/history.jsonl" || true; }
# results.log only grows: the previous copy is a prefix of the new one
log_grew() {
	local n; n=$(stat -c %s "$T/log.prev" 2>/dev/null || echo 0)
	cmp -s -n "$n" "$T/log.prev" "$T/s/results.log" 2>/dev/null || [ "$n" -eq 0 ] || die "results.log lost or rewrote earlier output"
	cp "$T/s/results.log" "$T/log.prev"
}

unit_verifies() {
	need_cmd systemd-analyze
	sed "s|/usr/local/bin/iostrat|$IOSTRAT|" "$TOP/systemd/iostrat-queue.service" >"$T/iostrat-queue.service"
	out=$(systemd-analyze verify "$T/iostrat-queue.service" 2>&1) || die "verify failed: $out"
	[ -z "$out" ] || die "verify warned: $out"
	grep -q '^Type=oneshot' "$T/iostrat-queue.service"
	grep -q '^ExecStart=.* queue run-next' "$T/iostrat-queue.service"
}

install_queue_into_destdir() {
	# The build's own flags: BUILD=build-asan without SANITIZE=1 relinked
	# the sanitizer build without the sanitizer, for every test after this.
	local flavour=()
	case $BUILD in
	build-asan) flavour=(SANITIZE=1) ;;
	build-tsan) flavour=(TSAN=1) ;;
	esac
	make -s -C "$TOP" BUILD="$BUILD" "${flavour[@]}" install-queue DESTDIR="$T/root" PREFIX=/usr >/dev/null
	u="$T/root/etc/systemd/system/iostrat-queue.service"
	[ -x "$T/root/usr/bin/iostrat" ] || die "binary not installed"
	grep -q '^ExecStart=/usr/bin/iostrat queue run-next' "$u" || die "unit not installed with PREFIX"
	make -s -C "$TOP" BUILD="$BUILD" "${flavour[@]}" uninstall-queue DESTDIR="$T/root" >/dev/null
	[ ! -e "$u" ] || die "unit not removed"
}

# Three entries, five boots: A succeeds; B is cut off (SIGKILL of the
# whole run, as a power cut) on every attempt; C exits 3.
five_boots() {
	Q add --name A -- sh -c 'echo A-out' >/dev/null
	Q add --name B -- sh -c 'echo "B-start-$IOSTRAT_QUEUE_ATTEMPT"; kill -9 $PPID; kill -9 $$' >/dev/null
	Q add --name C -- sh -c 'echo C-out; exit 3' >/dev/null
	# boot 1: A runs and is done; two remain, so it reboots
	boot 2>/dev/null || die "boot 1 failed"
	[ "$(entry 1)" = gone ] && [ "$(entry 2)" = "queued 0" ] && [ "$(entry 3)" = "queued 0" ] || die "boot 1: $(Q list)"
	[ "$(reboots)" -eq 1 ] || die "boot 1: no reboot"
	[ "$(hist '"id":1,"name":"A".*"outcome":"done","status":"done"')" -eq 1 ] || die "boot 1: A not recorded done"
	grep -q '^A-out$' "$T/s/results.log"; log_grew
	# boot 2: B kills run-next mid-run; it stays marked running
	rc=0; boot 2>/dev/null || rc=$?
	[ "$rc" -eq 137 ] || die "boot 2: run-next was not killed (rc $rc)"
	[ "$(entry 2)" = "running 1" ] && [ "$(entry 3)" = "queued 0" ] || die "boot 2: $(Q list)"
	[ "$(reboots)" -eq 1 ] || die "boot 2 rebooted"
	grep -q '^B-start-1$' "$T/s/results.log"; log_grew
	# boot 3: found running = failed attempt 1; retried, cut off again
	rc=0; boot 2>/dev/null || rc=$?
	[ "$rc" -eq 137 ] && [ "$(entry 2)" = "running 2" ] || die "boot 3: rc $rc, $(Q list)"
	[ "$(hist '"id":2,.*"attempt":1,"outcome":"interrupted","status":"retry"')" -eq 1 ] || die "boot 3: attempt 1 not recorded"
	grep -q '^B-start-2$' "$T/s/results.log"; log_grew
	# boot 4: B given up after 2 attempts, C runs and fails; queue empty, no reboot
	boot 2>/dev/null || die "boot 4 failed"
	[ "$(entry 2)" = gone ] && [ "$(entry 3)" = gone ] || die "boot 4: $(Q list)"
	[ "$(hist '"id":2,.*"attempt":2,"outcome":"interrupted","status":"failed"')" -eq 1 ] || die "boot 4: B attempt 2"
	[ "$(hist '"id":2,.*"outcome":"gave-up","status":"failed"')" -eq 1 ] || die "boot 4: B not given up"
	[ "$(hist '"id":3,.*"attempt":1,"outcome":"failed","status":"failed","detail":"exit 3"')" -eq 1 ] || die "boot 4: C not failed"
	[ "$(reboots)" -eq 1 ] || die "boot 4 rebooted with an empty queue"
	grep -q '^C-out$' "$T/s/results.log"; log_grew
	# boot 5: nothing to do, nothing changes
	n=$(wc -l <"$T/s/history.jsonl")
	boot 2>/dev/null || die "boot 5 failed"
	[ "$(reboots)" -eq 1 ] && [ "$(wc -l <"$T/s/history.jsonl")" -eq "$n" ] || die "boot 5 did something"
	log_grew
	[ "$(grep -c '^A-out$\|^B-start-1$\|^B-start-2$\|^C-out$' "$T/s/results.log")" -eq 4 ]
}

cut_off_once_then_retried() {
	Q add --name flaky -- sh -c '[ -e "$0" ] && echo second-ok && exit 0; : >"$0"; kill -9 $PPID $$' "$T/mark" >/dev/null
	Q add --name after -- true >/dev/null
	rc=0; boot 2>/dev/null || rc=$?; [ "$rc" -eq 137 ] || die "not cut off"
	boot 2>/dev/null
	[ "$(entry 1)" = gone ] && [ "$(entry 2)" = "queued 0" ] || die "$(Q list)"
	[ "$(hist '"id":1,.*"attempt":2,"outcome":"done"')" -eq 1 ] || die "retry not recorded done"
	[ "$(reboots)" -eq 1 ] && grep -q '^second-ok$' "$T/s/results.log"
}

watchdog_kills_hung_command() {
	Q add --name hung -- sh -c 'echo started; sleep 60' >/dev/null
	Q add --name next -- true >/dev/null
	boot --timeout 1 2>/dev/null
	[ "$(entry 1)" = "queued 1" ] || die "after timeout: $(Q list)"
	[ "$(hist '"outcome":"timeout","status":"retry"')" -eq 1 ] && [ "$(reboots)" -eq 1 ] || die "timeout not retried with a reboot"
	boot --timeout 1 2>/dev/null
	[ "$(entry 1)" = gone ] && [ "$(hist '"outcome":"timeout","status":"failed"')" -eq 1 ] || die "not given up: $(Q list)"
	grep -q 'killed by the watchdog' "$T/s/results.log"
}

# queue add --timeout: the entry's own watchdog, over run-next's (a quick
# entry killed at 1 s while run-next's is an hour; 0 = none while
# run-next's is 1 s)
entry_timeout_overrides_run_nexts() {
	Q add --name quick --timeout 1 -- sh -c 'sleep 60' >/dev/null
	Q add --name free --timeout 0 -- sh -c 'sleep 2; echo slept-through' >/dev/null
	boot --timeout 3600 2>/dev/null
	[ "$(hist '"id":1,.*"outcome":"timeout"')" -eq 1 ] || die "entry 1 not killed at its own 1 s: $(cat "$T/s/history.jsonl")"
	Q remove 1 >/dev/null
	boot --timeout 1 2>/dev/null
	[ "$(hist '"id":2,.*"outcome":"done"')" -eq 1 ] || die "entry 2 killed by run-next's 1 s: $(cat "$T/s/history.jsonl")"
	grep -q '^slept-through$' "$T/s/results.log"
	expect_fail "--timeout: bad value 'x'" "$IOSTRAT" queue --state-dir "$T/s" add --timeout x -- true
}

empty_queue_never_reboots() {
	boot 2>/dev/null
	Q add -- true >/dev/null; Q remove 1
	boot 2>/dev/null
	[ "$(reboots)" -eq 0 ]
}

pause_stops_the_loop() {
	Q add -- echo one >/dev/null; Q add -- echo two >/dev/null
	Q pause >/dev/null
	[ -e "$T/s/paused" ] && Q status | grep -q PAUSED
	boot 2>/dev/null
	[ "$(entry 1)" = "queued 0" ] && [ "$(reboots)" -eq 0 ] || die "ran while paused"
	Q resume >/dev/null
	boot 2>/dev/null
	[ "$(entry 1)" = gone ] && [ "$(reboots)" -eq 1 ]
	# pausing during the settle time stops it too
	( sleep 1; Q pause >/dev/null ) & # 1 s into the 30 s settle
	boot --settle 30 2>/dev/null
	wait
	[ "$(entry 2)" = "queued 0" ] && [ "$(reboots)" -eq 1 ]
}

# A corrupt entry is named with its file and what is wrong with it, by
# list and status (a warning) and by run-next (the error that stops the
# loop, without a reboot).
corrupt_entry_is_named_with_its_reason() {
	Q add -- true >/dev/null; Q add -- true >/dev/null
	printf '{"id":1,' >"$T/s/queue/000001.json"
	printf '{"id":2}\n' >"$T/s/queue/000002.json"
	Q list >"$T/out" 2>"$T/err"
	grep -q "s/queue/000001.json: queue entry 1 is corrupt (line 1: .*); remove it with iostrat queue remove 1" "$T/err" ||
		die "entry 1 not named: $(cat "$T/err")"
	grep -q 's/queue/000002.json: queue entry 2 is corrupt (no "argv" array)' "$T/err" ||
		die "entry 2 not named: $(cat "$T/err")"
	Q status 2>"$T/err" | grep -q 'next: *#1 corrupt' || die "status: no corrupt next"
	grep -q '000001.json: queue entry 1 is corrupt (line 1' "$T/err" || die "status: $(cat "$T/err")"
	expect_fail '000001.json: queue entry 1 is unreadable \(line 1: .*\): the loop stops' boot
	[ "$(reboots)" -eq 0 ] || die "rebooted past a corrupt entry"
}

concurrent_add_loses_nothing() {
	Q add --name slow -- sleep 2 >/dev/null
	boot 2>/dev/null &
	bootpid=$!
	pids=()
	for w in 1 2 3; do
		( for i in $(seq 1 15); do Q add --name "w$w-$i" -- true >/dev/null || exit 1; done ) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || die "an add failed"; done
	wait "$bootpid" || die "run-next failed"
	[ "$(hist '"name":"slow".*"outcome":"done"')" -eq 1 ] || die "slow not done"
	[ "$(Q list | awk 'NR>1' | wc -l)" -eq 45 ] || die "lost entries: $(Q list | wc -l)"
	[ "$(Q list | awk 'NR>1 {print $1}' | sort -u | wc -l)" -eq 45 ] || die "duplicate IDs"
	for w in 1 2 3; do for i in $(seq 1 15); do Q list | grep -q " w$w-$i " || die "w$w-$i lost"; done; done
}

one_run_next_at_a_time() {
	Q add -- sleep 3 >/dev/null; Q add -- true >/dev/null
	boot 2>/dev/null &
	for _ in $(seq 1 100); do Q status | grep -q 'running now' && break; sleep 0.05; done
	expect_fail 'another .iostrat queue run-next. is running' boot
	expect_fail 'it is running now' Q remove 1
	wait
}

failed_reboot_is_reported() {
	Q add -- true >/dev/null; Q add -- true >/dev/null
	rc=0; Q run-next --settle 0 --reboot-cmd false 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] && grep -q "^iostrat: --reboot-cmd 'false': failed" "$T/err" || die "rc $rc: $(cat "$T/err")"
	[ "$(entry 1)" = gone ] && [ "$(hist '"outcome":"done"')" -eq 1 ]
}

bad_usage() {
	expect_fail 'give the command after --' Q add --name x
	expect_fail 'unknown subcommand' Q frobnicate
	expect_fail 'no such entry' Q remove 7
	expect_fail 'give one entry ID' Q remove abc
	expect_fail -- '--settle: bad value .x.' Q run-next --settle x
	expect_fail -- '--max-attempts: bad value .0.' Q run-next --max-attempts 0
	expect_fail -- '--bogus: unknown option' Q list --bogus
	# a newline would break `list` and forge "=== " lines in results.log
	expect_fail 'name: control character 0x0a' Q add --name $'a\n=== forged' -- true
	expect_fail 'name: control character 0x1b' Q add --name $'a\e[2J' -- true
	expect_fail 'name: control character 0x0a' Q add -- $'/bin/tr\nue' x
	expect_fail 'name: empty' Q add --name '' -- true
	expect_fail -- "--reboot-cmd: empty" Q run-next --settle 0 --reboot-cmd ''
	Q add --help | grep -q '^  add \[--name N\]' || die "queue add --help shows no usage"
	[ ! -e "$T/s/queue" ] || [ -z "$(ls "$T/s/queue")" ]
}

# The directory an entry was added from is gone: it is not run elsewhere
# (it said "running in /" and ran in run-next's own directory).
vanished_directory_is_not_run_elsewhere() {
	mkdir "$T/gone"
	(cd "$T/gone" && Q add --name orphan -- touch made-here) >/dev/null
	rmdir "$T/gone"
	(cd "$T" && boot) >/dev/null 2>&1 || true
	[ ! -e "$T/made-here" ] && [ ! -e "/made-here" ] || die "ran in another directory"
	grep -q "$T/gone: cannot enter the directory the entry was added from (No such file or directory): not run" \
		"$T/s/results.log" || die "no reason in results.log: $(tail -n 3 "$T/s/results.log")"
	[ "$(hist '"outcome":"failed"')" -eq 1 ] || die "not recorded failed: $(cat "$T/s/history.jsonl")"
	[ "$(hist '"detail":"exit 126"')" -eq 1 ] || die "not exit 126: $(cat "$T/s/history.jsonl")"
}

kernel_without_grub() {
	export IOSTRAT_GRUB_CFG="$T/no-grub.cfg"
	expect_fail 'cannot choose the next boot.s kernel: GRUB is not the boot loader' Q add --kernel 9.9.9 -- true
	[ "$(Q list | wc -l)" -eq 1 ] || die "added anyway"
}

# A Debian-style grub.cfg; grub-reboot replaced by a stub that logs.
kernel_switch_through_grub() {
	cat >"$T/grub.cfg" <<-EOF
	menuentry 'Debian GNU/Linux' --class debian \$menuentry_id_option 'gnulinux-simple-u1' {
		linux	/boot/vmlinuz-$(uname -r) root=UUID=u1 ro quiet
	}
	submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-u1' {
		menuentry 'Debian GNU/Linux, with Linux 6.1.0-9-amd64' --class debian \$menuentry_id_option 'gnulinux-6.1.0-9-amd64-advanced-u1' {
			linux	/boot/vmlinuz-6.1.0-9-amd64 root=UUID=u1 ro quiet
		}
		menuentry 'Debian GNU/Linux, with Linux 6.1.0-9-amd64 (recovery mode)' --class debian \$menuentry_id_option 'gnulinux-6.1.0-9-amd64-recovery-u1' {
			linux	/boot/vmlinuz-6.1.0-9-amd64 root=UUID=u1 ro single
		}
	}
	EOF
	printf '#!/bin/sh\necho "$1" >>"%s/grub-reboot.log"\n' "$T" >"$T/grub-reboot"
	chmod +x "$T/grub-reboot"
	export IOSTRAT_GRUB_CFG="$T/grub.cfg" IOSTRAT_GRUB_REBOOT="$T/grub-reboot"
	expect_fail 'no GRUB menu entry boots vmlinuz-5.0.0' Q add --kernel 5.0.0 -- true
	Q add --kernel 6.1.0-9-amd64 --name old -- echo on-old >/dev/null
	Q add --kernel "$(uname -r)" --name cur -- echo on-current >/dev/null
	# boot 1: wrong kernel: set GRUB's next boot, reboot, run nothing
	boot 2>/dev/null
	[ "$(cat "$T/grub-reboot.log")" = "gnulinux-advanced-u1>gnulinux-6.1.0-9-amd64-advanced-u1" ] || die "grub-reboot got: $(cat "$T/grub-reboot.log")"
	[ "$(reboots)" -eq 1 ] && [ "$(entry 1)" = "queued 0" ] || die "boot 1: $(Q list)"
	# boot 2: still the wrong kernel (the stub switched nothing): fail it, no loop
	boot 2>/dev/null
	[ "$(hist '"id":1,.*"outcome":"wrong-kernel","status":"failed"')" -eq 1 ] || die "wrong kernel not failed"
	[ "$(entry 2)" = gone ] && grep -q '^on-current$' "$T/s/results.log" || die "current-kernel entry did not run"
	! grep -q on-old "$T/s/results.log"
}

# grub.cfg listing the running kernel (GRUB's default) and 6.1.0-9-amd64;
# grub-reboot a stub that logs the entry it was given.
grub_fixture() {
	cat >"$T/grub.cfg" <<-EOF
	menuentry 'Debian GNU/Linux' \$menuentry_id_option 'gnulinux-simple-u1' {
		linux	/boot/vmlinuz-$(uname -r) root=UUID=u1 ro quiet
	}
	submenu 'Advanced options' \$menuentry_id_option 'adv' {
		menuentry 'Linux 6.1.0-9-amd64' \$menuentry_id_option 'k61' {
			linux	/boot/vmlinuz-6.1.0-9-amd64 root=UUID=u1 ro quiet
		}
		menuentry 'Linux $(uname -r)' \$menuentry_id_option 'kcur' {
			linux	/boot/vmlinuz-$(uname -r) root=UUID=u1 ro quiet
		}
	}
	EOF
	printf '#!/bin/sh\necho "$1" >>"%s/grub-reboot.log"\n' "$T" >"$T/grub-reboot"
	chmod +x "$T/grub-reboot"
	export IOSTRAT_GRUB_CFG="$T/grub.cfg" IOSTRAT_GRUB_REBOOT="$T/grub-reboot"
}
switches() { [ -f "$T/grub-reboot.log" ] && wc -l <"$T/grub-reboot.log" || echo 0; }

# grub-reboot lasts one boot, then GRUB's default comes back: every reboot
# into an entry that names a kernel chooses it, even when it is the kernel
# running now (before, the retry of a hung entry on a non-default kernel
# booted GRUB's default and was failed as wrong-kernel).
kernel_chosen_before_every_reboot_into_it() {
	grub_fixture
	Q add --kernel "$(uname -r)" --name first -- true >/dev/null
	Q add --kernel "$(uname -r)" --name hung -- sleep 60 >/dev/null
	boot --timeout 1 2>/dev/null
	[ "$(switches)" -eq 1 ] && [ "$(tail -n 1 "$T/grub-reboot.log")" = gnulinux-simple-u1 ] || die "next entry's kernel not chosen: $(cat "$T/grub-reboot.log" 2>/dev/null)"
	boot --timeout 1 2>/dev/null
	[ "$(switches)" -eq 2 ] && [ "$(entry 2)" = "queued 1" ] || die "retry's kernel not chosen: $(switches) switches, $(Q list)"
	boot --timeout 1 2>/dev/null
	[ "$(hist '"outcome":"wrong-kernel"')" -eq 0 ] && [ "$(hist '"id":2,.*"attempt":2,"outcome":"timeout","status":"failed"')" -eq 1 ] || die "retry did not run: $(cat "$T/s/history.jsonl")"
	[ "$(reboots)" -eq 2 ]
}

# A power cut lands on GRUB's default kernel, not the entry's: the retry
# chooses the kernel again instead of failing it as wrong-kernel, and the
# cut is recorded once.
cut_off_on_another_kernel_switches_again() {
	grub_fixture
	Q add --kernel 6.1.0-9-amd64 --name k61 -- sh -c '[ -e "$0" ] && echo second-ok && exit 0; : >"$0"; kill -9 $PPID $$' "$T/mark" >/dev/null
	boot 2>/dev/null                                   # default kernel: switch
	[ "$(switches)" -eq 1 ] && [ "$(reboots)" -eq 1 ] || die "no switch"
	rc=0; IOSTRAT_QUEUE_KERNEL=6.1.0-9-amd64 boot 2>/dev/null || rc=$?
	[ "$rc" -eq 137 ] || die "not cut off (rc $rc)"
	boot 2>/dev/null                                   # default again after the cut
	[ "$(switches)" -eq 2 ] && [ "$(entry 1)" = "queued 1" ] || die "not switched again: $(Q list), $(cat "$T/s/history.jsonl")"
	[ "$(hist '"outcome":"wrong-kernel"')" -eq 0 ] || die "failed as wrong-kernel"
	IOSTRAT_QUEUE_KERNEL=6.1.0-9-amd64 boot 2>/dev/null
	[ "$(hist '"outcome":"interrupted"')" -eq 1 ] || die "the cut recorded $(hist '"outcome":"interrupted"') times"
	[ "$(hist '"id":1,.*"attempt":2,"outcome":"done","status":"done","detail":"exit 0".*"kernel":"6.1.0-9-amd64"')" -eq 1 ] || die "retry not done on 6.1: $(tail -n 1 "$T/s/history.jsonl")"
	grep -q '^second-ok$' "$T/s/results.log"
}

# The bench of docs/reboot-queue.md's queue, cut off by a power loss after
# its first row (and in the middle of its second): the retry resumes its
# own --out -- the first row kept byte for byte, the torn one cut, the
# missing repetition run -- where it used to fail at once on "has results
# already".  A directory that is not the entry's own is still refused.
retried_bench_resumes_its_own_out() {
	cat >"$T/p.ini" <<-EOF
	[global]
	scale=0.001
	cache=warm
	reps=2
	max_reps=2
	[x]
	strategy=stream
	dataset=medium-short
	threads=1
	work=0
	fio=0
	EOF
	Q add --name b -- sh -c '"$0" bench "$1" --out "$2" --data "$3" >/dev/null 2>&1 || exit 9
		[ "$IOSTRAT_QUEUE_ATTEMPT" = 1 ] || exit 0
		head -n 1 "$2/results.jsonl" >"$2/../row1"
		head -c $(( $(wc -c <"$2/../row1") + 20 )) "$2/results.jsonl" >"$2/../torn"
		cat "$2/../torn" >"$2/results.jsonl"; kill -9 $PPID $$' \
		"$IOSTRAT" "$T/p.ini" "$T/r" "$T/data" >/dev/null
	rc=0; boot 2>/dev/null || rc=$?; [ "$rc" -eq 137 ] || die "not cut off (rc $rc)"
	boot 2>/dev/null
	[ "$(hist '"id":1,.*"attempt":2,"outcome":"done"')" -eq 1 ] || die "retry not done: $(tail -n 1 "$T/s/history.jsonl")"
	[ "$(wc -l <"$T/r/results.jsonl")" -eq 2 ] || die "$(wc -l <"$T/r/results.jsonl") rows after the retry"
	cmp -s -n "$(wc -c <"$T/row1")" "$T/row1" "$T/r/results.jsonl" || die "the first attempt's row changed"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/f" --data "$T/data" >/dev/null 2>&1
	IOSTRAT_QUEUE_ID=1 IOSTRAT_QUEUE_ATTEMPT=2 expect_fail 'has results already' "$IOSTRAT" bench "$T/p.ini" --out "$T/f" --data "$T/data"
}

# The reboot stops the unit: systemd signals run-next and the reboot
# command together.  That is the reboot under way, not a failed one; a
# reboot command killed while run-next was not is still a failure.
reboot_that_stops_the_unit_is_not_a_failure() {
	Q add -- true >/dev/null; Q add -- true >/dev/null; Q add -- true >/dev/null
	out=$(Q run-next --settle 0 --reboot-cmd 'kill -TERM $PPID; kill -TERM $$' 2>&1) || die "exit $?: $out"
	grep -q 'reboot under way' <<<"$out" && ! grep -q failed <<<"$out" || die "$out"
	rc=0; out=$(Q run-next --settle 0 --reboot-cmd 'kill -TERM $$' 2>&1) || rc=$?
	[ "$rc" -eq 1 ] && grep -q "reboot-cmd 'kill -TERM \$\$': failed" <<<"$out" || die "rc $rc: $out"
}

t unit_verifies
t install_queue_into_destdir
t five_boots_three_entries_one_killed_one_failing five_boots
t cut_off_once_then_retried
t watchdog_kills_hung_command
t entry_timeout_overrides_run_nexts
t empty_queue_never_reboots
t pause_stops_the_loop
t concurrent_add_loses_nothing
t corrupt_entry_is_named_with_its_reason
t one_run_next_at_a_time
t failed_reboot_is_reported
t bad_usage
t vanished_directory_is_not_run_elsewhere
t kernel_without_grub
t kernel_switch_through_grub
t kernel_chosen_before_every_reboot_into_it
t cut_off_on_another_kernel_switches_again
t retried_bench_resumes_its_own_out
t reboot_that_stops_the_unit_is_not_a_failure
