#!/usr/bin/env bash
# lab/fleet.sh: the fleet playbook (deploy/, docs/fleet.md) against two lab
# guests standing in for two machines (make check-lab runs it).
#
# Each guest boots from its own GRUB disk (lab/grub-image.sh) with sshd, a
# sudo user `bench` and a network that is QEMU's user networking with
# restrict=on: the guest reaches nothing, and the host reaches it only
# through ports forwarded on 127.0.0.1 (ssh, fio's server).  No other
# address is used.  QEMU runs without -no-reboot: a reboot is the guest's
# own, through the firmware and GRUB, as on a real box.
#
#   fleet-a   a direct run; the host cuts its power mid-run (QEMU killed,
#             then started again on the same disk)
#   fleet-b   a queued run with --kernel (6.1; GRUB's default is the newest lab kernel):
#             Ansible's reboot, the queue's switch to 6.1, the run
#   fleet-c   an inventory entry whose machine is off (nothing on its port)
#
# First run of the playbook: fleet-c is reported unreachable, fleet-a's
# cut-off run is told as such and what it had written is fetched (every
# byte seen on the guest before the cut), fleet-b's results come back
# from 6.1.  The rerun (fleet-c left out): fleet-a resumes and completes,
# nothing measured twice; fleet-b's done run is not run again.  Then
# compare and plot --compare across the two hosts, and `iostrat fio
# --client` against both guests' fio servers by host name.
# Prints "PASS: ..." / "FAIL: ...: why" lines, then the timings.
#
# Environment: IOSTRAT_LAB_FLEET_KEEP=DIR keeps the disks, consoles, logs
# and fetched results there; IOSTRAT_LAB_DEB=FILE the package to install
# (default: a fresh build/deb/iostrat_*.deb, else one built here).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

RUN=study

main() {
[ "$(id -u)" -eq 0 ] || { echo "SKIP: fleet through Ansible: needs root"; exit 0; }
for c in ansible-playbook ssh ssh-keygen sfdisk; do
	command -v "$c" >/dev/null || { echo "SKIP: fleet through Ansible: $c missing (make deps lab-deps)"; exit 0; }
done
IOSTRAT=$TOP/${BUILD:-build}/iostrat
[ -x "$IOSTRAT" ] || lab_die "$IOSTRAT: not built (make)"
t_all=$SECONDS

img=${IOSTRAT_LAB_IMAGE:-}
[ -e "$img/ready" ] || img=$("$LAB_TOP/image.sh") || exit 1
export IOSTRAT_LAB_IMAGE=$img
exec 7<"$img/ready"
flock -s 7 # an image rebuild never prunes it while this runs
REL61=$(cat "$img/kernels/6.1/release" 2>/dev/null)
REL612=$(cat "$img/kernels/6.12/release" 2>/dev/null)
if [ -z "$REL61" ] || [ -z "$REL612" ]; then
	echo "SKIP: fleet through Ansible: needs the lab kernels 6.1 and 6.12"; exit 0
fi

w=$(mktemp -d "$LAB_DIR/fleet.XXXXXX")
# The data directory on the guests (iostrat_dir), and the same path here:
# `iostrat fio --client` reads the data set's file list on this side.
GDIR=$w/hostdir
declare -gA QEMU PORT FIO # global: cleanup runs after main returns
# shellcheck disable=SC2317 # run by the EXIT trap (lab_checks)
cleanup() {
	local rc=$? h
	[ -n "${PLAY_PID:-}" ] && kill "$PLAY_PID" 2>/dev/null && wait "$PLAY_PID" 2>/dev/null
	for h in "${!QEMU[@]}"; do power_off "$h"; done
	# Ansible's ssh connections (ControlPersist) to the guests
	pkill -f "$w/home/.ansible/cp" 2>/dev/null
	if [ -n "${IOSTRAT_LAB_FLEET_KEEP:-}" ]; then
		mkdir -p "$IOSTRAT_LAB_FLEET_KEEP" && cp -a "$w/." "$IOSTRAT_LAB_FLEET_KEEP/"
	elif [ "${fails:-0}" -gt 0 ]; then
		mkdir -p "$LAB_DIR/failed"
		tail -n 400 "$w"/play-*.log "$w"/console-*.log >"$LAB_DIR/failed/$(date -u +%Y%m%dT%H%M%SZ)-fleet-$$.log" 2>/dev/null
	fi
	rm -rf "$w"
	return "$rc"
}
lab_checks cleanup
mkdir -p "$w/home"

# --- the package, the key, the disks -----------------------------------------
deb=${IOSTRAT_LAB_DEB:-}
if [ -z "$deb" ]; then
	deb=$(lab_fresh_deb "$w/deb") || { fail "the package for the hosts" "make deb failed: $(tail -n 1 "$w/deb/build.log" 2>/dev/null)"; return 1; }
fi
ssh-keygen -q -t ed25519 -N '' -C iostrat-lab-fleet -f "$w/id" || lab_die "ssh-keygen failed"
t0=$SECONDS
FLEET_PUBKEY=$w/id.pub "$LAB_TOP/grub-image.sh" build "$img" "$w/a.img" "$LAB_TOP/fleet.sh" 2>"$w/build.err" ||
	{ fail "two GRUB disks with sshd" "$(tail -n 2 "$w/build.err" | tr '\n' ' ')"; return 1; }
cp --sparse=always "$w/a.img" "$w/b.img"
for h in a b; do
	PORT[$h]=$(free_port) FIO[$h]=$(free_port)
	"$LAB_TOP/grub-image.sh" with "$w/$h.img" -- "$LAB_TOP/fleet.sh" host "fleet-$h" >"$w/hostkey-$h" 2>>"$w/build.err" ||
		{ fail "two GRUB disks with sshd" "naming $h: $(tail -n 1 "$w/build.err")"; return 1; }
	echo "[127.0.0.1]:${PORT[$h]} $(cat "$w/hostkey-$h")" >>"$w/known_hosts"
done
PORT[c]=$(free_port)
t_build=$((SECONDS - t0))
pass "two GRUB disks with sshd and a sudo user, each its own host keys (${t_build} s)"

# --- power on ------------------------------------------------------------------
t0=$SECONDS
power_on a && power_on b
if wait_ssh a 600 && wait_ssh b 600; then
	pass "both guests answer ssh on 127.0.0.1 only, host keys checked ($((SECONDS - t0)) s)"
else
	fail "both guests answer ssh on 127.0.0.1" "$why"; return 1
fi
t_boot=$((SECONDS - t0))
# restrict=on: not even the host's ports (fleet-b's ssh, listening on the
# host's 127.0.0.1, is 10.0.2.2 from the guest without it)
nets=$(gssh a 'ip -4 -o addr show scope global' | awk '{ print $4 }' | xargs)
out=$(gssh a "timeout 5 bash -c 'exec 3<>/dev/tcp/10.0.2.2/${PORT[b]}' 2>/dev/null && echo connected || echo refused")
if [ "$nets" = 10.0.2.15/24 ] && [ "$out" = refused ]; then
	pass "the guest's one network is QEMU's restricted one: it reaches nothing, not even the host ($nets)"
else
	fail "the guest's one network is QEMU's restricted one" "addresses '$nets'; a connection to the host: ${out:-no answer}"
fi

# --- the first run: a power cut, a reboot into another kernel, a host off -----
inventory with-c
printf '[global]\ndataset=big\nscale=0.002\nreps=4\ncache=asis\n[t]\nstrategy=stream,buffer\nthreads=1\nwork=%s\n' \
	"${IOSTRAT_LAB_FLEET_WORK:-400}" >"$w/fleet.ini"
t0=$SECONDS
playbook "$w/play-1.log"
cut_a_mid_run
rc1=0; wait "$PLAY_PID" || rc1=$?
PLAY_PID=
t_play1=$((SECONDS - t0))
check_first_run

# --- the rerun ----------------------------------------------------------------
inventory
t0=$SECONDS
playbook "$w/play-2.log"
rc2=0; wait "$PLAY_PID" || rc2=$?
PLAY_PID=
t_play2=$((SECONDS - t0))
check_rerun
check_compare
check_fio_client
summary
[ "$fails" -eq 0 ]
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# power_on H: QEMU for guest H on its disk, in the background; each power-on
# its own console file.
power_on() {
	local h=$1 n accel
	read -ra accel < <(lab_accel_args)
	n=$(compgen -G "$w/console-$h-*.log" | wc -l)
	qemu-system-x86_64 "${accel[@]}" -m 1536 -smp 1 -nodefaults -display none \
		-serial "file:$w/console-$h-$((n + 1)).log" \
		-drive "file=$w/$h.img,if=virtio,format=raw,cache=unsafe" \
		-nic "user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:${PORT[$h]}-:22,hostfwd=tcp:127.0.0.1:${FIO[$h]}-:8765" \
		>"$w/qemu-$h.log" 2>&1 &
	QEMU[$h]=$!
}
# power_off H: the plug pulled (SIGKILL: the guest's page cache is lost,
# what reached its disk stays).
power_off() {
	local pid=${QEMU[$1]:-}
	[ -n "$pid" ] || return 0
	kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	QEMU[$1]=
}

gssh() { # H CMD: CMD as root on guest H (bench + sudo, as Ansible logs in)
	local h=$1; shift
	ssh -q -i "$w/id" -p "${PORT[$h]}" -o UserKnownHostsFile="$w/known_hosts" -o GlobalKnownHostsFile=/dev/null \
		-o StrictHostKeyChecking=yes -o ConnectTimeout=5 -o BatchMode=yes bench@127.0.0.1 "sudo bash -c $(printf %q "$*")"
}
why=
wait_ssh() { # H SECS
	local i
	for ((i = 0; i < $2; i += 2)); do
		gssh "$1" true 2>/dev/null && return 0
		kill -0 "${QEMU[$1]}" 2>/dev/null || { why="fleet-$1's QEMU ended: $(tail -n 2 "$w/qemu-$1.log")"; return 1; }
		sleep 2
	done
	why="fleet-$1: no ssh in $2 s (console: $(tail -n 2 "$(compgen -G "$w/console-$1-*.log" | tail -n 1)" | tr '\n' ' '))"
	return 1
}

# inventory [with-c]: the two guests by their forwarded ports, fleet-c
# (a machine that is off) when asked.
inventory() {
	cat >"$w/inv.ini" <<-EOF
	[iostrat_fleet]
	fleet-a ansible_port=${PORT[a]}
	fleet-b ansible_port=${PORT[b]} iostrat_kernel=$REL61
	${1:+fleet-c ansible_port=${PORT[c]}}

	[iostrat_fleet:vars]
	ansible_host=127.0.0.1
	ansible_user=bench
	ansible_ssh_private_key_file=$w/id
	ansible_ssh_common_args='-o UserKnownHostsFile=$w/known_hosts -o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=5'
	ansible_python_interpreter=/usr/bin/python3
	iostrat_run=$RUN
	iostrat_dir=$GDIR
	iostrat_fleet_dir=$w/fleet
	iostrat_profile=$w/fleet.ini
	iostrat_fio_server=true
	iostrat_queue_settle=1
	iostrat_direct_poll=2
	iostrat_poll_delay=3
	iostrat_poll_batch=20
	iostrat_boot_timeout=600
	iostrat_wait_timeout=900
	EOF
}
# playbook LOG: ansible-playbook in the background, its pid (timeout's,
# which passes a TERM on) in PLAY_PID
PLAY_PID=
playbook() {
	# ANSIBLE_LOG_PATH: the same output with a time on every line
	HOME=$w/home ANSIBLE_CONFIG=$TOP/deploy/ansible.cfg ANSIBLE_LOCAL_TEMP=$w/home/tmp \
	ANSIBLE_LOG_PATH=${1%.log}.timed.log \
	timeout --kill-after=10 1200 ansible-playbook -i "$w/inv.ini" "$TOP/deploy/site.yml" \
		-e iostrat_deb="$deb" >"$1" 2>&1 &
	PLAY_PID=$!
}
rows_of() { local n; n=$(grep -c '"kind": *"run"' "$1" 2>/dev/null); echo "${n:-0}"; }

# While the first playbook runs: once fleet-a's bench has written two rows
# (and a second has passed, for their fsync), its power is cut and, at
# once, given back.  What the guest had written is kept aside to be
# looked for in what comes back.
cut_a_mid_run() {
	local i n=0 f=$GDIR/results/$RUN/results.jsonl
	for ((i = 0; i < 900; i++)); do
		kill -0 "$PLAY_PID" 2>/dev/null || break
		n=$(gssh a "grep -c '\"kind\": *\"run\"' $f 2>/dev/null" 2>/dev/null)
		[ "${n:-0}" -ge 2 ] 2>/dev/null && break
		sleep 1
	done
	[ "${n:-0}" -ge 2 ] 2>/dev/null || { CUT_WHY="fleet-a's run never wrote 2 rows (${n:-nothing}): $(tail -n 3 "$w/play-1.log" | tr '\n' ' ')"; return; }
	sleep 1 # for the rows' fsync
	gssh a "cat $f" >"$w/seen-a.jsonl" 2>/dev/null
	power_off a
	CUT_ROWS=$(rows_of "$w/seen-a.jsonl")
	echo "lab: fleet-a's power cut with $CUT_ROWS rows written" >&2
	power_on a
}

# every byte of FILE_A starts FILE_B
prefix_of() { cmp -s -n "$(stat -c %s "$1")" "$1" "$2"; }

check_first_run() {
	local log=$w/play-1.log fa=$w/fleet/$RUN/fleet-a fb=$w/fleet/$RUN/fleet-b n
	if [ -n "${CUT_WHY:-}" ]; then
		fail "power cut of fleet-a mid-run" "$CUT_WHY"
	else
		n=$(rows_of "$fa/results.jsonl")
		if grep -q "fleet-a.*the host went down mid-run" "$log" && [ "$n" -ge "$CUT_ROWS" ] && [ "$n" -lt 8 ] &&
			prefix_of "$w/seen-a.jsonl" "$fa/results.jsonl"; then
			pass "fleet-a's power cut mid-run: told as such, its $n rows fetched, all $CUT_ROWS seen before the cut among them"
		else
			fail "fleet-a's power cut mid-run: told, partial rows fetched, nothing lost" \
				"$n rows fetched, $CUT_ROWS seen; $(grep -m1 'fleet-a.*msg' "$log")"
		fi
	fi
	if grep -Eq 'fleet-c +: .*unreachable=1' "$log" &&
		grep -q "NO RESULTS from .*fleet-c" "$log" && [ ! -e "$w/fleet/$RUN/fleet-c" ] && [ "$rc1" -ne 0 ]; then
		pass "a machine that is off: unreachable in the recap, named in the summary, exit $rc1"
	else
		fail "a machine that is off: reported" "exit $rc1; $(grep -E '^fleet-c ' "$log")"
	fi
	n=$(rows_of "$fb/results.jsonl")
	local k; k=$(jq -r .kernel "$fb/env.json" 2>/dev/null)
	if [ "$n" -eq 8 ] && [ "$k" = "$REL61" ] && grep -Eq 'fleet-b +: .*failed=0' "$log" &&
		grep -q '"outcome": *"done"' "$fb/queue/history.jsonl" 2>/dev/null; then
		pass "fleet-b's queued run: Ansible's reboot, the queue's switch to $REL61, 8 rows back from it"
	else
		fail "fleet-b's queued run with --kernel 6.1" "$n rows, kernel '$k'; $(grep -E '^fleet-b ' "$log"); $(grep -m1 'fleet-b.*msg' "$log")"
	fi
	n=$(cat "$w"/console-b-*.log | grep -ac 'Linux version ')
	local ks; ks=$(cat "$w"/console-b-*.log | grep -a 'Linux version ' | awk '{ for (i = 1; i < NF; i++) if ($i == "version") print $(i + 1) }' | xargs)
	if [ "$n" -ge 3 ] && [ "${ks##* }" = "$REL61" ]; then
		pass "fleet-b booted $n times through GRUB, last into $REL61 (serial console: $ks)"
	else
		fail "fleet-b's boots through GRUB" "$n boots: $ks"
	fi
}

check_rerun() {
	local fa=$w/fleet/$RUN/fleet-a fb=$w/fleet/$RUN/fleet-b
	python3 - "$fa/results.jsonl" >"$w/rerun-a.txt" 2>&1 <<-'PY'
	import json, sys
	rows = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l).get("kind") == "run"]
	keys = [(r["config_id"], r["rep"]) for r in rows]
	assert len(rows) == 8 and len(set(keys)) == 8, keys
	PY
	if [ "$rc2" -eq 0 ] && [ ! -s "$w/rerun-a.txt" ] && prefix_of "$w/seen-a.jsonl" "$fa/results.jsonl"; then
		pass "the rerun: fleet-a resumed to 8 rows, none measured twice, the rows before the cut unchanged"
	else
		fail "the rerun resumes fleet-a" "exit $rc2; $(tail -n 1 "$w/rerun-a.txt"); $(grep -E '^fleet-a ' "$w/play-2.log")"
	fi
	if [ "$(rows_of "$fb/results.jsonl")" -eq 8 ] && [ "$(grep -c '"outcome": *"done"' "$fb/queue/history.jsonl")" -eq 1 ]; then
		pass "the rerun: fleet-b's done run not queued or run again"
	else
		fail "the rerun: fleet-b's done run not run again" "$(rows_of "$fb/results.jsonl") rows; $(grep -c 'done' "$fb/queue/history.jsonl") done"
	fi
}

check_compare() {
	local d=$w/fleet/$RUN
	if "$IOSTRAT" compare "$d/fleet-a" "$d/fleet-b" >"$w/compare.txt" 2>&1 &&
		grep -q 'the machines differ in: .*kernel' "$w/compare.txt" &&
		grep -Eq '^ *host +fleet-a +fleet-b' "$w/compare.txt" &&
		grep -q '^fleet: the fastest strategy per cell' "$w/compare.txt"; then
		pass "compare across the two hosts: labelled by host, $(grep -o 'the machines differ in: .*' "$w/compare.txt"), the fleet summary"
	else
		fail "compare across the two hosts" "$(tail -n 3 "$w/compare.txt" | tr '\n' ' ')"
	fi
	if "$IOSTRAT" plot --compare "$d/fleet-a" "$d/fleet-b" -o "$w/cmp" >"$w/plot.txt" 2>&1 && [ -s "$w/cmp/plots/compare.png" ]; then
		pass "plot --compare draws figure 6 across the two hosts"
	else
		fail "plot --compare across the two hosts" "$(tail -n 1 "$w/plot.txt")"
	fi
}

# fio's client against both guests' servers (started by the playbook's
# unit, fleet-b's after its reboots), the hosts by name: localhost.
check_fio_client() {
	# the guests' data set, made here at the same path (the same preset,
	# scale and seed: the same files)
	if IOSTRAT_DATA=$GDIR/data "$IOSTRAT" fio seq-psync --dataset big --scale 0.002 --cache asis --reps 1 \
		--client "localhost:${FIO[a]},localhost:${FIO[b]}" --out "$w/fio" >"$w/fio.txt" 2>&1; then
		local hosts want
		hosts=$(jq -r 'select(.kind == "fio") | .host' "$w/fio/results.jsonl" 2>/dev/null | sort | xargs)
		want=$(printf '%s\n' "localhost:${FIO[a]}" "localhost:${FIO[b]}" | sort | xargs)
		if [ "$hosts" = "$want" ]; then
			pass "iostrat fio --client: a row from each guest's fio server, by host name"
		else
			fail "iostrat fio --client on both guests" "rows of '$hosts'"
		fi
	else
		fail "iostrat fio --client on both guests" "$(tail -n 2 "$w/fio.txt" | tr '\n' ' ')"
	fi
}

summary() {
	echo "TIMES: disks ${t_build:-?} s; first boot ${t_boot:-?} s; playbook ${t_play1:-?} s (cut, reboots, unreachable), rerun ${t_play2:-?} s; whole check $((SECONDS - t_all)) s"
}

# grub-image.sh's hook: what makes the disk a fleet host.
hook() {
	local m=$LAB_MNT
	[ "$1" = pre ] || return 0
	# sshd (masked in every other lab guest); keys only
	rm -f "$m/etc/systemd/system/ssh.service" "$m/etc/systemd/system/ssh.socket"
	ln -sf /lib/systemd/system/ssh.service "$m/etc/systemd/system/multi-user.target.wants/ssh.service"
	printf 'PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin no\nUseDNS no\n' \
		>"$m/etc/ssh/sshd_config.d/lab.conf"
	# the one network: QEMU's user networking, its fixed guest address
	mkdir -p "$m/etc/systemd/network"
	printf '[Match]\nType=ether\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n' \
		>"$m/etc/systemd/network/lab.network"
	ln -sf /lib/systemd/system/systemd-networkd.service "$m/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
	# the user Ansible logs in as, with sudo, as docs/fleet.md asks of a host
	chroot "$m" useradd -m -s /bin/bash bench
	echo 'bench ALL=(ALL) NOPASSWD: ALL' >"$m/etc/sudoers.d/bench"
	chmod 0440 "$m/etc/sudoers.d/bench"
	install -d -m 0700 -o "$(chroot "$m" id -u bench)" -g "$(chroot "$m" id -g bench)" "$m/home/bench/.ssh"
	install -m 0600 -o "$(chroot "$m" id -u bench)" -g "$(chroot "$m" id -g bench)" "$FLEET_PUBKEY" "$m/home/bench/.ssh/authorized_keys"
	# no oneshot lab unit, no queue of the reboot lab: a plain box
	rm -f "$m/etc/systemd/system/multi-user.target.wants/iostrat-lab.service"
}

# host NAME (through grub-image.sh with): the disk's own name, machine-id
# and ssh host keys; prints its ed25519 public key.
host_identity() {
	local m=$LAB_MNT
	echo "$1" >"$m/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n' "$1" >"$m/etc/hosts"
	tr -dc 0-9a-f </dev/urandom | head -c 32 >"$m/etc/machine-id"; echo >>"$m/etc/machine-id"
	rm -f "$m"/etc/ssh/ssh_host_*
	ssh-keygen -q -t ed25519 -N '' -C "root@$1" -f "$m/etc/ssh/ssh_host_ed25519_key"
	cut -d' ' -f1,2 "$m/etc/ssh/ssh_host_ed25519_key.pub"
}

case ${1:-} in
pre|post) [ -n "${LAB_MNT:-}" ] || lab_die "fleet.sh $1: run by grub-image.sh"; hook "$1" ;;
host) [ -n "${LAB_MNT:-}" ] || lab_die "fleet.sh host: run by grub-image.sh with"; host_identity "$2" ;;
*) main "$@"; exit $? ;;
esac
