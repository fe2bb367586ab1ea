#!/usr/bin/env bash
# eBPF probes against bpftrace: the request count of the same workload, and
# the ad-hoc scripts ebpf/*.bt load and run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace.inc"

request_count_matches_bpftrace() {
	need_cmd bpftrace
	need_tracefs
	setup_fs
	# bpftrace -c runs the workload (splitting on blanks: hence the script)
	# and prints its count when the workload exits.  Reads only: a fresh
	# ext4 writes its inode tables in the background (ext4lazyinit), also
	# while the probes are being loaded, before the workload starts.
	cat >"$T/work.sh" <<EOF
exec "$IOSTRAT" trace --json -d "$T/m" -o "$T/r.json" -- cat "$F"
EOF
	bt -e "tracepoint:block:block_rq_issue /args->dev == $KDEV &&
		args->nr_sector > 0 && strncmp(args->rwbs, \"R\", 1) == 0/
		{ @n = count(); }" -c "/bin/sh $T/work.sh" >"$T/bt.out" 2>&1 ||
		die "bpftrace failed: $(tail -n 3 "$T/bt.out")"
	local n
	n=$(sed -n 's/^@n: //p' "$T/bt.out")
	[ -n "$n" ] || die "no count from bpftrace: $(tail -n 3 "$T/bt.out")"
	echo "bpftrace counted $n requests"
	check "$T/r.json" "abs(blk_read_reqs - $n) <= max(1, $n * 0.02)"
}

bpftrace_scripts_load() {
	need_root
	need_cmd bpftrace
	need_tracefs
	local s b
	# Each script plus a probe that ends it after a second: loaded into the
	# kernel, run and printed, all three at once.
	for s in "$TOP"/ebpf/*.bt; do
		b=$T/$(basename "$s")
		{ cat "$s"; printf '\ninterval:s:1 { exit(); }\n'; } >"$b"
		timeout 30 bash -c "$(declare -f has_tracefs with_tracefs bt in_private_mount_ns need_root need_cmd skip); bt \"\$@\"" bt "$b" 0 >"$b.out" 2>&1 &
	done
	wait
	for s in "$TOP"/ebpf/*.bt; do
		b=$T/$(basename "$s")
		grep -q '^Attaching [0-9]* probe' "$b.out" ||
			die "$(basename "$s") did not attach: $(grep -v MEMLOCK "$b.out" | head -n 3)"
		! grep -v MEMLOCK "$b.out" | grep -q 'ERROR' ||
			die "$(basename "$s"): $(grep ERROR "$b.out" | grep -v MEMLOCK | head -n 1)"
	done
}

t request_count_matches_bpftrace
t bpftrace_scripts_load
