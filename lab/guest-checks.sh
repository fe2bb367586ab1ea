#!/usr/bin/env bash
# The portability matrix, one kernel's column: run inside a lab guest by
# lab/check.sh (lab run ... -- bash guest-checks.sh).  Prints one line per
# check, "PASS: name", "FAIL: name: why" or "SKIP: name: reason", and
# "FACT: key value" lines for the docs table.  Results directories it makes
# land in $LAB_OUT for the host's compare.
#
# Timings here are TCG's: nothing below compares or asserts a speed.
set -u
export IOSTRAT=${IOSTRAT:-iostrat} TOP=${LAB_IN:-$PWD} BUILD=build TEST_TIMES=1
# t, die, skip, need_*: the host suite's own (check.sh copies tests/lib.sh in)
. ./lib.sh
W=$PWD/checks
LAB_INI=$PWD/lab.ini
mkdir -p "$W"
REL=$(uname -r)
KVER=${REL%%-*}     # 5.10.0, 6.1.0, 6.12.95+deb12 ...
KVER=${KVER%%+*}

# userspace NAME FUNC: a check of code that does not change with the
# kernel (gen, the bench engine, report, plot): run where LAB_USERSPACE is
# 1, which check.sh gives the oldest and the newest kernel's guests, not
# the ones between (docs/lab.md, "what runs where").
userspace() { [ "${LAB_USERSPACE:-1}" = 1 ] || return 0; t "$@"; }

# ver_ge A B: version A >= B
ver_ge() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]; }

fact() { echo "FACT: $1 $2" >>"$W/facts"; }

# jq over the rows of a results.jsonl, or of `run --json` output
rows() { jq -r "$2" "$1"; }

# --- what this kernel gives, expected from its version -----------------------
# cachestat(2) is 6.5's; io_uring's DEFER_TASKRUN 6.1's, SINGLE_ISSUER 6.0's,
# COOP_TASKRUN 5.19's (include/uapi/linux/io_uring.h of each release).
expect_residency() { ver_ge "$KVER" 6.5 && echo cachestat || echo mincore; }
expect_ring_flags() {
	if ver_ge "$KVER" 6.1; then echo single_issuer,defer_taskrun
	elif ver_ge "$KVER" 6.0; then echo single_issuer,coop_taskrun
	elif ver_ge "$KVER" 5.19; then echo coop_taskrun
	else echo none; fi
}

"$IOSTRAT" gen "$W/ds" --files 4 --lines 3000 --width 100 >/dev/null || { echo "FAIL: gen: gen failed"; exit 0; }

# --- every strategy verified: threads 1 and 3, W 0 and 7, cold and warm ------
# Pairwise, not all 8: every two of the three factors meet in all 4 of
# their combinations (threads x W, threads x cache, W x cache), in 4 runs.
# All 8 were a fifth of each guest's time under TCG.
PAIRWISE="1:0:cold 1:7:warm 3:0:warm 3:7:cold"
strategy() {
	local s=$1 noout=$2 th w c combo n=0
	for combo in $PAIRWISE; do
		IFS=: read -r th w c <<<"$combo"
		rm -rf "$W/out-$s"
		"$IOSTRAT" run -s "$s" "$W/ds" "$W/out-$s" -r 1 --threads "$th" --work "$w" \
			--cache "$c" --json >"$W/$s.json" 2>"$W/$s.err" ||
			die "$s t$th w$w $c: exit $?: $(tail -n 1 "$W/$s.err")"
		cat "$W/$s.json" >>"$W/all-runs.jsonl"
		n=$((n + 1))
		[ -z "$noout" ] || continue # null: writes nothing to verify
		[ "$(rows "$W/$s.json" '.verified')" = true ] ||
			die "$s t$th w$w $c: not verified"
		"$IOSTRAT" verify "$W/ds" "$W/out-$s" --work "$w" >/dev/null 2>"$W/$s.err" ||
			die "$s t$th w$w $c: verify: $(tail -n 1 "$W/$s.err")"
	done
	echo "$n runs verified"
}
while read -r s noout; do
	t "strategy $s" strategy "$s" "$noout"
done < <("$IOSTRAT" list --caps | awk -F'\t' '{ print $1, ($2 ~ /(^| )no-output( |$)/ ? "noout" : "") }')

kernel_gives() { # KEY STRATEGY COLUMN WANT: STRATEGY's rows all have COLUMN = WANT
	local got
	got=$(rows "$W/all-runs.jsonl" "select(.strategy == \"$2\") | .$3" | sort -u | paste -sd' ')
	fact "$1" "$got"
	[ "$got" = "$4" ] || die "$3 '$got', expected '$4' on $KVER"
}
t "residency method" kernel_gives residency stream residency_method "$(expect_residency)"
t "io_uring ring flags" kernel_gives ring_flags uring ring_flags "$(expect_ring_flags)"

# --- what the newer kernels add: uncached buffered I/O, SQPOLL ----------------
# RWF_DONTCACHE is 6.14's (include/uapi/linux/fs.h): on 6.14 and later a
# --dontcache run is verified and its row says so; before, it is refused
# in one line naming the kernel it needs.  iostrat finds out by trying the
# flag; this check expects by version, so the two must agree.
dontcache() {
	local rc=0 n
	rm -rf "$W/out-dc"
	"$IOSTRAT" run -s stream "$W/ds" "$W/out-dc" -r 1 --cache cold --dontcache --json \
		>"$W/dc.json" 2>"$W/dc.err" || rc=$?
	if ver_ge "$KVER" 6.14; then
		fact dontcache "runs"
		[ "$rc" -eq 0 ] || die "refused on $KVER: $(tail -n 1 "$W/dc.err")"
		[ "$(rows "$W/dc.json" '.verified')" = true ] || die "not verified"
		[ "$(rows "$W/dc.json" '.dontcache')" = true ] || die "row says dontcache $(rows "$W/dc.json" '.dontcache')"
		"$IOSTRAT" verify "$W/ds" "$W/out-dc" >/dev/null 2>"$W/dc.err" || die "verify: $(tail -n 1 "$W/dc.err")"
	else
		n=$(grep -c . "$W/dc.err")
		fact dontcache "refused ($(grep -o 'needs [^)]*' "$W/dc.err" | head -n 1))"
		[ "$rc" -ne 0 ] || die "ran on $KVER, which has no RWF_DONTCACHE"
		[ "$n" -eq 1 ] || die "refused in $n lines, expected one"
		grep -q '6\.14' "$W/dc.err" || die "the refusal names no kernel version: $(head -n 1 "$W/dc.err")"
	fi
}
t "stream --dontcache (verified from 6.14, refused before)" dontcache

# IORING_SETUP_SQPOLL is 5.1's (root only before 5.11); the guest's
# checks run as root, so every lab kernel gives it: the run is verified
# and the row's ring_flags are SQPOLL's best, with SINGLE_ISSUER from 6.0
# (the TASKRUN flags do not go with SQPOLL).
expect_sqpoll_flags() { ver_ge "$KVER" 6.0 && echo sqpoll,single_issuer || echo sqpoll; }
sqpoll() {
	local flags
	rm -rf "$W/out-sq"
	"$IOSTRAT" run -s uring "$W/ds" "$W/out-sq" -r 1 --sqpoll --json >"$W/sq.json" 2>"$W/sq.err" ||
		die "refused on $KVER as root: $(tail -n 1 "$W/sq.err")"
	flags=$(rows "$W/sq.json" '.ring_flags')
	fact sqpoll "$flags"
	[ "$(rows "$W/sq.json" '.verified')" = true ] || die "not verified"
	[ "$flags" = "$(expect_sqpoll_flags)" ] || die "ring_flags '$flags', expected '$(expect_sqpoll_flags)' on $KVER"
}
t "uring --sqpoll (every lab kernel, as root)" sqpoll

# --- a memory limit per repetition on cgroup v2 (docs/memory.md) ----------------
# The guests are systemd's unified hierarchy, where the host is v1 hybrid:
# here the v2 path runs.  Each iostrat gets a delegated scope of its own (a
# cgroup v2 with other processes cannot give its children controllers):
# buffer is killed at 32 MiB on 100 MB, stream runs verified in the same
# limit with the cgroup's own pressure and io.stat, and nothing is left.
in_scope() { systemd-run --scope -p Delegate=yes --quiet -- "$@"; }
memory_v2() {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "no unified cgroup hierarchy"
	grep -qw memory /sys/fs/cgroup/cgroup.controllers || skip "no memory controller on v2"
	local rc=0
	rm -rf "$W/mem-in" "$W/mem-out"
	"$IOSTRAT" gen "$W/mem-in" --files 1 --lines 1000000 --width 99 >/dev/null 2>"$W/mem.err" ||
		die "gen: $(tail -n 1 "$W/mem.err")"
	in_scope "$IOSTRAT" run -s buffer --memory-max 32M -r 1 --json "$W/mem-in" "$W/mem-out" \
		>"$W/mem-b.json" 2>"$W/mem.err" || rc=$?
	[ "$rc" -ne 0 ] || die "buffer ran in 32 MiB on 100 MB"
	jq -e '.oom_kill == true and .cgroup == "v2"' "$W/mem-b.json" >/dev/null ||
		die "buffer's row: $(head -c 300 "$W/mem-b.json") $(tail -n 1 "$W/mem.err")"
	in_scope "$IOSTRAT" run -s stream --memory-max 32M -r 1 --json "$W/mem-in" "$W/mem-out" \
		>"$W/mem-s.json" 2>"$W/mem.err" || die "stream in 32 MiB: $(tail -n 1 "$W/mem.err")"
	jq -e '.verified and .cgroup == "v2" and .psi_source == "cgroup v2" and
	       .dev_source == "cgroup v2 io.stat" and .mem_peak_bytes <= 33554432' \
		"$W/mem-s.json" >/dev/null || die "stream's row: $(head -c 300 "$W/mem-s.json")"
	local peak='if .mem_peak_bytes then "\(.mem_peak_bytes / 1048576 | floor) MiB" else "unknown (no memory.peak)" end'
	fact memory_v2 "buffer killed at $(jq -r "$peak" "$W/mem-b.json"), stream peak $(jq -r "$peak" "$W/mem-s.json")"
	# iostrat's own cgroups (iostrat-PID...), not the lab's unit iostrat-lab.service
	[ -z "$(find /sys/fs/cgroup -name 'iostrat-[0-9]*' 2>/dev/null)" ] ||
		die "left: $(find /sys/fs/cgroup -name 'iostrat-[0-9]*' | head -n 3)"
	rm -rf "$W/mem-in" "$W/mem-out"
}
t "memory_max on cgroup v2 (buffer killed, stream verified, nothing left)" memory_v2

# The memory profile as shipped, small (60 MB against 8 MiB, one
# repetition, W=0: 16 configurations), on cgroup v2: where the kernel has
# RWF_DONTCACHE every section of it runs (7.3 in the lab; memory_max itself
# is checked above on every kernel, and tests/memory.sh runs the whole
# profile on the host's v1).  Not 16 MiB: there buffer's 15 MB files
# thrash instead of being killed, 99 s a repetition under TCG.
memory_profile_v2() {
	[ -e /sys/fs/cgroup/cgroup.controllers ] || skip "no unified cgroup hierarchy"
	ver_ge "$KVER" 6.14 || skip "the whole profile needs RWF_DONTCACHE (6.14); memory_max on v2 is checked above"
	rm -rf "$W/mp" "$W/mp-data"
	SCALE=0.03 MEMORY_MAX=8M REPS=1 in_scope "$IOSTRAT" bench "$TOP/profiles/memory.ini" -D work=0 \
		--out "$W/mp" --data "$W/mp-data" >"$W/mp.log" 2>&1 || die "bench: $(tail -n 2 "$W/mp.log")"
	jq -se '[.[] | select(.kind == "run")] | (map(.config_id) | unique | length) == 16
		and all(.[]; .cgroup == "v2")' "$W/mp/results.jsonl" >/dev/null ||
		die "not 16 configurations each in a v2 cgroup: $(jq -c '[.config_id, .cgroup, .cgroup_error]' "$W/mp/results.jsonl" | head -n 3)"
	"$IOSTRAT" report "$W/mp" >"$W/mp.rep" 2>&1 || die "report failed"
	grep -Eq '^  big( dontcache)? in 8 MiB \(data [0-9.]+x the limit\): ' "$W/mp.rep" ||
		die "no memory verdict: $(grep -A3 '^memory verdict' "$W/mp.rep")"
	fact memory_profile "$(grep -E '^  big( dontcache)? in 8 MiB' "$W/mp.rep" | sed 's/^  //' | paste -sd';')"
	[ -z "$(find /sys/fs/cgroup -name 'iostrat-[0-9]*' 2>/dev/null)" ] ||
		die "left: $(find /sys/fs/cgroup -name 'iostrat-[0-9]*' | head -n 3)"
	rm -rf "$W/mp" "$W/mp-data"
}
t "memory profile on cgroup v2 (every configuration, nothing left)" memory_profile_v2

# --- subcommands --------------------------------------------------------------
gen_preset() {
	"$IOSTRAT" gen "$W/small" --preset small --scale 0.001 >/dev/null
	"$IOSTRAT" gen "$W/small" --preset small --scale 0.001 | grep -q . # idempotent
	[ -s "$W/small/.iostrat-manifest.json" ] || die "no manifest"
}
userspace "gen" gen_preset

bench() {
	"$IOSTRAT" bench "$LAB_INI" --out "$LAB_OUT/bench" --data "$W/data" >"$W/bench.log" 2>&1 ||
		die "bench: $(tail -n 2 "$W/bench.log")"
	local n bad
	n=$(wc -l <"$LAB_OUT/bench/results.jsonl")
	bad=$(rows "$LAB_OUT/bench/results.jsonl" 'select(.error != null) | "\(.config_id): \(.error)"' | head -n 1)
	[ -z "$bad" ] || die "failed row: $bad"
	[ "$n" -ge 10 ] || die "only $n rows"
	echo "$n rows"
}
userspace "bench" bench

report() {
	[ -s "$LAB_OUT/bench/results.jsonl" ] || skip "no bench results"
	"$IOSTRAT" report "$LAB_OUT/bench" >"$W/report.txt"
	grep -q "kernel $REL" "$W/report.txt" || die "report does not name kernel $REL"
}
userspace "report" report

plot() {
	[ -s "$LAB_OUT/bench/results.jsonl" ] || skip "no bench results"
	"$IOSTRAT" plot "$LAB_OUT/bench" >"$W/plot.log" 2>&1 || die "plot: $(tail -n 1 "$W/plot.log")"
	local f n=0
	for f in "$LAB_OUT"/bench/plots/*.png; do
		[ -s "$f" ] || die "empty figure $f"
		n=$((n + 1))
	done
	[ "$n" -ge 2 ] || die "only $n figures"
	echo "$n figures"
}
userspace "plot" plot

sweep() {
	"$IOSTRAT" sweep bufsize --files 2 --scale 0.002 --sizes 4k,64k --reps 1 --out "$W/sweep-buf" >"$W/sweep.log" 2>&1 ||
		die "sweep bufsize: $(tail -n 1 "$W/sweep.log")"
	"$IOSTRAT" sweep api --size 256k --sizes 4k,whole --reps 1 --out "$W/sweep-api" >"$W/sweep.log" 2>&1 ||
		die "sweep api: $(tail -n 1 "$W/sweep.log")"
	"$IOSTRAT" sweep blocksize --size 64k --sizes 512,64k --reps 1 --out "$W/sweep-blk" >"$W/sweep.log" 2>&1 ||
		die "sweep blocksize: $(tail -n 1 "$W/sweep.log")"
}
t "sweep" sweep

net() {
	"$IOSTRAT" net --mode all --count 500 --reps 1 --out "$W/net" >"$W/net.log" 2>&1 ||
		die "net: $(tail -n 1 "$W/net.log")"
	local modes
	modes=$("$IOSTRAT" net --help | sed -n '/^modes:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | wc -l)
	local got
	got=$(jq -r '.mode' "$W"/net/results.jsonl 2>/dev/null | sort -u | wc -l)
	[ "$got" -eq "$modes" ] || die "$got of $modes modes have rows"
}
t "net over loopback" net

fio_baseline() {
	"$IOSTRAT" fio seq-psync --dataset "$W/ds" --bs 64k --reps 1 --out "$W/fio" >"$W/fio.log" 2>&1 ||
		die "fio: $(tail -n 1 "$W/fio.log")"
	local e
	e=$(rows "$W/fio/results.jsonl" '.error' | sort -u)
	[ "$e" = null ] || die "fio row error: $e"
}
t "fio baseline" fio_baseline

sched_dev() { # DEV DATA: two schedulers of DEV, restored afterwards
	local dev=$1 data=$2 q before after avail what
	q=/sys/block/$dev/queue/scheduler
	[ -w "$q" ] || skip "$dev has no scheduler file"
	before=$(cat "$q")
	local ra
	ra=$(cat "/sys/block/$dev/queue/read_ahead_kb")
	# Every scheduler DEV offers (the image loads bfq and kyber); a device
	# with one only (loop devices on 5.10 offer "none" alone) compares two
	# readahead sizes.
	avail=$(tr -d '[]' <"$q" | tr ' ' '\n' | grep . | paste -sd,)
	fact "sched_${3:-$dev}" "$(tr -d '[]' <"$q" | xargs)"
	if [[ $avail == *,* ]]; then
		what=(--schedulers "$avail")
	else
		what=(--set 'read_ahead_kb=64,256')
	fi
	"$IOSTRAT" sched --device "$dev" "${what[@]}" --reps 1 --data "$data" \
		--out "$W/sched-$dev" -D strategy=stream,uring -D threads=1 -D fio=0 \
		"$LAB_INI" >"$W/sched.log" 2>&1 || die "sched $dev: $(tail -n 1 "$W/sched.log")"
	after=$(cat "$q")
	[ "$before" = "$after" ] || die "scheduler of $dev not restored: $before -> $after"
	[ "$(cat "/sys/block/$dev/queue/read_ahead_kb")" = "$ra" ] || die "read_ahead_kb of $dev not restored"
	[ -s "$W/sched-$dev/sched.json" ] || die "no sched.json"
}
sched_virtio() { sched_dev vda "$W/data" vda; }
t "sched on virtio disk" sched_virtio

sched_loop() {
	local img=$W/loop.img dev mnt=$W/loopmnt
	truncate -s 256M "$img"
	mkfs.ext4 -q -F "$img"
	dev=$(losetup --find --show "$img") || skip "no loop device"
	mkdir -p "$mnt"
	mount "$dev" "$mnt"
	local rc=0
	(sched_dev "$(basename "$dev")" "$mnt/data" loop) || rc=$?
	umount "$mnt"
	losetup -d "$dev"
	return "$rc"
}
t "sched on loop device" sched_loop

# --- eBPF: traced on every lab kernel (BTF, kprobes and fentry: Debian's) -------
# one timed repetition, untraced, and three traced beside it (trace_reps,
# docs/kernel-view.md): all verified, and only the traced ones carry the
# probes' figures (the first of them is checked)
run_trace() {
	rm -rf "$W/out-tr"
	"$IOSTRAT" run -s stream "$W/ds" "$W/out-tr" -r 1 --trace --json >"$W/tr-all.json" 2>"$W/tr.err" ||
		die "run --trace: exit $?: $(tail -n 1 "$W/tr.err")"
	jq -se 'length == 4 and all(.[]; .verified)' "$W/tr-all.json" >/dev/null ||
		die "run --trace: not four verified rows: $(jq -c '[.role, .verified]' "$W/tr-all.json" | paste -sd' ')"
	jq -se '[.[] | select(.role == "timed")] | length == 1 and (.[0].traced | not)' \
		"$W/tr-all.json" >/dev/null || die "run --trace: the timed repetition was traced"
	jq -c 'select(.role == "traced")' "$W/tr-all.json" | head -n 1 >"$W/tr.json"
	local traced
	traced=$(rows "$W/tr.json" '.traced')
	fact run_trace "traced=$traced $(rows "$W/tr.json" '"blk=\(.blk_source) pc=\(.pc_source) ra=\(.ra_source)"') $(head -n 1 "$W/tr.err" | cut -c1-100)"
	[ "$traced" = true ] || die "untraced: $(head -n 1 "$W/tr.err")"
}
t "run --trace" run_trace

trace_cmd() {
	local rc=0
	"$IOSTRAT" trace --json -o "$W/trace.json" -- cat "$W/ds/f000000.txt" >/dev/null 2>"$W/trace.err" || rc=$?
	fact trace "exit=$rc $(head -n 1 "$W/trace.err" | cut -c1-120)"
	[ "$rc" -eq 0 ] || die "iostrat trace: exit $rc: $(head -n 1 "$W/trace.err")"
	jq -e . "$W/trace.json" >/dev/null || die "trace --json: not JSON"
}
t "iostrat trace" trace_cmd

# the kernel view's own checks (hit ratios, seq_pct, agreement, bpftrace)
. ./guest-trace.sh

fact kernel "$REL"
cat "$W/facts"
