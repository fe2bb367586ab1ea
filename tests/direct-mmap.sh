#!/usr/bin/env bash
# The direct and mmap strategies beyond the registry-wide tests
# (tests/strategies.sh): O_DIRECT refusal, unaligned tails, recorded knobs,
# --qd 2, madvise modes, --mmap-out, files shrinking while mapped.
. "$(dirname "$0")/lib.sh"

# Files whose sizes straddle 512 and 4096 boundaries, plus empty and 1 byte.
odd_sizes() {
	local d=$1 s
	mkdir -p "$d"
	for s in 0 1 100 511 512 513 4095 4096 4097 8191 12388 65537 1048575 1048577; do
		head -c "$s" /dev/urandom | tr '\0' 'x' | tr '\200-\377' '\n' >"$d/f$s"
	done
}

verify_same_sizes() {
	local in=$1 out=$2 w=$3 f
	"$IOSTRAT" verify "$in" "$out" --work "$w" >/dev/null || die "verify failed"
	for f in "$in"/*; do
		[ "$(stat -c %s "$f")" = "$(stat -c %s "$out/$(basename "$f")")" ] ||
			die "$(basename "$f"): size differs"
	done
	! names_in "$out" | grep -q iostrat-tmp || die "temporary file left behind"
}

json_field() { jq -r ".$2" <<<"$1"; }

# ---- direct ----------------------------------------------------------------

direct_tails_written_and_read_correctly() {
	odd_sizes "$T/in"
	# qd 1 with one thread, qd 2 with two; fsync file and cold cache once
	for cfg in 1:4096 2:5000; do
		qd=${cfg%%:*} b=${cfg#*:}
		"$IOSTRAT" run -s direct "$T/in" "$T/out" --work 3 --bufsize "$b" \
			--qd "$qd" --threads "$qd" --reps 1 --cache asis --fsync none >/dev/null ||
			die "direct qd=$qd bufsize=$b failed"
		verify_same_sizes "$T/in" "$T/out" 3
	done
	"$IOSTRAT" run -s direct "$T/in" "$T/out" --reps 1 --cache cold >/dev/null ||
		die "direct cold fsync file failed"
	verify_same_sizes "$T/in" "$T/out" 0
}

direct_qd2_matches_test_vectors() {
	vector_set
	for w in 0 7 1000; do
		"$IOSTRAT" run -s direct "$T/in" "$T/out" --qd 2 --work $w --bufsize 4096 \
			--threads 3 --reps 1 --cache asis --fsync none >/dev/null || die "w=$w"
		check_vectors "direct --qd 2" $w "$T/out"
	done
}

direct_records_alignment_and_chunk() {
	local row a
	odd_sizes "$T/in"
	row=$("$IOSTRAT" run -s direct "$T/in" "$T/out" --reps 1 --json --cache asis)
	a=$(json_field "$row" dio_align)
	[[ $a =~ ^[0-9]+$ ]] && [ "$a" -ge 512 ] || die "dio_align missing: $row"
	[ $((a & (a - 1))) -eq 0 ] || die "dio_align $a not a power of two"
	[[ $(json_field "$row" dio_align_source) =~ ^(statx|logical_block_size|default)$ ]] ||
		die "no dio_align_source"
	[ "$(json_field "$row" chunk_bytes)" = 1048576 ] || die "default chunk not 1 MiB"
	[ "$(json_field "$row" tail_write)" = "padded+ftruncate" ] || die "no tail_write"
	row=$("$IOSTRAT" run -s direct "$T/in" "$T/out" --reps 1 --json --cache asis \
		--bufsize 5000 --qd 2)
	[ $(( $(json_field "$row" chunk_bytes) % a )) -eq 0 ] || die "chunk not aligned"
	[ "$(json_field "$row" chunk_bytes)" -ge 5000 ] || die "chunk below --bufsize"
	[ "$(json_field "$row" qd_used)" = 2 ] || die "qd_used not 2"
}

# A 4096-byte-sector loop device: alignment must follow the device.
direct_follows_4k_sector_device() {
	need_root
	need_cmd losetup
	need_cmd mkfs.ext4
	truncate -s 64M "$T/img"
	LOOPDEV=$(losetup --find --show --sector-size 4096 --direct-io=on "$T/img" 2>/dev/null) ||
		skip "no 4k-sector loop device"
	trap 'umount "$T/mnt" 2>/dev/null; losetup -d "$LOOPDEV"' EXIT
	mkfs.ext4 -q -F -b 4096 "$LOOPDEV" >/dev/null 2>&1 || die "mkfs failed"
	mkdir -p "$T/mnt"
	mount "$LOOPDEV" "$T/mnt" || skip "cannot mount"
	odd_sizes "$T/mnt/in"
	row=$("$IOSTRAT" run -s direct "$T/mnt/in" "$T/mnt/out" --bufsize 5000 --work 2 \
		--reps 1 --json --cache cold)
	[ "$(json_field "$row" dio_align)" = 4096 ] || die "dio_align not 4096: $row"
	[ "$(json_field "$row" chunk_bytes)" = 8192 ] || die "chunk not rounded to 8192"
	verify_same_sizes "$T/mnt/in" "$T/mnt/out" 2
}

direct_refuses_tmpfs_naming_it() {
	need_root
	mkdir -p "$T/tmpfs"
	mount -t tmpfs -o size=16m none "$T/tmpfs" || skip "cannot mount tmpfs"
	trap 'umount "$T/tmpfs"' EXIT
	"$IOSTRAT" gen "$T/tmpfs/in" --files 2 --lines 10 --width 100 >/dev/null
	"$IOSTRAT" gen "$T/in" --files 2 --lines 10 --width 100 >/dev/null
	expect_fail 'tmpfs does not do direct I/O.*--strategy buffer, stream or mmap' \
		"$IOSTRAT" run -s direct "$T/tmpfs/in" "$T/out" --reps 1
	expect_fail 'tmpfs/out: tmpfs does not do direct I/O' \
		"$IOSTRAT" run -s direct "$T/in" "$T/tmpfs/out" --reps 1
	! names_in "$T/tmpfs/out" 2>/dev/null | grep -qvx .iostrat-output || die "output left on tmpfs"
}

direct_refuses_ramfs_naming_it() {
	need_root
	mkdir -p "$T/ramfs"
	mount -t ramfs none "$T/ramfs" || skip "cannot mount ramfs"
	trap 'umount "$T/ramfs"' EXIT
	"$IOSTRAT" gen "$T/in" --files 2 --lines 10 --width 100 >/dev/null
	expect_fail 'ramfs does not do direct I/O.*--strategy buffer, stream or mmap' \
		"$IOSTRAT" run -s direct "$T/in" "$T/ramfs/out" --reps 1
}

direct_sink_null_reads_everything() {
	local row
	odd_sizes "$T/in"
	for qd in 1 2; do
		row=$("$IOSTRAT" run -s direct "$T/in" "$T/out" --sink null --qd $qd \
			--bufsize 4096 --reps 1 --json --cache cold)
		[ "$(json_field "$row" bytes_in)" = "$(cat "$T"/in/* | wc -c)" ] ||
			die "qd=$qd: bytes_in wrong: $row"
	done
}

# ---- mmap ------------------------------------------------------------------

mmap_madvise_modes_recorded_and_correct() {
	local row m
	odd_sizes "$T/in"
	for m in sequential willneed hugepage none; do
		row=$("$IOSTRAT" run -s mmap "$T/in" "$T/out" --madvise $m --work 2 \
			--threads 2 --reps 1 --json --cache cold --fsync none)
		[ "$(json_field "$row" madvise)" = $m ] || die "madvise $m not recorded"
		[ "$(json_field "$row" verified)" = true ] || die "madvise $m: not verified"
		verify_same_sizes "$T/in" "$T/out" 2
	done
	expect_fail "madvise.*bad value 'sideways'" \
		"$IOSTRAT" run -s mmap "$T/in" "$T/out" --madvise sideways --reps 1
}

mmap_out_and_write_modes_both_correct() {
	local row mode
	odd_sizes "$T/in"
	for mode in "" --mmap-out; do
		for cfg in 0:5000:none 5:4096:file; do
			w=${cfg%%:*} b=${cfg#*:} fs=${cfg##*:} b=${b%:*}
			row=$("$IOSTRAT" run -s mmap "$T/in" "$T/out" $mode --work "$w" \
				--bufsize "$b" --threads 3 --reps 1 --json --cache asis --fsync "$fs")
			verify_same_sizes "$T/in" "$T/out" "$w"
		done
		[ "$(json_field "$row" output_mode)" = "$([ -n "$mode" ] && echo mmap || echo write)" ] ||
			die "output_mode wrong for '$mode': $row"
		[ "$(json_field "$row" madvise)" = sequential ] || die "default madvise not sequential"
	done
}

mmap_empty_files_only() {
	mkdir -p "$T/in"
	: >"$T/in/a"; : >"$T/in/b"
	for mode in "" --mmap-out; do
		"$IOSTRAT" run -s mmap "$T/in" "$T/out" $mode --reps 1 >/dev/null ||
			die "empty files failed ($mode)"
		[ -f "$T/out/a" ] && [ ! -s "$T/out/a" ] || die "empty output missing"
	done
}

# Truncate the input while the run has it mapped: one clear error for the
# file, no crash, no output left for it.  A builtin-only spin loop sees the
# output appear, the run's child is stopped around the truncate, and a run
# that still finished first (a loaded machine) is retried with more work.
shrink_once() {
	local mode=$1 w=$2 pid child
	rm -rf "$T/in" "$T/out"
	mkdir -p "$T/in"
	head -c 2000000 /dev/zero | tr '\0' 'q' >"$T/in/f"
	"$IOSTRAT" run -s mmap "$T/in" "$T/out" ${mode:+"$mode"} --work "$w" --bufsize 64k --reps 1 \
		--cache asis --fsync none >/dev/null 2>"$T/err" &
	pid=$!
	until [ -e "$T/out/.f.iostrat-tmp" ] || ! kill -0 $pid 2>/dev/null; do :; done
	child=$(pgrep -P $pid) || true
	[ -n "$child" ] && kill -STOP "$child" 2>/dev/null
	if [ ! -e "$T/out/.f.iostrat-tmp" ]; then
		[ -n "$child" ] && kill -CONT "$child" 2>/dev/null
		wait $pid || true
		return 2
	fi
	truncate -s 100000 "$T/in/f"
	kill -CONT "$child"
	wait $pid
}

shrink_during_run() {
	local mode=$1 w err rc
	need_cmd pgrep
	for w in 2000 8000 30000; do
		rc=0
		shrink_once "$mode" $w || rc=$?
		[ $rc -eq 2 ] || break
	done
	[ $rc -ne 2 ] || die "the run always finished before the truncate"
	err=$(cat "$T/err")
	[ $rc -ne 0 ] || die "run succeeded on a shrunk file"
	grep -q 'f: file shrank while mapped (2000000 bytes mapped, now 100000)' <<<"$err" ||
		die "unclear error: $err"
	! grep -qi 'signal' <<<"$err" || die "died of a signal: $err"
	[ "$(grep -c . <<<"$err")" -le 2 ] || die "more than one error line: $err"
	[ ! -e "$T/out/f" ] && [ ! -e "$T/out/.f.iostrat-tmp" ] || die "partial output left"
}

mmap_file_shrinking_while_mapped_is_an_error() { shrink_during_run ""; }
mmap_out_file_shrinking_while_mapped_is_an_error() { shrink_during_run --mmap-out; }

t direct_tails_written_and_read_correctly
t direct_qd2_matches_test_vectors
t direct_records_alignment_and_chunk_in_json direct_records_alignment_and_chunk
t direct_follows_4k_sector_device
t direct_refuses_tmpfs_naming_it
t direct_refuses_ramfs_naming_it
t direct_sink_null_reads_everything
t mmap_madvise_modes_recorded_and_correct
t mmap_out_and_write_modes_both_correct
t mmap_empty_files_only
t mmap_file_shrinking_while_mapped_is_an_error
t mmap_out_file_shrinking_while_mapped_is_an_error
