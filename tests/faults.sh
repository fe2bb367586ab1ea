#!/usr/bin/env bash
# Faults: every strategy over a FUSE filesystem (tests/tools/faultfs.c) that
# fails reads or writes with EIO/ENOSPC past a byte offset.  Each run fails
# with the file and the error named, leaves no temporary or complete-looking
# wrong output, and the inputs are untouched.
. "$(dirname "$0")/lib.sh"
FAULTFS=$TOP/$BUILD/tools/faultfs

strategies() { "$IOSTRAT" list | awk '!/^ / && !/\[no output\]/ {print $1}'; }

mount_faultfs() { # BACKING MNT ARGS...
	local b=$1 m=$2; shift 2
	need_root
	[ -e /dev/fuse ] || skip "no /dev/fuse"
	[ -x "$FAULTFS" ] || skip "faultfs not built"
	mkdir -p "$m"
	"$FAULTFS" "$b" "$m" "$@" &
	for _ in $(seq 50); do mountpoint -q "$m" && return 0; sleep 0.1; done
	skip "cannot mount FUSE"
}
umount_faultfs() { fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null; wait 2>/dev/null; true; }

# Outputs present must equal the reference; no temporaries left.
outputs_sane() {
	local out=$1 ref=$2 f
	ls -A "$out" | grep -q 'iostrat-tmp' && die "temporary file left in $out"
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
	expect_fail "f000002.txt.*Input/output error" "$IOSTRAT" run -s "$s" "$T/mnt" "$T/out" \
		--work 3 --reps 1 --cache asis --bufsize 64k
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
	msg="Input/output error"; [ "$e" = ENOSPC ] && msg="No space left on device"
	expect_fail "f000001.txt.*$msg" "$IOSTRAT" run -s "$s" "$T/data" "$T/mnt" \
		--work 3 --reps 1 --cache asis --bufsize 64k
	outputs_sane "$T/mnt" "$T/ref"
}

for s in $(strategies); do
	t "${s}_names_the_file_on_a_read_error" read_error_is_named "$s"
	t "${s}_names_the_file_on_a_write_eio" write_error_is_named "$s" EIO
	t "${s}_names_the_file_on_enospc" write_error_is_named "$s" ENOSPC
done
