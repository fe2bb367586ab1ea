#!/usr/bin/env bash
# lab/reboot.sh: the reboot queue through real boots (make check-lab runs it).
#
# A GRUB disk (lab/grub-image.sh) with iostrat installed by the steps of
# docs/reboot-queue.md, "Setting it up on a bare-metal test box" -- the
# commands are taken from that file, so the doc cannot drift from what
# works -- and a queue of N+5 entries, N the lab's kernels (four: 7.3,
# 6.12, 6.1, 5.10), newest first (the newest is GRUB's default):
#
#   1 k7.3    bench --kernel 7.3    power cut (QEMU system_reset) mid-bench, retried
#   2 k6.12   bench --kernel 6.12   (one bench entry per lab kernel, newest first)
#   3 k6.1    bench --kernel 6.1
#   4 k5.10   bench --kernel 5.10
#   N+1 hang  sleep, --kernel 5.10  killed by its own --timeout, retried, given up
#   N+2 wrong --kernel 1.0.0-lab    GRUB lists it, but it boots 6.1: wrong-kernel
#   N+3 fail  exit 3                failed, not retried
#   N+4 sched iostrat sched         power cut mid-sched, retried; `queue pause`
#                                   from the host while it runs: no reboot after
#   N+5 last  true                  removed by the host, then a boot with an
#                                   empty queue: no reboot
#
# One vCPU: 6.12 under TCG with two oopsed at boot now and then (int3 in
# run_timer_softirq: TCG and cross-modifying code), and the host's other
# vCPU is left to whatever else runs.  Every boot is its own QEMU process (-no-reboot: the guest's reboot ends
# it), so after each one the host mounts the disk and checks what that boot
# left: the kernel it came up on (serial console), history.jsonl,
# results.log and every results.jsonl only grew (earlier bytes unchanged).
# N+7 boots in all, counted on the serial console.  At the end every
# kernel's results are copied out of the disk: compare, plot --compare,
# report.  Prints "PASS: ..." / "FAIL: ...: why" lines, then the timings.
#
# Environment: IOSTRAT_LAB_REBOOT_KEEP=DIR keeps the disk, consoles and
# results there.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

DOC=$TOP/docs/reboot-queue.md
# The doc's 300 s and 14400 s, shrunk for the lab.  The watchdog of every
# entry (run-next's) is far above what an entry takes; only the hung one
# has its own short one (queue add --timeout), and costs it twice.  Both
# in one were too tight: at 30 s and then at 60 s, entry 1's bench (20 rows,
# 15-30 s alone) was killed by the watchdog on 2026-11-23, with the matrix
# and other guests beside it -- this VM's speed drifts up to 2x.
SETTLE=1 TIMEOUT=900 HANG_TIMEOUT=20

main() {
[ "$(id -u)" -eq 0 ] || { echo "SKIP: reboot queue through GRUB: needs root"; exit 0; }
command -v sfdisk >/dev/null || { echo "SKIP: reboot queue through GRUB: sfdisk missing (make lab-deps)"; exit 0; }
IOSTRAT=$TOP/${BUILD:-build}/iostrat
[ -x "$IOSTRAT" ] || lab_die "$IOSTRAT: not built (make)"
BOOT_LIMIT=${IOSTRAT_LAB_REBOOT_BOOT_LIMIT:-400}
t_all=$SECONDS

# This checkout's image (not images/current: another checkout's `make lab`
# may have moved it to an image without grub-pc).  check.sh passes the one
# it resolved.
img=${IOSTRAT_LAB_IMAGE:-}
[ -e "$img/ready" ] || img=$("$LAB_TOP/image.sh") || exit 1
export IOSTRAT_LAB_IMAGE=$img
# held shared while this runs, as lab run does: an image rebuild never prunes it
exec 7<"$img/ready"
flock -s 7
declare -A REL
while read -r name _; do REL[$name]=$(cat "$img/kernels/$name/release"); done < <(lab_kernel_lines)
for k in 5.10 6.1; do
	[ -n "${REL[$k]:-}" ] || { echo "SKIP: reboot queue through GRUB: the scenario needs the lab kernels 5.10 and 6.1"; exit 0; }
done
kernel_chain

w=$(mktemp -d "$LAB_DIR/reboot.XXXXXX")
qemu_pid=
# shellcheck disable=SC2317 # run by the EXIT trap (lab_checks)
cleanup() {
	local rc=$?
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null && wait "$qemu_pid" 2>/dev/null
	if [ -n "${IOSTRAT_LAB_REBOOT_KEEP:-}" ]; then
		mkdir -p "$IOSTRAT_LAB_REBOOT_KEEP" && cp -a "$w/." "$IOSTRAT_LAB_REBOOT_KEEP/"
	elif [ "$fails" -gt 0 ] 2>/dev/null; then
		mkdir -p "$LAB_DIR/failed"
		cat "$w"/boot-*.log >"$LAB_DIR/failed/$(date -u +%Y%m%dT%H%M%SZ)-reboot-$$.log" 2>/dev/null
	fi
	rm -rf "$w"
	return "$rc"
}
lab_checks cleanup
mkdir -p "$w/share/ctl" "$w/seen"
disk=$w/disk.img

# --- the disk ------------------------------------------------------------------
t0=$SECONDS
if ! LAB_REL_61=${REL[6.1]} "$LAB_TOP/grub-image.sh" build "$img" "$disk" "$LAB_TOP/reboot.sh" 2>"$w/build.err"; then
	fail "GRUB disk, iostrat installed from docs/reboot-queue.md" "$(tail -n 2 "$w/build.err" | tr '\n' ' ')"
	summary; return 1
fi
t_build=$((SECONDS - t0))
pass "GRUB disk, iostrat installed from docs/reboot-queue.md (${t_build} s)"
refusal=$(lab_mounted cat var/tmp/lab-refusal 2>/dev/null | tr '\n' ' ')
if [[ $refusal == "rc=1 "*"--kernel 9.9.9-nosuch: no GRUB menu entry boots vmlinuz-9.9.9-nosuch"* ]] &&
	[[ $refusal == *" queued=$ID_LAST " ]]; then
	pass "queue add of a kernel GRUB does not list: refused"
else
	fail "queue add of a kernel GRUB does not list: refused" "$refusal"
fi

# --- the boots ------------------------------------------------------------------
expect_boots
nboots=${#exp_kernel[@]}
boot_s=()
for ((b = 1; b <= nboots; b++)); do
	t0=$SECONDS
	run_boot "$b" || { fail "boot $b" "$why"; break; }
	boot_s+=($((SECONDS - t0)))
	check_boot "$b"
done

# --- the count, on the serial console ------------------------------------------
seen=$(cat "$w"/boot-*.log 2>/dev/null | grep -ac 'Linux version ')
if [ "$seen" -eq "$nboots" ] && [ "$(compgen -G "$w/boot-*.log" | wc -l)" -eq "$nboots" ]; then
	pass "boots: $nboots, as the design promises (serial console)"
else
	fail "boots: $nboots, as the design promises (serial console)" "$seen kernels started on the console"
fi

compare_kernels
summary
[ "$fails" -eq 0 ]
}

# kernel_chain: CHAIN, the lab's kernels newest first (GRUB's default, the
# newest, first: entry 1 needs no switch), N their count, and the ids of
# the entries after the benches.
kernel_chain() {
	mapfile -t CHAIN < <(printf '%s\n' "${!REL[@]}" | sort -rV)
	N=${#CHAIN[@]} K1=${CHAIN[0]}
	ID_HANG=$((N + 1)) ID_WRONG=$((N + 2)) ID_FAIL=$((N + 3)) ID_SCHED=$((N + 4)) ID_LAST=$((N + 5))
}
# expect_boots: the kernel each boot must come up on (exp_kernel, lab
# names), and what history.jsonl must have gained by its end (exp_hist,
# "ID:outcome:status" lines): the cut bench on the newest kernel twice,
# each other bench once, the hung entry twice on 5.10, the wrong kernel
# (6.1), then the sched entry twice and the empty queue on the newest.
expect_boots() {
	local i
	exp_kernel=("$K1" "$K1") exp_hist=("" "1:interrupted:retry 1:done:done")
	for ((i = 2; i <= N; i++)); do
		exp_kernel+=("${CHAIN[$((i - 1))]}") exp_hist+=("$i:done:done")
	done
	exp_kernel+=(5.10 5.10 6.1 "$K1" "$K1" "$K1")
	exp_hist+=("$ID_HANG:timeout:retry" "$ID_HANG:timeout:failed"
		"$ID_WRONG:wrong-kernel:failed $ID_FAIL:failed:failed" ""
		"$ID_SCHED:interrupted:retry $ID_SCHED:done:done" "")
}

# The hook grub-image.sh runs with the disk's root at $LAB_MNT: `pre`
# before update-grub, `post` after it.
hook() {
	local m=$LAB_MNT
	if [ "$1" = pre ]; then
		# A GRUB entry that says 1.0.0-lab but boots 6.1: a boot that
		# lands on the wrong kernel, the way a mislabeled entry does.
		cp "$m/boot/vmlinuz-$LAB_REL_61" "$m/boot/vmlinuz-1.0.0-lab"
		cp "$m/boot/initrd.img-$LAB_REL_61" "$m/boot/initrd.img-1.0.0-lab"
		install -m 0755 "$LAB_TOP/reboot-guest/iostrat-lab-ctl" "$m/usr/local/sbin/"
		install -m 0644 "$LAB_TOP/reboot-guest/iostrat-lab-ctl.service" "$m/etc/systemd/system/"
		ln -sf ../iostrat-lab-ctl.service "$m/etc/systemd/system/multi-user.target.wants/iostrat-lab-ctl.service"
		mkdir -p "$m/etc/systemd/system/iostrat-queue.service.d" "$m/srv/lab"
		install -m 0644 "$LAB_TOP/reboot-guest/console.conf" "$m/etc/systemd/system/iostrat-queue.service.d/lab-console.conf"
		install -m 0755 "$LAB_TOP/reboot-guest/sched-entry.sh" "$m/srv/lab/"
		install -m 0644 "$LAB_TOP/reboot.ini" "$m/srv/lab/"
		return 0
	fi
	install_from_doc "$m" && queue_entries "$m"
}

# docs/reboot-queue.md, "Setting it up on a bare-metal test box": its
# commands, indented blocks of that section, run as written where they
# can be: on the host into the mounted disk (DESTDIR; the guest has no
# compiler), then in a chroot of it.
doc_lines() {
	awk '/^#+ Setting it up on a bare-metal test box/ { on = 1; next }
	     on && /^#+ / { exit }
	     on && /^    +[^ ]/ { sub(/^ +/, ""); print }' "$DOC"
}
install_from_doc() {
	local m=$1 step1 opts
	step1=$(doc_lines | grep -m1 'make install-queue') ||
		{ echo "docs/reboot-queue.md: no 'make install-queue' step" >&2; return 1; }
	step1=${step1%%#*}
	# sudo: we are root; make: this checkout, into the disk
	step1=$(sed -e 's/sudo //g' -e "s|make install-queue|make -s -C '$TOP' BUILD='${BUILD:-build}' install-queue DESTDIR='$m'|" \
		-e "s|^make |make -s -C '$TOP' BUILD='${BUILD:-build}' |" <<<"$step1")
	echo "lab: step 1: $step1" >&2
	bash -c "$step1" >&2 || { echo "step 1 failed: $step1" >&2; return 1; }
	# install-queue enables the unit when it installs into the running
	# system; with DESTDIR it cannot, so the same in a chroot.
	doc_lines >/dev/null
	grep -q '\*enables\* the unit' "$DOC" || { echo "docs/reboot-queue.md no longer says install-queue enables the unit" >&2; return 1; }
	chroot "$m" systemctl enable iostrat-queue.service >&2 || return 1
	[ -x "$m/usr/local/bin/iostrat" ] && [ -d "$m/var/lib/iostrat" ] ||
		{ echo "step 1 installed no /usr/local/bin/iostrat or /var/lib/iostrat" >&2; return 1; }
	opts=$(doc_lines | grep -m1 '^IOSTRAT_QUEUE_OPTS=') ||
		{ echo "docs/reboot-queue.md: no IOSTRAT_QUEUE_OPTS line" >&2; return 1; }
	opts=$(sed -e "s/--settle [0-9]*/--settle $SETTLE/" -e "s/--timeout [0-9]*/--timeout $TIMEOUT/" <<<"$opts")
	[[ $opts == *"--settle $SETTLE "*"--timeout $TIMEOUT "* ]] ||
		{ echo "docs/reboot-queue.md: step 2 changed: $opts" >&2; return 1; }
	echo "$opts" >"$m/etc/default/iostrat-queue"
	echo "lab: step 2: /etc/default/iostrat-queue: $opts" >&2
}

# Step 3: the doc's `queue add` of a bench, one per kernel with --kernel,
# then the other entries, in a chroot of the disk (from /srv: the entries
# run where they were added).
qadd() { chroot "$1" sh -c "cd /srv && $2" >&2; }
queue_entries() {
	local m=$1 tmpl c k n=0
	tmpl=$(doc_lines | grep -m1 '^sudo iostrat queue add --name [^ ]* -- /usr/local/bin/iostrat bench ') ||
		{ echo "docs/reboot-queue.md: step 3 has no 'sudo iostrat queue add --name N -- /usr/local/bin/iostrat bench PROFILE --out DIR'" >&2; return 1; }
	for k in "${CHAIN[@]}"; do
		c=$(sed -E -e 's/^sudo //' -e "s/--name [^ ]+/--name k$k --kernel ${REL[$k]}/" \
			-e "s| bench [^ ]+\.ini | bench /srv/lab/reboot.ini |" -e "s|--out [^ ]+|--out /srv/results/k$k|" <<<"$tmpl")
		[[ $c == *"--kernel ${REL[$k]} -- /usr/local/bin/iostrat bench /srv/lab/reboot.ini --out /srv/results/k$k" ]] ||
			{ echo "docs/reboot-queue.md: step 3 changed: $tmpl" >&2; return 1; }
		echo "lab: step 3: $c" >&2
		qadd "$m" "$c" || return 1
	done
	qadd "$m" "iostrat queue add --name hang --kernel ${REL[5.10]} --timeout $HANG_TIMEOUT -- /bin/sleep 3600" &&
	qadd "$m" "iostrat queue add --name wrong --kernel 1.0.0-lab -- /bin/true" &&
	qadd "$m" "iostrat queue add --name fail -- /bin/sh -c 'exit 3'" &&
	qadd "$m" "iostrat queue add --name sched -- /srv/lab/sched-entry.sh" &&
	qadd "$m" "iostrat queue add --name last -- /bin/true" || return 1
	# a kernel GRUB does not list: refused at once, nothing queued
	local rc=0 err
	err=$(chroot "$m" sh -c 'cd /srv && iostrat queue add --name nosuch --kernel 9.9.9-nosuch -- /bin/true' 2>&1) || rc=$?
	echo "rc=$rc $err queued=$(chroot "$m" iostrat queue list | tail -n +2 | wc -l)" >"$m/var/tmp/lab-refusal"
	chroot "$m" iostrat queue list >&2
}

# CMD... with the disk's root mounted at $LAB_MNT (QEMU not running).
lab_mounted() { "$LAB_TOP/grub-image.sh" with "$disk" -- bash -c 'cd "$LAB_MNT" && "$@"' _ "$@"; }

# The host's way in: a command run as root in the guest by iostrat-lab-ctl.
ctl() { # SECS CMD: prints its output; its exit status
	local secs=$1 f i
	# a name of its own (ctl runs in $(...) subshells: no counter survives)
	f=$w/share/ctl/$(date +%s%N)
	printf '%s\n' "$2" >"$f.tmp" && mv "$f.tmp" "$f.cmd"
	for ((i = 0; i < secs * 5; i++)); do
		[ -e "$f.rc" ] && { cat "$f.out"; return "$(cat "$f.rc")"; }
		kill -0 "$qemu_pid" 2>/dev/null || break
		sleep 0.2
	done
	echo "ctl: no answer in $secs s: $2"
	return 124
}

# ctl_nowait CMD: for a command that ends the boot (and the ctl service
# with it, before it can answer).
ctl_nowait() {
	local f; f=$w/share/ctl/$(date +%s%N)
	printf '%s\n' "$1" >"$f.tmp" && mv "$f.tmp" "$f.cmd"
}

monitor() { # HMP command to this boot's QEMU
	python3 - "$w/mon" "$1" <<-'EOF'
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	s.sendall(sys.argv[2].encode() + b"\n")
	time.sleep(0.5)
	EOF
}

# wait_console B REGEX SECS: until REGEX shows on boot B's console, or QEMU
# ends (1), or SECS pass (1).
wait_console() {
	local i
	for ((i = 0; i < $3 * 5; i++)); do
		grep -aqE "$2" "$w/boot-$1.log" 2>/dev/null && return 0
		kill -0 "$qemu_pid" 2>/dev/null || { grep -aqE "$2" "$w/boot-$1.log"; return $?; }
		sleep 0.2
	done
	return 1
}
# still_up SECS: QEMU still runs SECS later (the guest did not reboot).
still_up() { sleep "$1"; kill -0 "$qemu_pid" 2>/dev/null; }

# cut_power_after_a_row CMD ROWS: the power cut of a boot (QEMU's
# system_reset), once `iostrat CMD` runs in the guest and the rows file(s)
# ROWS (a guest path, a glob) hold a row.  Sets $rows; $why on failure.
rows=
cut_power_after_a_row() {
	local cmd=$1 glob=$2
	rows=
	while kill -0 "$qemu_pid" 2>/dev/null; do
		rows=$(ctl 10 "n=\$(cat $glob 2>/dev/null | wc -l)
			pgrep -f 'iostrat $cmd' >/dev/null || n=gone; echo \$n" | tail -n 1)
		[ "$rows" = gone ] || [ "${rows:-0}" -ge 1 ] 2>/dev/null && break
	done
	[ "${rows:-0}" -ge 1 ] 2>/dev/null || { why="no $cmd running with a row written (${rows:-nothing})"; return 1; }
	monitor system_reset
}

# run_boot B: one boot, from power-on until QEMU ends (the guest rebooted or
# powered off, or the host cut the power).  Sets $why on failure.
why=
run_boot() {
	local b=$1 log=$w/boot-$1.log
	local -a accel
	read -ra accel < <(lab_accel_args)
	rm -f "$w/mon"
	timeout --kill-after=5 "$BOOT_LIMIT" qemu-system-x86_64 "${accel[@]}" \
		-m "${IOSTRAT_LAB_MEM:-2048}" -smp 1 \
		-nodefaults -display none -no-reboot -serial "file:$log" \
		-monitor "unix:$w/mon,server=on,wait=off" \
		-drive "file=$disk,if=virtio,format=raw,cache=unsafe" \
		-virtfs "local,path=$w/share,mount_tag=lab,security_model=none,id=lab" \
		-nic none >"$w/qemu-$b.log" 2>&1 &
	qemu_pid=$!
	case $b in
	1) # a power cut while the bench runs, once it wrote a row (run-next
	   # is an iostrat process too: the bench is looked for by its args)
		wait_console "$b" 'running entry 1 ' 300 || { why="entry 1 never started"; return 1; }
		cut_power_after_a_row bench "/srv/results/k$K1/results.jsonl" || return 1
		echo "lab: boot $b: system_reset with $rows rows written" >&2 ;;
	"$((nboots - 2))") # a power cut in the middle of iostrat sched: once its first
	   # scheduler's bench wrote a row
		wait_console "$b" 'lab-sched: vda' 300 || { why="entry $ID_SCHED never reached sched"; return 1; }
		cut_power_after_a_row sched '/srv/results/sched-1/vda/*/results.jsonl' || return 1
		echo "lab: boot $b: system_reset mid-sched, $rows rows written" >&2 ;;
	"$((nboots - 1))") # queue pause from the host while the sched entry runs
		wait_console "$b" "running entry $ID_SCHED " 300 || { why="entry $ID_SCHED not retried"; return 1; }
		ctl 10 'iostrat queue pause' >"$w/pause.out" || { why="queue pause: $(cat "$w/pause.out")"; return 1; }
		if wait_console "$b" 'paused: no reboot' 400 && still_up 5; then
			pass "queue pause while an entry runs: it finishes, no reboot"
		else
			fail "queue pause while an entry runs: it finishes, no reboot" "$(tail -n 3 "$log" | tr '\n' ' ')"
		fi
		sched_checks
		# the doc's way back: resume, and a reboot starts the loop; the
		# last entry goes first, so that boot finds the queue empty
		ctl 20 "iostrat queue remove $ID_LAST && iostrat queue resume" >"$w/resume.out" ||
			{ why="remove/resume: $(cat "$w/resume.out")"; return 1; }
		ctl_nowait 'systemctl reboot' ;;
	"$nboots") # an empty queue: the unit runs and does not reboot
		if wait_console "$b" 'queue empty: nothing to run, no reboot' 300 && still_up 5; then
			pass "empty queue: no reboot"
		else
			fail "empty queue: no reboot" "$(tail -n 3 "$log" | tr '\n' ' ')"
		fi
		ctl_nowait 'systemctl poweroff' ;;
	esac
	wait "$qemu_pid"
	local rc=$?
	qemu_pid=
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && { why="still running after ${BOOT_LIMIT} s (a reboot loop, or hung): $(tail -n 2 "$log" | tr '\n' ' ')"; return 1; }
	return 0
}

# check_boot B: what boot B left on the disk.
check_boot() {
	local b=$1 want got
	want=${exp_kernel[$((b - 1))]}
	got=$(grep -a -m1 -o 'iostrat-lab-ctl: up: kernel [^ ]*' "$w/boot-$b.log" | awk '{ print $4 }')
	local wrel=${REL[$want]}
	if [ "$got" = "$wrel" ]; then
		pass "boot $b: kernel $want"
	else
		fail "boot $b: kernel $want" "came up on '${got:-nothing}'"
	fi
	if grep -aq -- "--reboot-cmd '.*': failed" "$w/boot-$b.log"; then
		fail "boot $b: the reboot is not logged as failed" "$(grep -a -m1 -- '--reboot-cmd' "$w/boot-$b.log")"
	fi
	rm -rf "$w/now" && mkdir -p "$w/now"
	lab_mounted bash -c 'cp var/lib/iostrat/history.jsonl var/lib/iostrat/results.log "$0/" 2>/dev/null;
		for f in srv/results/*/results.jsonl; do [ -e "$f" ] && { d=${f%/results.jsonl}; cp "$f" "$0/rows-${d##*/}"; }; done;
		iostrat() { chroot . /usr/local/bin/iostrat "$@"; }; iostrat queue list >"$0/list.txt"; true' "$w/now" 2>/dev/null
	# only grew: every byte the host saw after an earlier boot is still there
	local f name lost=
	for f in "$w"/seen/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		[ "$name" = list.txt ] && continue
		if [[ $name == rows-* ]]; then
			# a bench's rows: every complete row kept (a torn last one,
			# without its newline, is cut by the resume)
			local full; full=$(wc -l <"$f")
			cmp -s <(head -n "$full" "$f") <(head -n "$full" "$w/now/$name" 2>/dev/null) || lost+=" $name"
		else
			cmp -s -n "$(stat -c %s "$f")" "$f" "$w/now/$name" 2>/dev/null || lost+=" $name"
		fi
	done
	if [ -z "$lost" ]; then
		pass "boot $b: nothing written before is lost or rewritten"
	else
		fail "boot $b: nothing written before is lost or rewritten" "changed:$lost"
	fi
	# what the history gained
	local before=0 gained
	[ -e "$w/seen/history.jsonl" ] && before=$(wc -l <"$w/seen/history.jsonl")
	gained=$(tail -n +"$((before + 1))" "$w/now/history.jsonl" 2>/dev/null | jq -r '"\(.id):\(.outcome):\(.status)"' | xargs)
	if [ "$gained" = "${exp_hist[$((b - 1))]}" ]; then
		pass "boot $b: history ${gained:-unchanged}"
	else
		fail "boot $b: history ${exp_hist[$((b - 1))]:-unchanged}" "got '${gained}'"
	fi
	# each entry ran on the kernel it asked for: history, results.log, rows
	local id k
	for ((id = 1; id <= N; id++)); do
		k=${CHAIN[$((id - 1))]}
		if [[ " $gained " == *" $id:done:done "* ]]; then
			local hk lk rk
			hk=$(tail -n 1 <(jq -r "select(.id == $id) | .kernel" "$w/now/history.jsonl"))
			lk=$(grep -a "^=== iostrat queue: entry $id (" "$w/now/results.log" | tail -n 1 | sed 's/.*, kernel \([^,]*\),.*/\1/')
			rk=$(jq -r .kernel "$w/now/rows-k$k" | sort -u | xargs)
			if [ "$hk" = "${REL[$k]}" ] && [ "$lk" = "${REL[$k]}" ] && [ "$rk" = "${REL[$k]}" ]; then
				pass "entry $id ran on $k (history, results.log, rows)"
			else
				fail "entry $id ran on $k (history, results.log, rows)" "history $hk, results.log $lk, rows $rk"
			fi
		fi
	done
	if [[ " $gained " == *" $ID_WRONG:wrong-kernel:failed "* ]]; then
		local d; d=$(jq -r "select(.id == $ID_WRONG) | .detail" "$w/now/history.jsonl")
		[[ $d == "wanted kernel 1.0.0-lab but booted ${REL[6.1]} after switching to it" ]] &&
			pass "a boot on the wrong kernel: wrong-kernel, no loop" ||
			fail "a boot on the wrong kernel: wrong-kernel, no loop" "$d"
	fi
	if [ "$b" -eq 2 ]; then
		grep -aq "resuming /srv/results/k$K1, which an earlier attempt" "$w/now/results.log" &&
			[ "$(wc -l <"$w/now/rows-k$K1")" -eq 20 ] &&
			pass "power cut mid-bench: the retry resumed it, 20 rows" ||
			fail "power cut mid-bench: the retry resumed it, 20 rows" "$(wc -l <"$w/now/rows-k$K1" 2>/dev/null) rows"
	fi
	if [ "$b" -eq $((N + 2)) ] || [ "$b" -eq $((N + 3)) ]; then
		grep -aq "entry $ID_HANG: killed by the watchdog after" "$w/now/results.log" &&
			pass "boot $b: the hung entry killed by --timeout" ||
			fail "boot $b: the hung entry killed by --timeout" "no watchdog line in results.log"
	fi
	rm -rf "$w/seen" && mv "$w/now" "$w/seen"
}

# Item 4's restoring, on the entry-7 attempts: the cut one left nothing
# behind after the reboot, the full one put every scheduler back.
sched_checks() {
	local ok=1 why=
	ctl 30 'cd /srv/results && for f in sched-*/*.before sched-*/*.after sched-*/*.offered sched-*/*.rc sched-*/missing sched-*/run-state-at-start; do [ -e "$f" ] && echo "$f: $(xargs <"$f")"; done; ls /run/iostrat 2>/dev/null | sed "s/^/run: /"' >"$w/sched.txt"
	r1() { sed -n "s|^sched-1/$1: ||p" "$w/sched.txt"; }
	r2() { sed -n "s|^sched-2/$1: ||p" "$w/sched.txt"; }
	[ -n "$(r1 vda.before)" ] && [ "$(r2 vda.before)" = "$(r1 vda.before)" ] || { ok=0; why+=" vda after the cut: '$(r2 vda.before)' (before it: '$(r1 vda.before)')"; }
	[ -z "$(r2 run-state-at-start)" ] || { ok=0; why+=" state left in /run/iostrat: $(r2 run-state-at-start)"; }
	for d in vda loop; do
		[ "$(r2 "$d.rc")" = 0 ] || { ok=0; why+=" sched $d exit '$(r2 "$d.rc")'"; }
		[ -n "$(r2 "$d.after")" ] && [ "$(r2 "$d.after")" = "$(r2 "$d.before")" ] || { ok=0; why+=" $d not restored: '$(r2 "$d.before")' -> '$(r2 "$d.after")'"; }
	done
	SCHED_VDA=$(r2 vda.offered) SCHED_LOOP=$(r2 loop.offered) SCHED_MISSING=$(r2 missing)
	if [ "$ok" = 1 ]; then
		pass "sched on vda ($SCHED_VDA) and loop ($SCHED_LOOP), restored, also after a power cut mid-sched${SCHED_MISSING:+ (modules missing: $SCHED_MISSING)}"
	else
		fail "sched on vda and loop, restored, also after a power cut mid-sched" "$why"
	fi
}

# Item 3: every kernel's results, copied out of the disk.
compare_kernels() {
	local o=$w/out k dirs=()
	mkdir -p "$o"
	lab_mounted bash -c 'cp -a srv/results/k* "$0/"' "$o" 2>/dev/null
	for k in "${CHAIN[@]}"; do
		[ -s "$o/k$k/results.jsonl" ] || { fail "compare across kernels" "no results of $k copied out"; return; }
		dirs+=("$o/k$k")
	done
	if "$IOSTRAT" compare "${dirs[@]}" >"$o/compare.txt" 2>&1 &&
		awk '/^what differed/ { on = 1 } on && $1 == "kernel" { f = 1 } END { exit !f }' "$o/compare.txt"; then
		pass "compare of the $N kernels' results names kernel"
	else
		fail "compare of the $N kernels' results names kernel" "$(tail -n 2 "$o/compare.txt" | tr '\n' ' ')"
	fi
	if "$IOSTRAT" plot --compare "${dirs[@]}" -o "$o/cmp" >"$o/plot.txt" 2>&1 &&
		[ -s "$o/cmp/plots/compare.png" ]; then
		pass "plot --compare draws figure 6 for the $N kernels"
	else
		fail "plot --compare draws figure 6 for the $N kernels" "$(tail -n 1 "$o/plot.txt")"
	fi
	for k in "${CHAIN[@]}"; do
		if "$IOSTRAT" report "$o/k$k" >"$o/report-$k.txt" 2>&1 && grep -qF "${REL[$k]}" "$o/report-$k.txt"; then
			pass "report of $k's results"
		else
			fail "report of $k's results" "$(tail -n 1 "$o/report-$k.txt")"
		fi
	done
}

summary() {
	local total=$((SECONDS - t_all)) i sum=0 n=0 s
	for s in "${boot_s[@]}"; do sum=$((sum + s)); n=$((n + 1)); done
	echo "TIMES: build ${t_build:-?} s; boots ${boot_s[*]:-}; $n boots in $sum s; whole check $total s"
	# The queue's own time per boot, from the guest's console (kernel
	# timestamps): from the unit's start to the entry's, less --settle,
	# plus from the entry's end to the reboot command.
	local f o all=
	for f in "$w"/boot-*.log; do
		o=$(tr -d '\r' <"$f" | awk -v settle="$SETTLE" '
			function ts(l) { sub(/^\[ */, "", l); sub(/\].*/, "", l); return l + 0 }
			/iostrat queue: waiting .* to settle/ { w = ts($0) }
			/iostrat queue: running entry/ && !r { r = ts($0) }
			/iostrat queue: entry [0-9]+ .*: (done|failed|attempt)/ { e = ts($0) }
			/iostrat queue: rebooting:/ { b = ts($0) }
			END { if (w && r && e && b) printf "%.1f", (r - w - settle) + (b - e) }')
		[ -n "$o" ] && all+="$o "
	done
	echo "TIMES: run-next's own time in the boots that ran an entry and rebooted (s): ${all:-none}"
	echo "FACT: sched_vda ${SCHED_VDA:-?}"
	echo "FACT: sched_loop ${SCHED_LOOP:-?}"
	echo "FACT: sched_missing ${SCHED_MISSING:-none}"
}

case ${1:-} in
pre|post) [ -n "${LAB_MNT:-}" ] || lab_die "reboot.sh $1: run by grub-image.sh"
	DOC=$TOP/docs/reboot-queue.md
	declare -A REL
	img=$IOSTRAT_LAB_IMAGE
	while read -r name _; do REL[$name]=$(cat "$img/kernels/$name/release"); done < <(lab_kernel_lines)
	kernel_chain
	hook "$1" ;;
*) main "$@"; exit $? ;;
esac
