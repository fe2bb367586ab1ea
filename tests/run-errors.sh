#!/usr/bin/env bash
# iostrat run on bad input: one clear line naming the thing and the reason,
# non-zero exit, inputs untouched, no complete-looking output left behind.
. "$(dirname "$0")/lib.sh"

mkdata() { "$IOSTRAT" gen "$T/in" --files "${1:-3}" --lines "${2:-100}" --width "${3:-50}" >/dev/null; }

missing_input() { expect_fail "$T/nope: input directory: No such file" "$IOSTRAT" run -s stream "$T/nope" "$T/out"; }
input_not_a_directory() { : >"$T/f"; expect_fail "$T/f: input is not a directory" "$IOSTRAT" run -s stream "$T/f" "$T/out"; }
output_equals_input() {
	mkdata; sum=$(cat "$T"/in/* | md5sum)
	expect_fail 'refusing to overwrite inputs' "$IOSTRAT" run -s stream "$T/in" "$T/in"
	expect_fail 'refusing to overwrite inputs' "$IOSTRAT" run -s stream "$T/in" "$T/in/sub"
	ln -s "$T/in" "$T/alias"
	expect_fail 'refusing to overwrite inputs' "$IOSTRAT" run -s stream "$T/in" "$T/alias"
	[ "$(cat "$T"/in/* | md5sum)" = "$sum" ] || die "input modified"
}
empty_input() {
	mkdir "$T/in"; : >"$T/in/.hidden"
	expect_fail "$T/in: no input files \(names starting with '.' are skipped\): nothing to run" \
		"$IOSTRAT" run -s stream "$T/in" "$T/out"
	[ ! -e "$T/out" ] || [ -z "$(ls -A "$T/out")" ] || die "output written for nothing"
}
# a trailing unknown option is unknown, not short of a value; a repeated
# option's last value wins, --strategy included
trailing_unknown_option_and_repeats() {
	mkdata
	expect_fail -- '--frobnicate: unknown option' "$IOSTRAT" run -s stream "$T/in" "$T/out" --frobnicate
	"$IOSTRAT" run -s stream -s buffer "$T/in" "$T/out" -r 1 --json | jq -e '.strategy == "buffer"' >/dev/null ||
		die "-s stream -s buffer did not run buffer"
	"$IOSTRAT" run -s stream "$T/in" "$T/out" -r 1 --work 5 --work 7 --json | jq -e '.work == 7' >/dev/null ||
		die "--work 5 --work 7 did not run work 7"
}
# --qd on stream is refused like --madvise on stream (exit 2, nothing made),
# never a config_id of its own; each strategy says what it uses in `list`
knob_the_strategy_does_not_use() {
	mkdata
	local rc=0
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --qd 8 -r 1 2>"$T/err" >/dev/null || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc, not 2: $(cat "$T/err")"
	grep -q -- '--qd: strategy stream does not use it (direct, uring do)' "$T/err" ||
		die "$(cat "$T/err")"
	[ ! -e "$T/out" ] || die "OUT made by a refused run"
	expect_fail -- '--bufsize: strategy buffer does not use it' \
		"$IOSTRAT" run -s buffer "$T/in" "$T/out" --bufsize 64k -r 1
	expect_fail -- '--bufsize: strategy uring does not use it' \
		"$IOSTRAT" run -s uring "$T/in" "$T/out" --bufsize 64k -r 1
	expect_fail -- '--chunk: strategy stream does not use it' \
		"$IOSTRAT" run -s stream "$T/in" "$T/out" --chunk 64k -r 1
	"$IOSTRAT" list --caps | grep -qP "^uring\tdirect dontcache chunk qd " ||
		die "list --caps does not say what uring uses"
}
# OUT made for a run that is then refused is removed: nothing is left
refused_run_leaves_no_output_directory() {
	mkdata 4 20000 100; mkfifo "$T/in/fifo"
	expect_fail 'fifo: not a regular file' "$IOSTRAT" run -s stream "$T/in" "$T/o1" -r 1
	[ ! -e "$T/o1" ] || die "OUT left by a run refused for its input"
	rm "$T/in/fifo"
	[ "$(id -u)" -eq 0 ] || return 0
	mkdir "$T/small"
	mount -t tmpfs -o size=1m tmpfs "$T/small" || skip "cannot mount tmpfs"
	trap 'umount "$T/small"' EXIT
	expect_fail 'refusing to start' "$IOSTRAT" run -s stream "$T/in" "$T/small/o2" -r 1
	[ ! -e "$T/small/o2" ] || die "OUT left by a run refused for space"
	expect_fail 'dontcache' "$IOSTRAT" run -s stream "$T/in" "$T/small/o3" -r 1 --dontcache \
		--no-space-check
	[ ! -e "$T/small/o3" ] || die "OUT left by a run refused for --dontcache"
}
unknown_strategy() { mkdata; expect_fail 'bogus: unknown strategy' "$IOSTRAT" run -s bogus "$T/in" "$T/out"; }
bad_numbers() {
	mkdata
	expect_fail 'threads: bad value .-1.' "$IOSTRAT" run -s stream "$T/in" "$T/out" --threads -1
	expect_fail 'threads: bad value .0. \(must be 1' "$IOSTRAT" run -s stream "$T/in" "$T/out" --threads 0
	expect_fail 'work: bad value .99999999999999999999999.' "$IOSTRAT" run -s stream "$T/in" "$T/out" --work 99999999999999999999999
	expect_fail 'bufsize: bad value .12q.' "$IOSTRAT" run -s stream "$T/in" "$T/out" --bufsize 12q
	expect_fail 'reps: bad value .x.' "$IOSTRAT" run -s stream "$T/in" "$T/out" --reps x
	expect_fail 'cache: bad value .hot.' "$IOSTRAT" run -s stream "$T/in" "$T/out" --cache hot
	expect_fail -- '--nope: unknown option' "$IOSTRAT" run -s stream "$T/in" "$T/out" --nope 3
}
non_regular_input_file() {
	mkdata; mkfifo "$T/in/fifo"
	expect_fail 'fifo: not a regular file' "$IOSTRAT" run -s buffer "$T/in" "$T/out"
	rm "$T/in/fifo"; mkdir "$T/in/sub"
	expect_fail 'sub: Is a directory' "$IOSTRAT" run -s buffer "$T/in" "$T/out"
}
unwritable_output() {
	need_root
	mkdata; mkdir "$T/ro"
	mount -t tmpfs -o ro,size=1m tmpfs "$T/ro" || skip "cannot mount tmpfs"
	trap 'umount "$T/ro"' EXIT
	expect_fail "$T/ro.*(Read-only|not writable)" "$IOSTRAT" run -s stream "$T/in" "$T/ro"
}
full_output_filesystem() {
	need_root
	mkdata 4 20000 100
	mkdir "$T/full"
	mount -t tmpfs -o size=3m tmpfs "$T/full" || skip "cannot mount tmpfs"
	trap 'umount "$T/full"' EXIT
	sum=$(cat "$T"/in/* | md5sum)
	# refused before a byte is written; past the check, a disk that fills
	# mid-run (another writer) still fails cleanly:
	expect_fail "full: the outputs need 8.1 MB; .* MB free on .*refusing to start" \
		"$IOSTRAT" run -s stream "$T/in" "$T/full" --reps 1 --cache asis
	# those that write outputs, not always O_DIRECT (tmpfs refuses it)
	for s in $("$IOSTRAT" list --caps |
		awk -F'\t' '$2 !~ /(^| )(no-output|always-direct)( |$)/ {print $1}'); do
		rm -rf "$T/full"/* "$T/full"/.[!.]* 2>/dev/null || true
		expect_fail "$T/full/.*No space left on device" "$IOSTRAT" run -s "$s" "$T/in" "$T/full" --reps 1 --cache asis --no-space-check
		for f in "$T"/full/* ; do
			[ -e "$f" ] || continue
			cmp -s "$f" <("$IOSTRAT" run -s buffer "$T/in" "$T/x" --reps 1 >/dev/null; cat "$T/x/$(basename "$f")") ||
				die "$s left incomplete output $f"
		done
		names_in "$T/full" | grep -q iostrat-tmp && die "$s left temp files"
	done
	[ "$(cat "$T"/in/* | md5sum)" = "$sum" ] || die "input modified"
}
# A file deleted after the directory scan: faultfs makes it vanish at its
# Nth open (the first N-1 go through), so each place iostrat opens it --
# the reference, the residency checks, the strategy's own open -- meets the
# deletion in turn, whatever the machine's load (rm(1) in the background
# lost that race on a busy CI machine).
file_disappears_mid_run() {
	mkdata 40 200 50
	local k msg rc own=0
	# k = opens let through before it vanishes; past the last open the run
	# succeeds, which ends the walk.
	for k in $(seq 0 8); do
		rm -rf "$T/b$k" "$T/out"
		cp -a "$T/in" "$T/b$k"
		mount_faultfs "$T/b$k" "$T/m$k" --only f000039.txt --vanish 1 --spare "$k"
		rc=0
		msg=$("$IOSTRAT" run -s stream "$T/m$k" "$T/out" --reps 1 --cache asis 2>&1 >/dev/null) || rc=$?
		umount_faultfs "$T/m$k"
		[ "$rc" -eq 0 ] && break
		printf '%s\n' "$msg" | grep -Eq "m$k/f000039.txt: .*No such file" || die "open $((k + 1)): $msg"
		[ "$(printf '%s\n' "$msg" | grep -c .)" -le 2 ] || die "more than a short error: $msg"
		[ ! -e "$T/out/f000039.txt" ] || die "open $((k + 1)): output for the vanished file"
		[ ! -e "$T/b$k/f000039.txt" ] || die "faultfs did not remove it"
		printf '%s\n' "$msg" | grep -Eq 'f000039.txt: (open|read)[^:]*: No such' && own=1
	done
	[ "$rc" -eq 0 ] || die "still failing with 8 opens spared: $msg"
	[ "$k" -ge 1 ] || die "the run never opened the file"
	[ "$own" = 1 ] || die "the strategy's own open never met the deletion"
}

# An input touched while a repetition reads it (same bytes, a newer
# mtime): the output still matches, so nothing failed -- but the run read
# a file that changed under it.  One warning names the file and the
# repetition, and the row says input_changed=true (false on a quiet rep).
input_touched_mid_run_is_warned_and_flagged() {
	"$IOSTRAT" gen "$T/big" --files 1 --lines 200000 --width 100 >/dev/null
	local f=$T/big/f000000.txt rc=0
	(
		for _ in $(seq 1500); do
			compgen -G "$T/o/.*.iostrat-tmp" >/dev/null && break
			sleep 0.01
		done
		touch -d '+1 hour' "$f"
	) &
	"$IOSTRAT" run -s stream "$T/big" "$T/o" --work 600 --reps 1 --cache asis --json \
		>"$T/rows" 2>"$T/err" || rc=$?
	wait
	[ "$rc" -eq 0 ] || die "exit $rc: $(cat "$T/err")"
	grep -q "big/f000000.txt: input changed during repetition 1 (same size, modified): its row says input_changed=true" "$T/err" ||
		die "not warned: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "not one line: $(cat "$T/err")"
	grep -q '"input_changed":true' "$T/rows" || die "row does not say so: $(cat "$T/rows")"
	"$IOSTRAT" run -s stream "$T/big" "$T/o" --reps 1 --cache asis --json >"$T/rows" 2>"$T/err" ||
		die "quiet run failed: $(cat "$T/err")"
	grep -q '"input_changed":false' "$T/rows" || die "quiet row: $(cat "$T/rows")"
	[ ! -s "$T/err" ] || die "quiet run warned: $(cat "$T/err")"
}

t knob_a_strategy_does_not_use_is_a_usage_error knob_the_strategy_does_not_use
t refused_run_leaves_no_output_directory
t missing_input_is_named missing_input
t input_touched_mid_run_is_warned_and_flagged
t input_not_a_directory_is_refused input_not_a_directory
t output_equal_to_or_inside_input_is_refused output_equals_input
t empty_input_is_refused_not_a_success empty_input
t trailing_unknown_option_is_unknown_and_last_repeat_wins trailing_unknown_option_and_repeats
t unknown_strategy_is_named unknown_strategy
t bad_numbers_are_rejected_with_the_option_named bad_numbers
t fifo_or_directory_among_inputs_is_refused non_regular_input_file
t unwritable_output_is_refused unwritable_output
t full_output_filesystem_fails_cleanly full_output_filesystem
t file_disappearing_mid_run_is_named file_disappears_mid_run
