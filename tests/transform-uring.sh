#!/usr/bin/env bash
# The io_uring pipeline with record transforms: every built-in verified
# against the reference at small and default chunks, threads and queue
# depths; lines longer than a chunk, a file without its final newline, an
# empty file, many files; an independent python3 check of hex and filter
# outputs; the XOR's checksums unchanged; --direct refused.
. "$(dirname "$0")/lib.sh"

# one repetition, one --json row on stdout
urun() { "$IOSTRAT" run -s uring "$T/in" "$T/out" --reps 1 --cache asis --fsync none --json "$@"; }

# stdin: --json rows; fails unless every row is verified
all_verified() { jq -se 'length > 0 and all(.verified == true)' >/dev/null; }

# three generated files, one without its final newline, an empty one, one
# that filter:zqz keeps nothing of
mixed_input() {
	"$IOSTRAT" gen "$T/in" --files 3 --lines 300 --width "${1:-120}" >/dev/null
	: >"$T/in/empty"
	printf 'first line\nno newline at the end' >"$T/in/tail"
	printf 'aaaa\nbbbb\n' >"$T/in/nomatch"
	printf 'zqz one\nnot this\nzqz two\n' >"$T/in/match"
}

every_builtin_at_chunk_4096() {
	mixed_input
	for x in hex filter:zqz hash hash4k; do
		for tq in "1 2" "4 16" "1 16" "4 2"; do
			read -r th qd <<<"$tq"
			urun --transform "$x" --chunk 4096 --threads "$th" --qd "$qd" | all_verified ||
				die "$x threads=$th qd=$qd not verified"
		done
		[ "$x" != filter:zqz ] || [ ! -s "$T/out/nomatch" ] || die "filter kept lines of nomatch"
	done
}

every_builtin_at_default_chunk() {
	mixed_input
	for x in hex filter:zqz hash hash4k; do
		for tq in "1 2" "4 16"; do
			read -r th qd <<<"$tq"
			urun --transform "$x" --threads "$th" --qd "$qd" | all_verified ||
				die "$x threads=$th qd=$qd not verified"
		done
	done
}

lines_longer_than_a_chunk() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 30 --width 10000 >/dev/null
	printf '%s' "$(head -c 20000 /dev/zero | tr '\0' z)" >"$T/in/long-tail"
	for x in hex filter:zzz hash hash4k; do
		urun --transform "$x" --chunk 4096 --threads 2 --qd 4 | all_verified ||
			die "$x not verified"
	done
}

many_files() {
	mkdir -p "$T/in"
	for i in $(seq 1 300); do printf 'file %d\nline two %d\n' "$i" "$i" >"$T/in/f$i"; done
	for i in 1 2 3; do : >"$T/in/e$i"; done
	for fs in none file end; do
		urun --transform hex --chunk 4096 --threads 4 --qd 16 --fsync $fs | all_verified ||
			die "--fsync $fs: not verified"
	done
	[ "$(names_in "$T/out" | grep -vc '^\.')" -eq 303 ] || die "expected 303 outputs"
}

# Not the reference's code: python3 computes hex and filter outputs.
python_checks_hex_and_filter() {
	need_cmd python3
	mixed_input 3000
	urun --transform hex --chunk 4096 --threads 4 --qd 2 >/dev/null || die "hex run failed"
	python3 - "$T/in" "$T/out" hex <<'PY' || die "hex outputs differ"
import os, sys
src, dst, _ = sys.argv[1:]
for n in (n for n in os.listdir(src) if not n.startswith('.')):
    data = open(os.path.join(src, n), 'rb').read()
    want = b''.join(l.hex().encode() + b'\n' for l in data.split(b'\n')[:-1])
    last = data.split(b'\n')[-1]
    want += last.hex().encode() if last else b''
    assert open(os.path.join(dst, n), 'rb').read() == want, n
PY
	urun --transform filter:zqz --chunk 4096 --threads 4 --qd 2 >/dev/null || die "filter run failed"
	python3 - "$T/in" "$T/out" <<'PY' || die "filter outputs differ"
import os, sys
src, dst = sys.argv[1:]
for n in (n for n in os.listdir(src) if not n.startswith('.')):
    lines = open(os.path.join(src, n), 'rb').read().split(b'\n')
    want = b''.join(l + b'\n' for l in lines[:-1] if b'zqz' in l)
    want += lines[-1] if b'zqz' in lines[-1] else b''
    assert open(os.path.join(dst, n), 'rb').read() == want, n
PY
}

# The XOR keeps its path: the same checksum as stream's at W=0 and W=100.
xor_checksums_match_stream() {
	mixed_input
	for w in 0 100; do
		a=$(urun --work $w --chunk 4096 --threads 2 | jq -r .checksum)
		b=$("$IOSTRAT" run -s stream "$T/in" "$T/o2" --reps 1 --cache asis --json --work $w | jq -r .checksum)
		[[ $a =~ ^[0-9a-f]{16}$ ]] || die "W=$w: no checksum: $a"
		[ "$a" = "$b" ] || die "W=$w: uring $a, stream $b"
	done
}

sink_null_writes_nothing() {
	mixed_input
	mkdir -p "$T/out"
	urun --transform hex --sink null --chunk 4096 >"$T/row" || die "run failed"
	! names_in "$T/out" | grep -qvx .iostrat-output || die "files written: $(ls -A "$T/out")"
	[ "$(jq -r .bytes_out <"$T/row")" -eq 0 ] || die "bytes_out not 0"
}

direct_with_a_record_transform_is_refused() {
	mixed_input
	expect_fail '^iostrat: --direct: not with transform hex' urun --transform hex --direct
}

# Peak RSS is the pool and the output buffers plus the process's own
# baseline (the null strategy measures it): 24 MB in, 48 MB out of hex.
memory_bounded_by_pool_and_outputs() {
	skip_under_sanitizers "RSS means nothing under sanitizers"
	"$IOSTRAT" gen "$T/in" --files 1 --lines 24576 --width 1023 >/dev/null
	base=$("$IOSTRAT" run -s null "$T/in" "$T/o0" --reps 1 --json | jq -r .maxrss_kb)
	urun --transform hex --chunk 256k --qd 4 --threads 2 >"$T/row" || die "run failed"
	all_verified <"$T/row" || die "not verified"
	rss=$(jq -r .maxrss_kb <"$T/row")
	pool=$(jq -r .pool_bytes <"$T/row")
	outs=$(jq -r .out_bytes <"$T/row")
	[ "$outs" -le $((2 * pool + 6 * 4096)) ] || die "out_bytes $outs for a pool of $pool"
	limit=$((base + (pool + outs) / 1024 + 4096))
	[ "$rss" -le "$limit" ] || die "maxrss ${rss} KiB > ${limit} KiB (pool $pool B, outputs $outs B, base $base KiB)"
}

# A plug-in whose record() fails in the repetition's child only (the
# reference runs in the parent): -EIO on a line holding BOOM.
boom_plugin() {
	need_cmd cc
	cat >"$T/boom.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "iostrat/transform.h"
static pid_t parent;
__attribute__((constructor)) static void at_load(void) { parent = getpid(); }
static size_t out_max(size_t len) { return len; }
static ssize_t rec(void *s, const unsigned char *in, size_t len, unsigned char *out)
{
	(void)s;
	if (getpid() != parent && memmem(in, len, "BOOM", 4))
		return -EIO;
	memcpy(out, in, len);
	return (ssize_t)len;
}
IOSTRAT_TRANSFORM_DEFINE(.name = "boom", .version = 1, .kind = IOSTRAT_RECORD_LINE,
			 .out_max = out_max, .record = rec);
C
	cc -shared -fPIC -I"$TOP/include" -o "$T/boom.so" "$T/boom.c" || skip "cannot build a plug-in"
	mkdir -p "$T/probe"
	: >"$T/probe/empty"
	if "$IOSTRAT" run -s stream --transform "$T/boom.so" "$T/probe" "$T/probe-out" --reps 1 \
		--cache asis 2>&1 >/dev/null | grep -q 'no such built-in'; then
		skip "iostrat run does not load a plug-in here (its profile names the transform by id)"
	fi
}

transform_error_names_the_file_and_leaves_no_output() {
	boom_plugin
	"$IOSTRAT" gen "$T/in" --files 3 --lines 2000 --width 100 >/dev/null
	{ head -c 100000 /dev/zero | tr '\0' a; printf '\nBOOM here\nafter\n'; } >"$T/in/f000001.txt"
	expect_fail 'in/f000001.txt: transform boom: Input/output error' \
		"$IOSTRAT" run -s uring --transform "$T/boom.so" "$T/in" "$T/out" --reps 1 \
		--cache asis --chunk 4096 --threads 4 --qd 8
	[ ! -e "$T/out/f000001.txt" ] || die "the failed file's output is there"
	[ -z "$(find "$T/out" -name '.*iostrat-tmp')" ] || die "temp files left: $(ls -A "$T/out")"
}

t uring_runs_every_builtin_at_chunk_4096_threads_and_qd every_builtin_at_chunk_4096
t uring_runs_every_builtin_at_the_default_chunk every_builtin_at_default_chunk
t uring_lines_longer_than_a_4096_byte_chunk lines_longer_than_a_chunk
t uring_300_files_and_empty_ones_through_hex_every_fsync many_files
t uring_hex_and_filter_outputs_match_python python_checks_hex_and_filter
t uring_xor_checksums_match_stream_at_w0_and_w100 xor_checksums_match_stream
t uring_record_transform_sink_null_writes_nothing sink_null_writes_nothing
t uring_peak_rss_bounded_by_pool_and_output_buffers memory_bounded_by_pool_and_outputs
t uring_direct_with_a_record_transform_is_refused direct_with_a_record_transform_is_refused
t uring_transform_error_names_the_file_and_leaves_no_output transform_error_names_the_file_and_leaves_no_output
