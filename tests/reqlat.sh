#!/usr/bin/env bash
# The request-latency probe (ebpf/reqlat.bpf.c): queue and device time per
# request, the depth in flight and Little's law, io_uring submission to
# completion, the run's own share of the disk's requests; checked on a
# fresh ext4 on a loop device, and against bpftrace (ebpf/reqlat.bt).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace.inc"

# Little's law within 0.8-1.25: measured 0.87-1.20 across runs here, the
# window's edges (requests cut by its start and end) and load moving it
traced_direct_run_has_queue_device_and_depth_columns() {
	setup_fs
	"$IOSTRAT" gen "$T/m/in" --files 2 --lines 100000 --width 100 >/dev/null
	"$IOSTRAT" run -s direct "$T/m/in" "$T/m/out" --reps 1 --cache asis --qd 2 \
		--trace --json >"$T/rows" 2>"$T/err" || die "run failed: $(cat "$T/err")"
	jq -se '[.[] | select(.role == "traced")] | length >= 1 and all(.[];
		.rl_scope == "own" and .rl_reqs > 0 and .d_read_p50_us > 0 and
		.d_write_p50_us > 0 and .q_read_p50_us != null and .d_read_p999_us >= .d_read_p50_us
		and .own_reqs > 0 and .own_share > 0 and .own_share <= 1 and
		.depth_mean > 0 and .depth_max >= 1 and .little_ratio > 0.8 and
		.little_ratio < 1.25 and (.d_hist | test("^[0-9]+:[0-9]+")))' \
		"$T/rows" >/dev/null || die "rows: $(cat "$T/rows")"
}

uring_requests_have_submission_to_completion_latency() {
	need_cmd fio
	setup_fs
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- fio --name=u \
		--filename="$F" --rw=randread --bs=4k --size=64m --io_size=8m \
		--ioengine=io_uring --iodepth=8 --direct=1 --output=/dev/null
	# 8 MiB in 4 KiB reads: 2048 of them, each one request of the ring
	check "$T/r.json" '(uring_reqs == 2048 and uring_p50_us > 0 and
		uring_p99_us >= uring_p50_us and rl_reqs >= 2048)'
}

# Another process reading the same disk: its requests count for the disk
# (depth, own_share's whole), not for the command's own.
others_requests_lower_the_own_share() {
	setup_fs
	dd if=/dev/urandom of="$T/m/other" bs=1M count=64 status=none
	sync
	# seconds of small direct reads, begun before the traced command
	(for _ in 1 2 3; do
		dd if="$T/m/other" of=/dev/null bs=4k iflag=direct status=none
	done) &
	local bg=$!
	sleep 0.2
	"$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- \
		dd if="$F" of=/dev/null bs=1M iflag=direct status=none
	wait "$bg"
	check "$T/r.json" '(own_reqs >= 64 and own_share < 0.9 and
		rl_reqs == own_reqs)'
}

# The same requests through bpftrace: the count within 2%, the medians of
# queue and device time within a quarter (the probe's histogram slots are
# a quarter of a power of two wide) plus 10 us.  The programs on one
# event run in the order they attached, so iostrat's probes attach first
# and bpftrace is the traced command: bpftrace's per-request printf then
# delays none of iostrat's timestamps (docs/kernel-view.md).
request_latency_matches_bpftrace() {
	need_cmd bpftrace
	need_tracefs
	setup_fs
	cat >"$T/work.sh" <<EOF
exec dd if="$F" of=/dev/null bs=1M iflag=direct status=none
EOF
	with_tracefs "$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- \
		bpftrace "$TOP/ebpf/reqlat.bt" "$KDEV" 1 -c "/bin/sh $T/work.sh" >"$T/bt.out" 2>&1 ||
		die "bpftrace under iostrat trace failed: $(tail -n 3 "$T/bt.out")"
	python3 - "$T/bt.out" "$T/r.json" <<'PY' || die "$(cat "$T/cmp")"
import json, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("rl read ")]
r = json.load(open(sys.argv[2]))
out = open(sys.argv[1].replace("bt.out", "cmp"), "w")
if not rows:
    out.write("no requests from bpftrace\n"); sys.exit(1)
q = statistics.median(int(x[2]) for x in rows)
d = statistics.median(int(x[3]) for x in rows)
print(f"bpftrace: {len(rows)} reads, queue p50 {q} us, device p50 {d} us; "
      f"iostrat: {r['rl_reqs']}, {r['q_read_p50_us']:.1f} us, {r['d_read_p50_us']:.1f} us")
out.write(f"bpftrace {len(rows)} {q} {d}; iostrat {r['rl_reqs']} "
          f"{r['q_read_p50_us']} {r['d_read_p50_us']}\n")
ok = (abs(r["rl_reqs"] - len(rows)) <= max(1, 0.02 * len(rows)) and
      abs(r["q_read_p50_us"] - q) <= 0.25 * q + 10 and
      abs(r["d_read_p50_us"] - d) <= 0.25 * d + 10)
sys.exit(0 if ok else 1)
PY
}

t traced_direct_run_has_queue_device_and_depth_columns
t uring_requests_have_submission_to_completion_latency
t others_requests_lower_the_own_share
t request_latency_matches_bpftrace
