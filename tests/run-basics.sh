#!/usr/bin/env bash
# iostrat run/gen/verify/list: what a user sees on good input.
. "$(dirname "$0")/lib.sh"

gen_is_deterministic_and_reused() {
	"$IOSTRAT" gen "$T/a" --preset big --scale 0.0005 --seed 7 >/dev/null
	"$IOSTRAT" gen "$T/b" --preset big --scale 0.0005 --seed 7 >/dev/null
	diff -r "$T/a" "$T/b" >/dev/null || die "same seed, different data"
	"$IOSTRAT" gen "$T/a" --preset big --scale 0.0005 --seed 7 | grep -q reused ||
		die "same parameters were regenerated"
	"$IOSTRAT" gen "$T/c" --preset big --scale 0.0005 --seed 8 >/dev/null
	! diff -r "$T/a" "$T/c" >/dev/null || die "other seed, same data"
	grep -q '"xxh3"' "$T/a/.iostrat-manifest.json" || die "no xxh3 in manifest"
	! LC_ALL=C grep -q '[^ -~]' "$T/a"/f* || die "non-printable data"
}

gen_presets_scale_to_size() {
	out=$("$IOSTRAT" gen "$T/s" --preset small --scale 0.001)
	echo "$out" | grep -q '10 files x 100 lines x 100 chars = 101000 bytes' || die "$out"
	out=$("$IOSTRAT" gen "$T/m" --preset medium-short --scale 0.001)
	echo "$out" | grep -q '4 files x 12500 lines x 20 chars' || die "$out"
	[ "$(find "$T/m" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)" -eq 4 ] || die "file count"
	[ "$(wc -l <"$T/m/f000000.txt")" -eq 12500 ] || die "line count"
}

# a data set of another shape in DIR is replaced, and gen says so (the
# same shape again: reused, nothing said)
gen_says_it_replaced_another_shape() {
	"$IOSTRAT" gen "$T/d" --files 2 --lines 10 --width 20 >/dev/null
	"$IOSTRAT" gen "$T/d" --files 3 --lines 10 --width 20 >/dev/null 2>"$T/err"
	grep -q 'd: held a data set of another shape (2 files x 10 lines x 20 chars, seed 1): replacing it' \
		"$T/err" || die "not said: $(cat "$T/err")"
	[ -e "$T/d/f000002.txt" ] || die "not replaced"
	"$IOSTRAT" gen "$T/d" --files 3 --lines 10 --width 20 >/dev/null 2>"$T/err"
	[ ! -s "$T/err" ] || die "reuse said something: $(cat "$T/err")"
}

# the header names every setting not at its default, spelt as the option
# (sizes as given), and nothing more for a plain run
run_header_names_settings_not_at_default() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 10 --width 20 >/dev/null
	h=$("$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache asis --bufsize 64k \
		--sink null --fadvise dontneed | head -1)
	[ "$h" = "stream: 2 files, 0.0 MB, threads 1, work 0, cache asis, fsync file, bufsize 64k, sink null, fadvise dontneed" ] ||
		die "header: $h"
	h=$("$IOSTRAT" run -s buffer "$T/in" "$T/o" -r 1 --cache asis | head -1)
	[ "$h" = "buffer: 2 files, 0.0 MB, threads 1, work 0, cache asis, fsync file" ] || die "plain: $h"
	if [ "$(id -u)" -eq 0 ] && h=$("$IOSTRAT" run -s buffer "$T/in" "$T/o" -r 1 --cache asis \
		--memory-max 64M 2>/dev/null | head -1); then
		case $h in *", memory-max 64M") ;; *) die "limited: $h" ;; esac
	fi
}

gen_refuses_foreign_directory() {
	mkdir "$T/x"; echo precious >"$T/x/keep"
	expect_fail 'not an iostrat data set' "$IOSTRAT" gen "$T/x" --preset small --scale 0.001
	[ "$(cat "$T/x/keep")" = precious ] || die "foreign file touched"
}

run_prints_summary_and_json() {
	"$IOSTRAT" gen "$T/in" --files 3 --lines 100 --width 50 >/dev/null
	out=$("$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 2)
	echo "$out" | grep -q 'elapsed  median' || die "no summary: $out"
	echo "$out" | grep -q 'verified' || die "not verified: $out"
	n=$("$IOSTRAT" run -s buffer "$T/in" "$T/out" --reps 3 --json | wc -l)
	[ "$n" -eq 3 ] || die "expected 3 json rows, got $n"
	"$IOSTRAT" run -s buffer "$T/in" "$T/out" --reps 1 --json >"$T/row"
	jq -e 'all(.schema, .elapsed_s, .user_s, .sys_s, .maxrss_kb, .checksum, .kernel,
		.resident_pct_before; . != null) and .verified == true and
		.bytes_in == 15300 and .bytes_out == 15300' "$T/row" >/dev/null || die "bad row: $(cat "$T/row")"
}

cold_cache_is_proven() {
	need_root
	"$IOSTRAT" gen "$T/in" --files 2 --lines 1000 --width 100 >/dev/null
	cat "$T"/in/* >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 1 --cache cold --json >"$T/r"
	jq -e '(.resident_pct_before | type) == "number" and .resident_pct_before < 1 and .cold_ok == true' "$T/r" >/dev/null ||
		die "cold not proven: $(cat "$T/r")"
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --reps 1 --cache warm --json >"$T/r"
	jq -e '.resident_pct_before > 99' "$T/r" >/dev/null ||
		die "warm not resident: $(cat "$T/r")"
}

null_strategy_writes_nothing() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 10 --width 10 >/dev/null
	"$IOSTRAT" run -s null "$T/in" "$T/out" --reps 1 --json | grep -q '"verified":null' || die "null verified?"
	! names_in "$T/out" | grep -qvx .iostrat-output || die "null wrote files"
}

verify_reports_first_difference() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 10 --width 10 >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --work 2 --reps 1 >/dev/null
	"$IOSTRAT" verify "$T/in" "$T/out" --work 2 | grep -q '^ok' || die "good output rejected"
	printf 'X' | dd of="$T/out/f000001.txt" bs=1 seek=13 conv=notrunc 2>/dev/null
	expect_fail 'f000001.txt: differs .* at byte 13' "$IOSTRAT" verify "$T/in" "$T/out" --work 2
}

list_and_help() {
	"$IOSTRAT" list | grep -q '^stream' || die "no stream"
	"$IOSTRAT" list | grep -q '^buffer' || die "no buffer"
	for c in run gen verify list; do
		"$IOSTRAT" $c --help | grep -q usage || die "$c --help"
	done
	"$IOSTRAT" --help | grep -q 'run ' || die "top help"
}

t gen_is_deterministic_and_reused
t gen_presets_scale_to_size
t gen_says_it_replaced_another_shape
t gen_refuses_foreign_directory
t run_header_names_settings_not_at_default
t run_prints_summary_and_json_rows run_prints_summary_and_json
t cold_cache_is_proven_by_residency cold_cache_is_proven
t null_strategy_writes_nothing_and_is_not_verified null_strategy_writes_nothing
t verify_reports_first_differing_file_and_offset verify_reports_first_difference
t list_and_help_work list_and_help
