#!/usr/bin/env bash
# Record transforms (--transform) through direct (qd 1 and 2) and mmap: every
# built-in verified, outputs checked independently (python3), exact output
# lengths, records crossing chunks, --mmap-out refused, the XOR unchanged.
# The cases every record strategy shares (no final newline, an empty file,
# sink null) run for each that declares records (caps.inc).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/caps.inc"

# A data set in $T/in: generated lines, a file without a final newline, an
# empty file, lines longer than every chunk (direct's 1 MiB default too), a
# file filter:KEEP keeps none of, empty lines (hex drops them: output 0).
mkdata() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 300 --width 80 >/dev/null || die "gen failed"
	printf 'KEEP one\n\nlast KEEP line, no newline' >"$T/in/nonl"
	: >"$T/in/empty"
	printf 'abc\ndef\n' >"$T/in/nomatch"
	python3 -c "import sys; sys.stdout.write('a' * 1200000 + '\nKEEP short\n' + 'b' * 5000 + 'KEEP\n' + 'c' * 300000)" >"$T/in/long"
}

# run_cfg "STRAT OPTIONS..." TRANSFORM: run_ok with a configuration in one word
run_cfg() {
	local -a a
	read -ra a <<<"$1"
	run_ok "${a[0]}" "$2" "${a[@]:1}"
}

# run_ok STRAT TRANSFORM ARGS...: one verified run into $T/out (its row in $ROW)
run_ok() {
	local s=$1 tr=$2
	shift 2
	rm -rf "$T/out"
	ROW=$("$IOSTRAT" run -s "$s" --transform "$tr" -r 1 --cache asis --fsync none \
		"$T/in" "$T/out" --json "$@") || die "$s $tr $*: run failed"
	[ "$(jq -r .verified <<<"$ROW")" = true ] || die "$s $tr $*: not verified: $ROW"
}

# py_check TRANSFORM: each output in $T/out is what python3 makes of its
# input (hex: a line as lowercase hex; filter:TEXT: the lines holding TEXT;
# a line's newline kept when it had one; an empty output drops the line).
py_check() {
	python3 - "$1" "$T/in" "$T/out" <<'PY'
import os, sys
tr, ind, outd = sys.argv[1:]
def run(data):
    lines = data.split(b'\n')
    out = []
    for i, l in enumerate(lines):
        nl = b'\n' if i < len(lines) - 1 else b''
        if i == len(lines) - 1 and not l:
            break
        o = l.hex().encode() if tr == 'hex' else (l if tr[7:].encode() in l else b'')
        out.append(o + nl if o else b'')
    return b''.join(out)
bad = [f for f in sorted(os.listdir(ind)) if not f.startswith('.') and
       open(os.path.join(outd, f), 'rb').read() != run(open(os.path.join(ind, f), 'rb').read())]
sys.exit('python3 disagrees on: ' + ' '.join(bad) if bad else 0)
PY
}

direct_runs_every_builtin_verified() {
	mkdata
	for tr in hex filter:KEEP hash hash4k; do
		for qd in 1 2; do
			run_ok direct "$tr" --qd "$qd"
			run_ok direct "$tr" --qd "$qd" --chunk 4096 --threads 2
			[ "$tr" != filter:KEEP ] || [ ! -s "$T/out/nomatch" ] ||
				die "qd $qd: filter kept a line of nomatch"
		done
	done
}

mmap_runs_every_builtin_verified() {
	mkdata
	for tr in hex filter:KEEP hash hash4k; do
		run_ok mmap "$tr"
		run_ok mmap "$tr" --chunk 4096 --threads 2
		run_ok mmap "$tr" --chunk 100
		[ "$tr" != filter:KEEP ] || [ ! -s "$T/out/nomatch" ] || die "filter kept a line of nomatch"
	done
}

hex_and_filter_outputs_match_python() {
	need_cmd python3
	mkdata
	for tr in hex filter:KEEP; do
		for cfg in "direct --qd 1" "direct --qd 2 --chunk 4096" "mmap" "mmap --chunk 4096"; do
			run_cfg "$cfg" "$tr"
			py_check "$tr" || die "$cfg $tr"
		done
	done
}

# The lengths are exact: no block-rounded output, no lost tail.
direct_output_length_exact_not_block_rounded() {
	mkdata
	for qd in 1 2; do
		run_ok direct hex --qd "$qd" --chunk 4096
		[ "$(stat -c %s "$T/out/nonl")" = 69 ] || die "qd $qd: nonl is $(stat -c %s "$T/out/nonl") bytes, not 69"
		[ "$(stat -c %s "$T/out/long")" = 3010031 ] || die "qd $qd: long is $(stat -c %s "$T/out/long") bytes"
		run_ok direct hash4k --qd "$qd"
		[ "$(stat -c %s "$T/out/long")" = 5888 ] || # 368 records of 1505017 bytes
			die "qd $qd: hash4k of long is $(stat -c %s "$T/out/long") bytes"
	done
}

no_final_newline_and_empty_file_kept_as_they_are() {
	mkdata
	for s in $(strategies_with records); do
		run_ok "$s" filter:KEEP
		[ "$(cat "$T/out/nonl")" = "KEEP one
last KEEP line, no newline" ] || die "$s: nonl: $(cat "$T/out/nonl")"
		[ "$(tail -c 1 "$T/out/nonl")" = e ] || die "$s: a newline was added"
		[ -e "$T/out/empty" ] || die "$s: no empty output"
		[ ! -s "$T/out/empty" ] || die "$s: empty output not empty"
	done
}

lines_longer_than_the_chunk_carried() {
	mkdata
	for cfg in "direct --qd 1 --chunk 4096" "direct --qd 2 --chunk 4096" "mmap --chunk 4096"; do
		run_cfg "$cfg" filter:KEEP
		[ "$(sed -n 2p "$T/out/long" | wc -c)" = 5005 ] || die "$cfg: the 5000-byte line"
		[ "$(wc -l <"$T/out/long")" = 2 ] || die "$cfg: $(wc -l <"$T/out/long") lines kept, not 2"
	done
}

sink_null_runs_the_transform() {
	mkdata
	for s in $(strategies_with records); do
		ROW=$("$IOSTRAT" run -s "$s" --transform hex -r 1 --cache asis "$T/in" "$T/out" \
			--sink null --json) || die "$s sink null failed"
		[ "$(jq -r .bytes_in <<<"$ROW")" -gt 1500000 ] || die "$s: not all read: $ROW"
	done
}

mmap_out_with_record_transform_refused_in_one_line() {
	mkdata
	expect_fail "^iostrat: --mmap-out: the output is mapped at the input's size, and transform hex's output size" \
		"$IOSTRAT" run -s mmap --mmap-out --transform hex -r 1 --cache asis "$T/in" "$T/out"
	[ ! -e "$T/out" ] || [ -z "$(names_in "$T/out")" ] || die "output written"
}

# The XOR (default transform) through direct and mmap: the same checksum
# column as stream's.
xor_checksums_unchanged() {
	local want got
	local -a a
	mkdata
	for w in 0 100; do
		want=$("$IOSTRAT" run -s stream "$T/in" "$T/out" --work $w -r 1 --cache asis --json | jq -r .checksum)
		[ -n "$want" ] || die "no stream checksum"
		[ "$want" != null ] || die "no stream checksum"
		for cfg in "direct --qd 1" "direct --qd 2 --chunk 4096" "mmap" "mmap --mmap-out"; do
			read -ra a <<<"$cfg"
			got=$("$IOSTRAT" run -s "${a[0]}" "${a[@]:1}" "$T/in" "$T/out" --work $w -r 1 \
				--cache asis --json | jq -r .checksum)
			[ "$got" = "$want" ] || die "$cfg w=$w: checksum $got, stream's $want"
		done
	done
}

# Truncating the input while mmap has it mapped, with a record transform:
# one clear line, no crash, no output (the SIGBUS guard on the bounce copy).
# The run's child is stopped once its output exists (its size was read),
# the input truncated, the child continued; bigger files if it won the race
# (it ended, or succeeded: it had read the file before it was stopped).
shrink_records_once() {
	local size=$1 pid child
	rm -rf "$T/in" "$T/out"
	mkdir -p "$T/in"
	yes qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq | head -c "$size" >"$T/in/f"
	"$IOSTRAT" run -s mmap --transform hex "$T/in" "$T/out" --bufsize 4k --reps 1 \
		--cache asis --fsync none >/dev/null 2>"$T/err" &
	pid=$!
	until [ -e "$T/out/.f.iostrat-tmp" ] || ! kill -0 $pid 2>/dev/null; do :; done
	child=$(pgrep -P $pid) || true
	[ -n "$child" ] && kill -STOP "$child" 2>/dev/null
	if [ -z "$child" ] || [ ! -e "$T/out/.f.iostrat-tmp" ]; then
		[ -n "$child" ] && kill -CONT "$child" 2>/dev/null
		wait $pid || true
		return 2
	fi
	truncate -s 100000 "$T/in/f"
	kill -CONT "$child"
	wait $pid || return 1
	return 2 # it had read the whole file before the stop
}

mmap_records_file_shrinking_while_mapped_is_an_error() {
	local size err rc
	need_cmd pgrep
	for size in 2000000 8000000 15000000 15000000 15000000; do
		rc=0
		shrink_records_once $size || rc=$?
		[ $rc -eq 2 ] || break
	done
	[ $rc -ne 2 ] || die "the run always finished before the truncate"
	err=$(cat "$T/err")
	grep -q "f: file shrank while mapped ($size bytes mapped, now 100000)" <<<"$err" ||
		die "unclear error: $err"
	! grep -qi 'signal' <<<"$err" || die "died of a signal: $err"
	[ "$(grep -c . <<<"$err")" -le 2 ] || die "more than one error line: $err"
	[ ! -e "$T/out/f" ] || die "output left"
	[ ! -e "$T/out/.f.iostrat-tmp" ] || die "partial output left"
}

t direct_runs_every_builtin_verified
t mmap_runs_every_builtin_verified
t hex_and_filter_outputs_match_python
t direct_output_length_exact_not_block_rounded
t no_final_newline_and_empty_file_kept_as_they_are
t lines_longer_than_the_chunk_carried
t sink_null_runs_the_transform
t mmap_out_with_record_transform_refused_in_one_line
t xor_checksums_unchanged
t mmap_records_file_shrinking_while_mapped_is_an_error
