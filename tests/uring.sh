#!/usr/bin/env bash
# The io_uring pipeline (strategy uring): queue depths, chunk sizes that
# split lines, many tiny and empty files, one large file, --sink null, the
# memory bound, errors.  Byte-identical output is checked by `iostrat run`
# itself (a repetition whose output differs from the reference fails).
. "$(dirname "$0")/lib.sh"

urun() { "$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 --cache asis --fsync none "$@"; }

# $1: key, stdin: one --json row
json_get() { jq -rn --arg k "$1" 'input | if has($k) then .[$k] else error("no \($k)") end'; } # KEY: of the first row on stdin

qd_and_chunk_sizes_match_reference() {
	"$IOSTRAT" gen "$T/in" --files 3 --lines 150 --width 777 >/dev/null
	: >"$T/in/empty"
	printf 'no newline at the end' >"$T/in/tail"
	for qd in 1 2 5 32; do
		for chunk in 1000 4097 65536; do
			urun --qd $qd --chunk $chunk --threads $((qd % 3 + 1)) --work 3 \
				>/dev/null || die "qd=$qd chunk=$chunk failed"
		done
	done
}

test_vectors_with_small_chunks() {
	vector_set
	for w in 0 7 1000; do
		urun --chunk 1000 --qd 3 --threads 2 --work $w >/dev/null || die "w=$w"
		check_vectors "uring --chunk 1000" $w "$T/out"
	done
}

long_line_across_many_chunks() {
	mkdir -p "$T/in"
	head -c $((3 << 20)) /dev/urandom | tr -d '\n' >"$T/in/long"
	urun --chunk 5000 --qd 16 --threads 3 --work 2 >/dev/null || die "failed"
	"$IOSTRAT" verify "$T/in" "$T/out" --work 2 >/dev/null || die "wrong output"
}

many_tiny_files_with_empty_ones() {
	mkdir -p "$T/in"
	# 10,000 files of 1 KiB of base64 lines (the last one shorter)
	head -c $((7500 * 1024)) /dev/urandom | base64 -w 99 >"$T/blob"
	split -b 1024 -a 4 "$T/blob" "$T/in/f"
	for i in $(seq 1 50); do : >"$T/in/f-empty-$i"; done
	n=$(find "$T/in" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)
	"$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 --cache cold --fsync end --threads 2 \
		--work 1 >/dev/null || die "run failed"
	[ "$(find "$T/out" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)" -eq "$n" ] || die "expected $n outputs"
	[ -z "$(find "$T/out" -name '.*iostrat-tmp')" ] || die "temp files left"
}

one_large_file() {
	"$IOSTRAT" gen "$T/in" --files 1 --lines 40000 --width 1000 >/dev/null
	urun --work 1 --threads 2 >/dev/null || die "buffered failed"
	urun --work 1 --threads 2 --direct --qd 4 --chunk 256k >/dev/null || die "--direct failed"
	"$IOSTRAT" verify "$T/in" "$T/out" --work 1 >/dev/null || die "wrong output"
}

sink_null_writes_nothing() {
	"$IOSTRAT" gen "$T/in" --files 4 --lines 100 --width 100 >/dev/null
	mkdir -p "$T/out"
	urun --sink null --json >"$T/row" || die "run failed"
	! names_in "$T/out" | grep -qvx .iostrat-output || die "files written: $(ls -A "$T/out")"
	[ "$(json_get bytes_in <"$T/row")" -eq $((4 * 100 * 101)) ] || die "bytes_in wrong"
	[ "$(json_get bytes_out <"$T/row")" -eq 0 ] || die "bytes_out not 0"
}

# Peak RSS is the pool plus the process's own baseline (the null strategy
# measures it), not the file: 96 MiB through a 1.5 MiB pool.
memory_bounded_by_pool() {
	skip_under_sanitizers "RSS means nothing under sanitizers"
	"$IOSTRAT" gen "$T/in" --files 1 --lines 98304 --width 1023 >/dev/null
	base=$("$IOSTRAT" run -s null "$T/in" "$T/o0" --reps 1 --json | json_get maxrss_kb)
	urun --chunk 256k --qd 4 --threads 2 --json >"$T/row" || die "run failed"
	rss=$(json_get maxrss_kb <"$T/row")
	pool=$(json_get pool_bytes <"$T/row")
	[ "$pool" -eq $((6 * 256 * 1024)) ] || die "pool_bytes $pool"
	limit=$((base + pool / 1024 + 4096))
	[ "$rss" -le "$limit" ] || die "maxrss ${rss} KiB > ${limit} KiB (pool $pool B, base $base KiB)"
}

# docs/benches.md: chunk and qd are as set (empty: the strategy's default);
# what the pipeline used is in chunk_bytes and qd_used
unset_chunk_and_qd_stay_empty() {
	"$IOSTRAT" gen "$T/in" --files 1 --lines 100 --width 99 >/dev/null
	urun --json >"$T/row" || die "run failed"
	# chunk and qd unset; chunk_bytes and qd_used whole numbers > 0
	bad=$(jq -rn 'input | [(("chunk", "qd") as $k | select(.[$k] != null and .[$k] != "") | "\($k)=\(.[$k])"),
		(("chunk_bytes", "qd_used") as $k | select((.[$k] | type) != "number" or .[$k] != (.[$k] | floor) or .[$k] <= 0)
		| "\($k)=\(.[$k])")] | join(", ")' "$T/row") || die "row unreadable: $(cat "$T/row")"
	[ -z "$bad" ] || die "unset chunk/qd: $bad"
	urun --chunk 64k --qd 4 --json >"$T/row2" || die "run failed"
	[ "$(json_get chunk <"$T/row2")" = 65536 ] || die "--chunk 64k: chunk $(json_get chunk <"$T/row2")"
	[ "$(json_get qd_used <"$T/row2")" = 4 ] || die "--qd 4: qd_used $(json_get qd_used <"$T/row2")"
}

direct_needs_aligned_chunk() {
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	expect_fail 'chunk.*multiple of 4096' urun --direct --chunk 1000
}

# io_uring switched off, without switching it off for the machine: the
# global kernel.io_uring_disabled would also fail every other io_uring user
# here (other checkouts' tests, the benchmarks running beside them) for as
# long as the test holds it.  tests/tools/noring runs iostrat under a seccomp
# filter that fails io_uring_setup() with the errno a switched-off kernel
# gives (EPERM for io_uring_disabled=2, ENOSYS without io_uring); for the
# message that names the sysctl, a private mount namespace shows iostrat a
# /proc/sys/kernel/io_uring_disabled reading 2.  The one test that flips the
# real sysctl runs only when asked (IOSTRAT_TEST_GLOBAL_SYSCTL=1).
NORING=$TOP/$BUILD/tools/noring
need_noring() { [ -x "$NORING" ] || skip "noring not built"; }

seccomp_enosys_is_one_clear_error() {
	need_noring
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	expect_fail 'io_uring: unavailable: Function not implemented \(.*seccomp' \
		"$NORING" --errno ENOSYS "$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 --cache asis
	! names_in "$T/out" | grep -qvx .iostrat-output || die "output left: $(ls -A "$T/out")"
}

seccomp_eperm_is_one_clear_error() {
	need_noring
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	expect_fail 'io_uring: unavailable: Operation not permitted' \
		"$NORING" --errno EPERM "$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 --cache asis
}

disabled_sysctl_is_named() {
	need_root
	need_noring
	[ -e /proc/sys/kernel/io_uring_disabled ] || skip "no kernel.io_uring_disabled"
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	echo 2 >"$T/disabled"
	# the bind mount lives and dies with the namespace of this one command
	rc=0
	in_private_mount_ns sh -c 'mount --bind "$1" /proc/sys/kernel/io_uring_disabled ||
		exit 99; shift; exec "$@"' sh "$T/disabled" \
		"$NORING" --errno EPERM "$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 \
		--cache asis 2>"$T/err" || rc=$?
	[ "$rc" -ne 99 ] || skip "cannot bind-mount over /proc/sys: $(cat "$T/err")"
	[ "$rc" -ne 98 ] || skip "$(cat "$T/err")"
	[ "$rc" -ne 0 ] || die "succeeded"
	grep -q 'io_uring: unavailable.*io_uring_disabled=2' "$T/err" || die "$(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] || die "more than one line: $(cat "$T/err")"
}

# The real thing, opt-in.  An exclusive lock keeps two such tests from
# interleaving (the second would save the first's "2" and restore it:
# io_uring left off for good); the trap restores the value whatever happens.
global_sysctl_disabled_is_one_clear_error() {
	need_root
	[ "${IOSTRAT_TEST_GLOBAL_SYSCTL:-0}" = 1 ] ||
		skip "flips machine-wide kernel.io_uring_disabled; IOSTRAT_TEST_GLOBAL_SYSCTL=1 runs it"
	need_cmd flock
	local knob=/proc/sys/kernel/io_uring_disabled old
	[ -w "$knob" ] || skip "no writable $knob"
	"$IOSTRAT" gen "$T/in" --files 1 --lines 10 --width 10 >/dev/null
	exec 9>/run/lock/iostrat-io_uring_disabled.lock
	flock -w 60 9 || die "lock busy"
	old=$(cat "$knob")
	trap 'echo "$old" >"$knob"' EXIT
	echo 2 >"$knob"
	expect_fail 'io_uring: unavailable.*io_uring_disabled=2' urun
	echo "$old" >"$knob"
	trap - EXIT
	flock -u 9
	urun >/dev/null || die "fails after restoring $knob"
}

# A full output filesystem: the error names the file, in-flight ops are
# drained, temp files are removed and only complete outputs remain.
full_disk_fails_cleanly() {
	with_loop_ext4 "$T/mnt" 8
	"$IOSTRAT" gen "$T/in" --files 3 --lines 4000 --width 1000 >/dev/null
	expect_fail 'out: the outputs need 12.0 MB; .*refusing to start' \
		"$IOSTRAT" run -s uring "$T/in" "$T/mnt/out" --reps 1 --cache asis --chunk 64k
	expect_fail 'mnt/out/.*(No space left|write)' \
		"$IOSTRAT" run -s uring "$T/in" "$T/mnt/out" --reps 1 --cache asis --chunk 64k --no-space-check
	[ -z "$(find "$T/mnt/out" -name '.*' ! -name .iostrat-output)" ] || die "temp files left: $(ls -A "$T/mnt/out")"
	for f in "$T"/mnt/out/*; do
		[ -e "$f" ] || continue
		cmp -s <(wc -c <"$f") <(wc -c <"$T/in/$(basename "$f")") || die "incomplete $f"
	done
}

t uring_qd_1_to_32_and_odd_chunk_sizes_match_reference qd_and_chunk_sizes_match_reference
t uring_chunk_1000_matches_test_vectors test_vectors_with_small_chunks
t uring_3mib_line_across_5000_byte_chunks long_line_across_many_chunks
t uring_10000_tiny_files_and_50_empty many_tiny_files_with_empty_ones
t uring_one_large_file_buffered_and_direct one_large_file
t uring_sink_null_writes_nothing sink_null_writes_nothing
t uring_peak_rss_bounded_by_pool memory_bounded_by_pool
t uring_direct_rejects_unaligned_chunk direct_needs_aligned_chunk
t uring_unset_chunk_and_qd_stay_empty_in_the_row unset_chunk_and_qd_stay_empty
t uring_seccomp_enosys_is_one_clear_error seccomp_enosys_is_one_clear_error
t uring_seccomp_eperm_is_one_clear_error seccomp_eperm_is_one_clear_error
t uring_disabled_sysctl_is_named_in_a_private_namespace disabled_sysctl_is_named
t uring_global_sysctl_disabled_is_one_clear_error global_sysctl_disabled_is_one_clear_error
t uring_full_disk_fails_cleanly full_disk_fails_cleanly
