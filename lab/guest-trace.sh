# The kernel view (eBPF) on this guest's kernel: sourced by guest-checks.sh
# (which has t, die, skip, fact, rows, $W), copied in by check.sh.
#
# Every figure must come from some source on every lab kernel, and be right:
# a cold run misses, a warm one hits, a sequential read is sequential, and
# two sources of the same figure agree.  What each kernel gave lands in
# FACT lines (trace_sources, hit_cold, hit_warm, seq_loop, agree, bt_*).
# shellcheck shell=bash

KV=$W/kview
mkdir -p "$KV"

# 8 files of 2 MB: enough pages that a few hits (the first read of a file
# racing its readahead) stay far inside the 5% bounds
kv_data() {
	[ -d "$KV/ds" ] || "$IOSTRAT" gen "$KV/ds" --files 8 --lines 2000 --width 1000 >/dev/null ||
		die "gen failed"
}

# kv_run MODE CACHE OUT: one traced, verified buffer repetition (its row in
# OUT), the probes' source preferred by MODE ("" = the default order)
kv_run() {
	rm -rf "$KV/out"
	IOSTRAT_TRACE_MODE=$1 "$IOSTRAT" run -s buffer "$KV/ds" "$KV/out" -r 1 --cache "$2" \
		--trace --json >"$3.all" 2>"$3.err" || die "run --trace --cache $2 (${1:-default}): exit $?: $(tail -n 1 "$3.err")"
	# the first traced repetition's row: the timed one beside it is untraced
	jq -c 'select(.role == "traced")' "$3.all" | head -n 1 >"$3"
	[ "$(rows "$3" .traced)" = true ] || die "run --trace --cache $2 (${1:-default}): untraced: $(head -n 1 "$3.err")"
	[ "$(rows "$3" .verified)" = true ] || die "run --trace --cache $2: not verified"
}

# kv_expect JSON FACT SHOW COND WHAT BOUND: the row's SHOW (a jq
# expression) as the fact FACT; die "WHAT SHOWN, expected BOUND" unless
# the jq condition COND holds for JSON
kv_expect() {
	local r
	r=$(rows "$1" "$3")
	fact "$2" "$r"
	jq -e "$4" "$1" >/dev/null || die "$5 $r, expected $6"
}

# what a page-cache check shows of its row
KV_HITS='"\(.pc_hit_ratio) hits=\(.pc_hits) misses=\(.pc_misses) \(.pc_source)"'

kv_sources() {
	kv_data
	"$IOSTRAT" trace --json -o "$KV/src.json" -- cat "$KV/ds/f000000.txt" >/dev/null 2>"$KV/src.err" ||
		die "iostrat trace: exit $?: $(head -n 1 "$KV/src.err")"
	local s
	s=$(rows "$KV/src.json" '"blk=\(.blk_source) pc=\(.pc_source) ra=\(.ra_source)"')
	fact trace_sources "$s"
	# each figure's probes, as the text report names them (block; page-cache
	# reads, insertions, readahead)
	"$IOSTRAT" trace -o "$KV/src.txt" -- cat "$KV/ds/f000000.txt" >/dev/null 2>&1 &&
		fact trace_probes "$(sed -n 's/.*; \(probes: [^)]*\)).*/\1/p; s/.*; \(reads: [^)]*\)).*/\1/p' "$KV/src.txt" | paste -sd';')"
	[[ $s != *none* ]] || die "a figure without a source ($s): $(head -n 1 "$KV/src.err")"
	# the figures the kernel cannot give, one line each (none expected)
	! grep -q 'none (' "$KV/src.err" || die "$(grep 'none (' "$KV/src.err" | head -n 1)"
}
t "trace, every figure has a source" kv_sources

kv_cold() {
	kv_data
	kv_run "" cold "$KV/cold.json"
	kv_expect "$KV/cold.json" hit_cold "$KV_HITS" \
		'.pc_hit_ratio != null and .pc_hit_ratio <= 0.05 and .pc_misses > 0' \
		"cold hit ratio" "<= 0.05"
}
t "trace, cold run misses (hit ratio <= 5%)" kv_cold

kv_warm() {
	kv_data
	kv_run "" warm "$KV/warm.json"
	kv_expect "$KV/warm.json" hit_warm "$KV_HITS" \
		'.pc_hit_ratio != null and .pc_hit_ratio >= 0.95 and .pc_hits > 0' \
		"warm hit ratio" ">= 0.95"
}
t "trace, warm run hits (hit ratio >= 95%)" kv_warm

# A 16 MiB file on an ext4 of its own loop device (direct I/O: the requests
# reach the loop device's queue), read cold once: some 64 requests of the
# readahead's size (64 MiB took 38 s of TCG for the same answer).
kv_seq() {
	with_loop_ext4 "$T/m" 100
	dd if=/dev/urandom of="$T/m/file" bs=1M count=16 status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/seq.json" -- cat "$T/m/file" >/dev/null 2>"$T/seq.err" ||
		die "iostrat trace: exit $?: $(head -n 1 "$T/seq.err")"
	kv_expect "$T/seq.json" seq_loop '"\(.seq_pct_read) reqs=\(.blk_read_reqs) \(.blk_source)"' \
		'.blk_read_reqs > 10 and .seq_pct_read >= 90' \
		"sequential read: seq_pct_read" ">= 90"
}
t "trace, sequential read on a loop device (seq_pct >= 90)" kv_seq

# Where a figure has a second source here (6.12: tp_btf and fentry; 5.10
# and 6.1: fentry and kprobe), both count the same workload within 2% of
# the pages it asked for: hits and misses, cold and warm.
kv_agree() {
	kv_data
	local base mode c n=0 what=""
	for c in cold warm; do
		# the default source's run: the cold or warm check's, traced and
		# verified; run again if that check did not get that far
		if jq -e '.traced and .verified' "$KV/$c.json" >/dev/null 2>&1; then
			cp "$KV/$c.json" "$KV/a-$c.json"
		else
			kv_run "" "$c" "$KV/a-$c.json"
		fi
		base=$(rows "$KV/a-$c.json" .pc_source)
		for mode in tracepoint fentry kprobe; do
			kv_run "$mode" "$c" "$KV/a-$c-$mode.json"
			[ "$(rows "$KV/a-$c-$mode.json" .pc_source)" != "$base" ] || continue
			n=$((n + 1))
			what+=" $c:$base/$(rows "$KV/a-$c-$mode.json" .pc_source)"
			jq -e -n --slurpfile a "$KV/a-$c.json" --slurpfile b "$KV/a-$c-$mode.json" '
				def fabs: if . < 0 then -. else . end;
				(($a[0].pc_requested + $b[0].pc_requested) / 2) as $req |
				($a[0].pc_hits - $b[0].pc_hits | fabs) <= 0.02 * $req and
				($a[0].pc_misses - $b[0].pc_misses | fabs) <= 0.02 * $req' >/dev/null ||
				die "$c, $base vs $mode: hits $(rows "$KV/a-$c.json" .pc_hits) vs $(rows "$KV/a-$c-$mode.json" .pc_hits), misses $(rows "$KV/a-$c.json" .pc_misses) vs $(rows "$KV/a-$c-$mode.json" .pc_misses)"
		done
	done
	fact agree "${what# }"
	[ "$n" -gt 0 ] || skip "one page-cache source only on this kernel ($base)"
}
t "trace, two sources agree within 2%" kv_agree

# The request-latency probe against bpftrace's ebpf/reqlat.bt on this
# kernel (tests/reqlat.sh does the same on the host): a cold 16 MiB direct
# read of a loop ext4, the request count within 2%, the medians of queue
# and device time within a quarter plus 10 us.  The programs on one
# tracepoint run in the order they attached, each timestamp late by the
# run time of those before it: iostrat's probes attach first (bpftrace is
# the traced command), so bpftrace's per-request printf, which under TCG
# outgrew the tolerance, delays neither of iostrat's timestamps.  Where
# bpftrace cannot run the script, the fact says why and the check is
# skipped.
kv_reqlat() {
	need_cmd bpftrace
	with_loop_ext4 "$T/r" 100
	dd if=/dev/urandom of="$T/r/file" bs=1M count=16 status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
	local mm kdev why
	mm=$(cat "/sys/block/$(basename "$LOOPDEV")/dev")
	kdev=$(( ${mm%%:*} << 20 | ${mm##*:} ))
	# a guest is thrown away after its checks: tracefs mounted for good
	[ -e /sys/kernel/tracing/events ] || mount -t tracefs tracefs /sys/kernel/tracing ||
		skip "tracefs is not mounted and cannot be mounted"
	printf 'exec dd if="%s" of=/dev/null bs=1M iflag=direct status=none\n' "$T/r/file" >"$T/rl.sh"
	if ! timeout 300 "$IOSTRAT" trace --json -d "$T/r" -o "$T/rl.json" -- \
		bpftrace "$LAB_IN/ebpf/reqlat.bt" "$kdev" 1 -c "/bin/sh $T/rl.sh" >"$T/rl.bt" 2>&1 ||
		! grep -q '^rl read ' "$T/rl.bt"; then
		why=$(grep -v MEMLOCK "$T/rl.bt" | grep -m1 -E 'ERROR|error' | sed 's/^[^ ]* //' | cut -c1-100 || true)
		fact reqlat_bt "${why:-no request lines}"
		[ -n "$why" ] || die "bpftrace printed no request: $(head -n 3 "$T/rl.bt" | tr '\n' ' ')"
		skip "bpftrace cannot run reqlat.bt here: $why"
	fi
	python3 - "$T/rl.bt" "$T/rl.json" >"$T/rl.cmp" 2>&1 <<'PY' ||
import json, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("rl read ")]
r = json.load(open(sys.argv[2]))
q = statistics.median(int(x[2]) for x in rows)
d = statistics.median(int(x[3]) for x in rows)
print(f"reqs {r['rl_reqs']}/{len(rows)} q50 {r['q_read_p50_us']:.1f}/{q:g} "
      f"d50 {r['d_read_p50_us']:.1f}/{d:g} us ({r['rl_source']})")
ok = (abs(r["rl_reqs"] - len(rows)) <= max(1, 0.02 * len(rows)) and
      abs(r["q_read_p50_us"] - q) <= 0.25 * q + 10 and
      abs(r["d_read_p50_us"] - d) <= 0.25 * d + 10)
sys.exit(0 if ok else 1)
PY
		{ fact reqlat_bt "$(tail -n 1 "$T/rl.cmp")"; die "reqlat vs bpftrace: $(tail -n 1 "$T/rl.cmp")"; }
	fact reqlat_bt "$(cat "$T/rl.cmp")"
}
t "trace, request latency agrees with bpftrace" kv_reqlat

# Each bpftrace script of ebpf/ runs (attaches, ends after a second), or
# bpftrace stops with one line naming the attach point this kernel lacks.
kv_bpftrace() {
	need_cmd bpftrace
	local s b name why bad=""
	for s in "$LAB_IN"/ebpf/*.bt; do
		name=$(basename "$s" .bt)
		b=$T/$name.bt
		{ cat "$s"; printf '\ninterval:s:1 { exit(); }\n'; } >"$b"
		timeout 120 bpftrace "$b" 0 >"$b.out" 2>&1 || true # its output says
		if grep -q '^Attaching [0-9]* probe' "$b.out" && ! grep -v MEMLOCK "$b.out" | grep -q ERROR; then
			fact "bt_$name" runs
			continue
		fi
		why=$(grep -v MEMLOCK "$b.out" | grep ERROR || true)
		[ -n "$why" ] || why=$(grep -v MEMLOCK "$b.out" | grep . | head -n 1 || true)
		# without the script's path: "ERROR: tracepoint not found: ..."
		fact "bt_$name" "$(printf '%s' "$why" | head -n 1 | sed 's/^[^ ]* //' | cut -c1-100)"
		# one line that names what is missing, nothing else
		if [ "$(printf '%s\n' "$why" | grep -c .)" -ne 1 ] ||
			! printf '%s' "$why" | grep -qiE 'not found|does not exist|no such|unknown'; then
			bad+=" $name: $(grep -v MEMLOCK "$b.out" | head -n 2 | tr '\n' ' ')"
		fi
	done
	[ -z "$bad" ] || die "${bad# }"
}
t "trace, bpftrace scripts run or say why not" kv_bpftrace
