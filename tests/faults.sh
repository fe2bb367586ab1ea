#!/usr/bin/env bash
# Faults: every strategy over a FUSE filesystem (tests/tools/faultfs.c) that
# fails reads or writes with EIO/ENOSPC past a byte offset.  Each run fails
# with the file and the error named, leaves no temporary or complete-looking
# wrong output, and the inputs are untouched.
. "$(dirname "$0")/lib.sh"

strategies() { "$IOSTRAT" list | awk '!/^ / && !/\[no output\]/ {print $1}'; }

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
	python3 - "$T/r" <<'PY' || die "rows wrong"
import csv, json, sys
d = sys.argv[1]
raw = open(d + "/results.jsonl", "rb").read().split(b"\n")
assert raw[-1] == b"", "last row not complete"
rows = [json.loads(l) for l in raw[:-1]]
got = [(r["strategy"], r["rep"], r.get("error") is None) for r in rows]
assert got == [("stream", 1, True), ("buffer", 1, True), ("stream", 2, True),
               ("buffer", 2, False)], got
for r in rows[:3]:
    assert r["verified"] is True, r
assert rows[3].get("verified") is not True, rows[3]
# results.csv: the same rows, the good ones with their figures unchanged
c = list(csv.DictReader(open(d + "/results.csv")))
assert len(c) == 4, len(c)
for r, cr in zip(rows, c):
    assert cr["config_id"] == r["config_id"] and cr["rep"] == str(r["rep"])
    assert (cr["error"] == "") == (r.get("error") is None), cr
    if r.get("error") is None:
        for k in ("checksum", "bytes_out", "elapsed_s"):
            assert cr[k] == str(r[k]) or float(cr[k]) == r[k], (k, cr[k], r[k])
s = {x["config_id"]: x for x in csv.DictReader(open(d + "/summary.csv"))}
assert [x["n"] for x in s.values()] == ["2", "1"], s
PY
	[ -z "$(ls -A "$T/backing")" ] || die "left in the output fs: $(find "$T/backing")"
	umount_faultfs "$T/mnt"; trap - EXIT
}

for e in EIO ENOSPC; do
	t "bench_${e,,}_in_a_later_rep_keeps_earlier_rows" bench_keeps_earlier_rows "$e"
done

for s in $(strategies); do
	t "${s}_names_the_file_on_a_read_error" read_error_is_named "$s"
	t "${s}_names_the_file_on_a_write_eio" write_error_is_named "$s" EIO
	t "${s}_names_the_file_on_enospc" write_error_is_named "$s" ENOSPC
done
