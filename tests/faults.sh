#!/usr/bin/env bash
# Faults: every strategy over a FUSE filesystem (tests/tools/faultfs.c) that
# fails reads or writes with EIO/ENOSPC past a byte offset.  Each run fails
# with the file and the error named, leaves no temporary or complete-looking
# wrong output, and the inputs are untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/caps.inc"


# Outputs present must equal the reference; no temporaries left.
outputs_sane() {
	local out=$1 ref=$2 f
	names_in "$out" | grep -q 'iostrat-tmp' && die "temporary file left in $out"
	for f in "$out"/*; do
		[ -e "$f" ] || continue
		cmp -s "$f" "$ref/$(basename "$f")" || die "incomplete output left: $f"
	done
	true
}

read_error_is_named() {
	local s=$1
	"$IOSTRAT" gen "$T/data" --files 4 --lines 2000 --width 100 >/dev/null
	"$IOSTRAT" run -s buffer "$T/data" "$T/ref" --work 3 --reps 1 --cache asis >/dev/null
	sum=$(cat "$T"/data/f* | md5sum)
	mount_faultfs "$T/data" "$T/mnt" --read-fail-at 100000 --errno EIO --only f000002
	trap 'umount_faultfs "$T/mnt"' EXIT
	bs=(); uses "$s" bufsize && bs=(--bufsize 64k)
	expect_fail "f000002.txt.*Input/output error" "$IOSTRAT" run -s "$s" "$T/mnt" "$T/out" \
		--work 3 --reps 1 --cache asis "${bs[@]}"
	outputs_sane "$T/out" "$T/ref"
	[ ! -e "$T/out/f000002.txt" ] || die "output for the failing file left"
	umount_faultfs "$T/mnt"; trap - EXIT
	[ "$(cat "$T"/data/f* | md5sum)" = "$sum" ] || die "input modified"
}

write_error_is_named() {
	local s=$1 e=$2
	"$IOSTRAT" gen "$T/data" --files 4 --lines 2000 --width 100 >/dev/null
	"$IOSTRAT" run -s buffer "$T/data" "$T/ref" --work 3 --reps 1 --cache asis >/dev/null
	mkdir "$T/backing"
	mount_faultfs "$T/backing" "$T/mnt" --write-fail-at 50000 --errno "$e" --only f000001
	trap 'umount_faultfs "$T/mnt"' EXIT
	bs=(); uses "$s" bufsize && bs=(--bufsize 64k)
	msg="Input/output error"; [ "$e" = ENOSPC ] && msg="No space left on device"
	expect_fail "f000001.txt.*$msg" "$IOSTRAT" run -s "$s" "$T/data" "$T/mnt" \
		--work 3 --reps 1 --cache asis "${bs[@]}"
	outputs_sane "$T/mnt" "$T/ref"
}

# A bench over the fault fs: its first three repetitions write through,
# the fourth (buffer, rep 2) hits the fault.  The bench fails naming the
# file and the error; the rows written before it are still there byte for
# byte, the failed one says so in its error column (no verified output, not
# counted in summary.csv), and neither outputs nor temporaries are left.
bench_keeps_earlier_rows() {
	local e=$1 msg="Input/output error"
	[ "$e" = ENOSPC ] && msg="No space left on device"
	"$IOSTRAT" gen "$T/data" --files 3 --lines 2000 --width 100 >/dev/null
	mkdir "$T/backing"
	mount_faultfs "$T/backing" "$T/mnt" --write-fail-at 50000 --errno "$e" \
		--only f000001 --spare 3
	trap 'umount_faultfs "$T/mnt"' EXIT
	printf '[global]\ndataset=%s\ncache=asis\nreps=2\nmax_reps=2\n[a]\nstrategy=stream,buffer\nwork=3\nbufsize=64k\n' \
		"$T/data" >"$T/p.ini"
	# IOSTRAT_DATA holds the bench's scratch outputs: on the fault fs
	rc=0
	IOSTRAT_DATA="$T/mnt" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] || die "exit $rc, wanted 1: $(cat "$T/err")"
	grep -Eq "f000001.txt.*$msg" "$T/err" || die "file/error not named: $(cat "$T/err")"
	# every row complete (the fourth, whichever strategy the round's shuffled
	# order ran last, failed); results.csv the same rows, the good ones with
	# their figures unchanged; summary.csv counts the good ones
	[ -s "$T/r/results.jsonl" ] || die "no rows"
	[ -z "$(tail -c 1 "$T/r/results.jsonl")" ] || die "last row not complete"
	jq -se --slurpfile c <(csv_rows "$T/r/results.csv") --slurpfile s <(csv_rows "$T/r/summary.csv") '
		. as $r
		| [.[] | [.rep, (.error == null)]] == [[1, true], [1, true], [2, true], [2, false]]
		and ([.[:2][].strategy] | sort) == ["buffer", "stream"]
		and ([.[2:][].strategy] | sort) == ["buffer", "stream"]
		and all(.[:3][]; .verified == true) and .[3].verified != true
		and ($c | length) == 4
		and all(range(4) as $i | [$r[$i], $c[$i]]; .[0] as $x | .[1] as $y
			| $y.config_id == $x.config_id and $y.rep == ($x.rep | tostring)
			and ($y.error == "") == ($x.error == null)
			and ($x.error != null or all("checksum", "bytes_out", "elapsed_s"; . as $k
				| $y[$k] == ($x[$k] | tostring) or ($y[$k] | tonumber) == $x[$k])))
		and ([$s[].n] | sort) == ["1", "2"]' "$T/r/results.jsonl" >/dev/null ||
		die "rows wrong: $(cat "$T/r/results.jsonl")"
	[ -z "$(ls -A "$T/backing")" ] || die "left in the output fs: $(find "$T/backing")"
	umount_faultfs "$T/mnt"; trap - EXIT
}

for e in EIO ENOSPC; do
	t "bench_${e,,}_in_a_later_rep_keeps_earlier_rows" bench_keeps_earlier_rows "$e"
done

for s in $(strategies_with -v no-output); do  # the strategies that write outputs
	t "${s}_names_the_file_on_a_read_error" read_error_is_named "$s"
	t "${s}_names_the_file_on_a_write_eio" write_error_is_named "$s" EIO
	t "${s}_names_the_file_on_enospc" write_error_is_named "$s" ENOSPC
done
