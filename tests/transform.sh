#!/usr/bin/env bash
# Record transforms (docs/transform.md): every strategy that declares
# "records" (iostrat list --caps) runs every built-in (iostrat list
# --transforms) and the documented plug-in, verified against the
# reference and against an independent reading; a plug-in that does not
# keep the contract is refused in one line before anything runs.
. "$(dirname "$0")/lib.sh"

records_strategies() { "$IOSTRAT" list --caps | awk -F'\t' '$2 ~ /(^| )records( |$)/ { print $1 }'; }
builtins() { "$IOSTRAT" list --transforms | cut -f1; }

# three files: lines of many lengths, one without a final newline, an
# empty one
data() {
	"$IOSTRAT" gen "$T/in" --files 2 --lines 3000 --width 120 >/dev/null
	printf 'alpha\n\nbeta gamma\nno newline at the end' >"$T/in/last.txt"
	: >"$T/in/empty.txt"
}

# the plug-in of the docs, built against the tree's header
plugin() {
	need_cmd cc
	cc -O2 -Wall -Wextra -Werror -shared -fPIC -I"$TOP/include" -o "$T/tag.so" \
		"$TOP/docs/examples/transform-tag.c" || die "the documented plug-in does not build"
}

# run STRATEGY TRANSFORM OUT [ARGS]: one verified repetition, its row in OUT.json
run_one() {
	local s=$1 x=$2 out=$3
	shift 3
	"$IOSTRAT" run -s "$s" --transform "$x" -r 1 --cache asis "$@" "$T/in" "$out" --json \
		>"$out.json" 2>"$out.err" || die "$s --transform $x: $(tail -n 1 "$out.err")"
	jq -e '.verified == true and .error == null' "$out.json" >/dev/null ||
		die "$s --transform $x: not verified: $(jq -c '[.verified, .error]' "$out.json")"
}

every_records_strategy_verifies_every_builtin() {
	local s x n=0
	data
	for s in $(records_strategies); do
		for x in $(builtins); do
			[ "$x" != filter ] || x=filter:a
			run_one "$s" "$x" "$T/o-$s-${x%%:*}"
			n=$((n + 1))
		done
	done
	[ "$n" -ge 10 ] || die "only $n strategy-transform pairs ($(records_strategies | paste -sd' '))"
}

# hex, filter and the plug-in's outputs as python reads the inputs: not
# iostrat's reference, a second opinion
outputs_match_an_independent_reading() {
	local s
	data
	plugin
	for s in $(records_strategies); do
		run_one "$s" hex "$T/h-$s"
		run_one "$s" filter:beta "$T/f-$s"
		run_one "$s" "$T/tag.so:E-" "$T/g-$s"
		python3 - "$T/in" "$T/h-$s" "$T/f-$s" "$T/g-$s" <<'PY' || die "$s: $(cat "$T/py")"
import os, sys
src, hexd, filt, tag = sys.argv[1:]
bad = []
for f in sorted(n for n in os.listdir(src) if not n.startswith('.')):
    data = open(os.path.join(src, f), 'rb').read()
    parts = data.split(b'\n')
    recs = [(p, i < len(parts) - 1) for i, p in enumerate(parts)
            if not (i == len(parts) - 1 and p == b'')]
    nl = lambda keep: b'\n' if keep else b''
    want = {
        hexd: b''.join(p.hex().encode() + nl(k) for p, k in recs if p),  # empty out: dropped
        filt: b''.join(p + nl(k) for p, k in recs if b'beta' in p),
        tag: b''.join(b'E-' + p.upper() + nl(k) for p, k in recs if p),
    }
    for d, w in want.items():
        if open(os.path.join(d, f), 'rb').read() != w:
            bad.append(f"{os.path.basename(d)}/{f}")
open(os.path.join(os.path.dirname(src), 'py'), 'w').write(' '.join(bad))
sys.exit(1 if bad else 0)
PY
	done
}

# the study's XOR by name is the default: the same id and checksum
xor_by_name_changes_no_id_or_result() {
	data
	"$IOSTRAT" run -s stream -r 1 --cache asis --work 3 "$T/in" "$T/a" --json >"$T/a.json"
	"$IOSTRAT" run -s stream -r 1 --cache asis --work 3 --transform xor "$T/in" "$T/b" --json >"$T/b.json"
	[ "$(jq -r .config_id "$T/a.json")" = "$(jq -r .config_id "$T/b.json")" ] ||
		die "ids: $(jq -r .config_id "$T/a.json" "$T/b.json" | paste -sd' ')"
	[[ $(jq -r .config_id "$T/a.json") != *xf=* ]] || die "xor in the id"
	[ "$(jq -r .checksum "$T/a.json")" = "$(jq -r .checksum "$T/b.json")" ] || die "checksums differ"
}

plugin_row_names_it_version_and_hash() {
	data
	plugin
	run_one stream "$T/tag.so:E-" "$T/o"
	jq -e --arg p "$T/tag.so:E-" '.transform_spec == $p and .transform_version == 1 and
		(.transform | test("^tag\\.[0-9a-f]{8}:E-$")) and (.transform_hash | test("^[0-9a-f]{16}$")) and
		(.transform as $t | .config_id | contains("xf=" + $t))' "$T/o.json" >/dev/null ||
		die "row: $(jq -c '[.transform, .transform_spec, .transform_version, .transform_hash, .config_id]' "$T/o.json")"
}

# a plug-in source with FIELDS in its IOSTRAT_TRANSFORM_DEFINE (or a whole
# body given as $2) built to $T/$1.so
bad_plugin() {
	need_cmd cc
	printf '#include <string.h>\n#include <iostrat/transform.h>\n%s\n' "$2" >"$T/$1.c"
	cc -shared -fPIC -I"$TOP/include" -o "$T/$1.so" "$T/$1.c" || die "$1 does not build"
}

refused() { # WHAT MESSAGE TRANSFORM
	local err rc=0
	err=$("$IOSTRAT" run -s stream --transform "$3" -r 1 "$T/in" "$T/out-$1" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 0 ] || die "$1: accepted"
	[ "$(grep -c . <<<"$err")" -eq 1 ] || die "$1: not one line: $err"
	[[ $err == *"$2"* ]] || die "$1: $err"
	[ ! -e "$T/out-$1" ] || die "$1: left $T/out-$1"
}

plugins_that_break_the_contract_are_refused_in_one_line() {
	data
	bad_plugin abi 'static size_t m(size_t n) { return n; }
static ssize_t r(void *s, const unsigned char *i, size_t n, unsigned char *o) { (void)s; memcpy(o, i, n); return (ssize_t)n; }
__attribute__((visibility("default"))) const struct iostrat_transform iostrat_transform = { .abi = 99, .name = "x", .out_max = m, .record = r };'
	refused abi "transform ABI 99, this iostrat speaks 1" "$T/abi.so"
	bad_plugin nosym 'int nothing_here;'
	refused nosym "no symbol iostrat_transform" "$T/nosym.so"
	bad_plugin norecord 'static size_t m(size_t n) { return n; }
IOSTRAT_TRANSFORM_DEFINE(.name = "x", .out_max = m);'
	refused norecord "iostrat_transform is incomplete" "$T/norecord.so"
	refused notso "cannot load the transform" "$T/missing.so"
	refused builtin "transform 'nope': no such built-in (xor, filter" nope
	plugin
	refused badarg "transform tag: init('$(printf 'x%.0s' $(seq 70))'): Invalid argument" \
		"$T/tag.so:$(printf 'x%.0s' $(seq 70))"
	refused filterless "transform filter: init(''): Invalid argument" filter
}

# two reference runs that differ: the transform is not deterministic
nondeterministic_transform_refused() {
	data
	bad_plugin counter 'static unsigned long n;
static size_t m(size_t len) { (void)len; return 24; }
static ssize_t r(void *s, const unsigned char *i, size_t len, unsigned char *o) { (void)s; (void)i; (void)len; return (ssize_t)__builtin_snprintf((char *)o, 24, "%lu", n++); }
IOSTRAT_TRANSFORM_DEFINE(.name = "counter", .out_max = m, .record = r);'
	local err rc=0
	err=$("$IOSTRAT" run -s stream --transform "$T/counter.so" -r 1 "$T/in" "$T/o" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 0 ] || die "accepted"
	[[ $err == *"transform counter: two reference runs differ: it is not deterministic"* ]] || die "$err"
}

work_needs_the_xor() {
	data
	local err rc=0
	err=$("$IOSTRAT" run -s stream --transform hex --work 5 -r 1 "$T/in" "$T/o" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 0 ] || die "accepted"
	[ "$err" = "iostrat: work: 5 passes, but transform hex has none (only xor has)" ] || die "$err"
}

# a line longer than IOSTRAT_RECORD_MAX (16 MiB): an error naming the file
# and the bound, in every strategy that runs records
record_over_the_bound_is_named() {
	local s rc
	mkdir -p "$T/in"
	head -c $((17 << 20)) /dev/zero | tr '\0' 'a' >"$T/in/long.txt"
	for s in $(records_strategies); do
		rc=0
		"$IOSTRAT" run -s "$s" --transform hex -r 1 --cache asis "$T/in" "$T/o-$s" --json \
			>"$T/$s.json" 2>"$T/$s.err" || rc=$?
		[ "$rc" -ne 0 ] || die "$s: exit 0"
		jq -e '.error | test("long.txt.*transform hex: a record longer than IOSTRAT_RECORD_MAX \\(16 MiB\\)")' \
			"$T/$s.json" >/dev/null || die "$s: $(jq -r .error "$T/$s.json")"
	done
}

# a bench lists transforms like strategies: each its own cell
bench_lists_transforms_as_cells() {
	data
	printf '[t]\ndataset=%s\nstrategy=stream,buffer\ntransform=xor,hex,filter:beta\nreps=2\nmax_reps=2\ncache=asis\n' \
		"$T/in" >"$T/p.ini"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/res" >"$T/out" 2>&1 ||
		die "bench failed: $(tail -n 3 "$T/out")"
	[ "$(jq -r .config_id "$T/res/results.jsonl" | sort -u | wc -l)" -eq 6 ] ||
		die "configurations: $(jq -r .config_id "$T/res/results.jsonl" | sort -u | paste -sd' ')"
	jq -se 'all(.[]; .verified == true)' "$T/res/results.jsonl" >/dev/null || die "unverified rows"
	"$IOSTRAT" report "$T/res" >"$T/rep" 2>&1 || die "report failed: $(tail -n 2 "$T/rep")"
	{ grep -q 'xf=hex' "$T/rep" && grep -q 'xf=filter:beta' "$T/rep"; } ||
		die "report has no cell per transform: $(head -n 30 "$T/rep")"
}

# iostrat verify checks an output made with a transform against it
verify_takes_the_transform() {
	data
	run_one stream hex "$T/o"
	"$IOSTRAT" verify "$T/in" "$T/o" --transform hex >"$T/v" 2>&1 || die "verify: $(cat "$T/v")"
	grep -q '^ok: 4 files, .* bytes match the reference (hex, work 0)$' "$T/v" || die "$(cat "$T/v")"
	local rc=0
	"$IOSTRAT" verify "$T/in" "$T/o" >"$T/v" 2>&1 || rc=$?
	{ [ "$rc" -eq 1 ] && grep -q 'differs from the reference transform (xor, work 0) at byte 0' "$T/v"; } ||
		die "verified as the xor: rc $rc: $(cat "$T/v")"
}

t every_records_strategy_verifies_every_builtin
t outputs_match_an_independent_reading
t xor_by_name_changes_no_id_or_result
t plugin_row_names_it_version_and_hash
t plugins_that_break_the_contract_are_refused_in_one_line
t nondeterministic_transform_refused
t work_needs_the_xor
t record_over_the_bound_is_named
t bench_lists_transforms_as_cells
t verify_takes_the_transform
