#!/usr/bin/env bash
# lab/fresh-root.sh: the front door on a fresh machine (a stage of make
# check-lab; docs/lab.md "A fresh root").
#
# A bookworm root made from nothing -- mmdebstrap's base system (Essential,
# required, important) plus make, git, ca-certificates and sudo -- used as a
# chroot with /proc, /sys and /dev from the host.  The project is cloned
# into it (the checkout's HEAD), and the README's first command runs there
# at a small scale: PROFILE=profiles/smoke.ini SCALE=... make run, which
# installs the deps and builds.  Checks, as "PASS: fresh root: ..." lines:
# make run succeeds, its build has the eBPF probes, each configuration has
# a traced repetition (trace_mode in results.jsonl) and no timed one is
# traced, its report shows the kernel view, and
# every command the tests and scripts run is installed there by make deps
# or in the base system (mk/cmds-in-deps.sh --require).
#
# The pristine root is cached as a tarball in $LAB_DIR/fresh-root/ (built
# when missing, about 20 s); the host's apt archive cache is bound into the
# root's (downloads are shared; the root holds only what it installs).
# Mounts and the root go on every exit, Ctrl-C and TERM too.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

FRESH=$LAB_DIR/fresh-root
TARBALL=$FRESH/bookworm-make-git.tar
SMOKE_SCALE=${IOSTRAT_LAB_FRESH_SCALE:-0.002}

# pristine: the cached root tarball, built under a lock when missing
pristine() {
	mkdir -p "$FRESH"
	exec 7>"$FRESH/lock"
	flock 7
	if [ ! -s "$TARBALL" ]; then
		lab_say "building the fresh root (log: $FRESH/build.log)"
		mmdebstrap --mode=root --format=tar --include=make,git,ca-certificates,sudo \
			"$LAB_SUITE" "$TARBALL.tmp" "deb $(lab_mirror) $LAB_SUITE main" >"$FRESH/build.log" 2>&1 ||
			{ rm -f "$TARBALL.tmp"; flock -u 7; return 1; }
		mv "$TARBALL.tmp" "$TARBALL"
	fi
	flock -u 7
}

root='' job=''
mounts=()
# bind SRC DIR: SRC at $root/DIR, recursively, its unmounts not passed
# back to the host (rslave)
bind() {
	mkdir -p "$root/$2"
	mount --rbind "$1" "$root/$2" && mount --make-rslave "$root/$2" && mounts+=("$root/$2")
}
# in_root_pids: the processes running in the root (apt's dpkg too, which
# is a process group of its own)
in_root_pids() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && echo "${p#/proc/}"
	done
}
cleanup() {
	local i p
	if [ -n "$root" ]; then
		for i in $(seq 20); do
			p=$(in_root_pids)
			[ -z "$p" ] && break
			# shellcheck disable=SC2086 # a list of pids
			kill "-$([ "$i" -lt 10 ] && echo TERM || echo KILL)" $p 2>/dev/null
			sleep 0.5
		done
	fi
	[ -n "$job" ] && wait "$job" 2>/dev/null
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -R "${mounts[$i]}" 2>/dev/null || umount -R -l "${mounts[$i]}"
	done
	# --one-file-system: never into a mount that could not be undone
	[ -n "$root" ] && rm -rf --one-file-system "$root"
}

# in_root CMD: CMD in the clone, in the root, as its own process group
# waited for in the background: a TERM stops it at once (cleanup)
in_root() {
	local rc=0
	(exec setsid chroot "$root" /bin/bash -c "cd /root/iostrat && $1") & job=$!
	wait "$job" || rc=$?
	job=''
	return "$rc"
}

checks() {
	local out=$root/root/iostrat/results configs traced timed_traced
	grep -q '^make run: done' "$FRESH_LOG" && pass "fresh root: make run" ||
		{ fail "fresh root: make run" "$(tail -n 2 "$FRESH_LOG" | tr '\n' ' ')"; return; }
	if grep -q 'built without eBPF probes' "$FRESH_LOG" || ! grep -q 'eBPF probes built' "$root/root/iostrat/build/config/ebpf.h"; then
		fail "fresh root: make run builds the eBPF probes" "$(grep -m1 'built without eBPF probes' "$FRESH_LOG")"
	else
		pass "fresh root: make run builds the eBPF probes"
	fi
	# every configuration has a traced repetition (trace_mode), and no timed
	# one -- the elapsed figures' -- was traced
	read -r configs traced timed_traced < <(cat "$out"/*/results.jsonl 2>/dev/null | jq -rs '
		[.[] | select(.kind == "run")] as $r
		| [($r | map(.config_id) | unique | length),
		   ($r | map(select(.role == "traced" and .traced == true and (.trace_mode | type) == "string")
			| .config_id) | unique | length),
		   ($r | map(select(.role != "traced" and .traced != false)) | length)] | @tsv')
	if [ "${configs:-0}" -gt 0 ] && [ "$configs" = "$traced" ] && [ "$timed_traced" = 0 ]; then
		pass "fresh root: make run traces a repetition of each configuration, never a timed one"
	else
		fail "fresh root: make run traces a repetition of each configuration, never a timed one" \
			"${traced:-0} of ${configs:-0} configurations have a traced repetition; ${timed_traced:-?} timed rows traced"
	fi
	grep -q 'kernel view (eBPF, traced runs)' "$FRESH_LOG" && pass "fresh root: the report shows the kernel view" ||
		fail "fresh root: the report shows the kernel view" "no kernel view table in make run's report"
	# make run installs what running needs; the tests' and CI's tools are make deps'
	# (asked for by name: a dependency of a run package does not count)
	local extra
	in_root 'apt-mark showmanual' 2>/dev/null | sort >"$FRESH/pkgs.after"
	extra=$(comm -13 "$FRESH/pkgs.before" "$FRESH/pkgs.after" |
		grep -Fxf <(make -s -C "$TOP" --no-print-directory check-tool-pkgs) | paste -sd' ')
	if [ -z "$extra" ]; then
		pass "fresh root: make run installs only what running needs"
	else
		fail "fresh root: make run installs only what running needs" "also installed: $extra"
	fi
	if in_root "make deps >/dev/null && make -s cmds-in-deps REQUIRE=/tmp/cmds" >"$FRESH/cmds.log" 2>&1; then
		pass "fresh root: every command run is installed by make deps"
	else
		fail "fresh root: every command run is installed by make deps" "$(grep -m1 . "$FRESH/cmds.log")"
	fi
}

main() {
	local t0=$SECONDS pkgs
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: fresh root: make run: needs root (chroot, mounts)"; return 0; }
	command -v mmdebstrap >/dev/null || lab_die "mmdebstrap missing: run make lab-deps"
	lab_checks cleanup
	pristine || { fail "fresh root: bootstrap" "mmdebstrap: $(tail -n 1 "$FRESH/build.log")"; return 1; }
	root=$(mktemp -d "$FRESH/root.XXXXXX")
	tar -C "$root" -xf "$TARBALL" || { fail "fresh root: unpack" "tar failed"; return 1; }
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	for d in proc sys dev; do bind "/$d" "$d" || { fail "fresh root: mounts" "cannot bind /$d"; return 1; }; done
	[ -d /var/cache/apt/archives ] && bind /var/cache/apt/archives var/cache/apt/archives
	git clone -q "$TOP" "$root/root/iostrat" || { fail "fresh root: clone" "git clone $TOP failed"; return 1; }
	# what make deps must install, as this full machine resolves it
	mapfile -t pkgs < <(make -s -C "$TOP" --no-print-directory deps-list)
	"$TOP/mk/cmds-in-deps.sh" --list "${pkgs[@]}" >"$root/tmp/cmds"
	FRESH_LOG=$FRESH/run.log
	# what is installed by name (apt-mark's manual), not as a dependency:
	# a run package may pull in a check tool (python3) as its own
	in_root 'apt-mark showmanual' 2>/dev/null | sort >"$FRESH/pkgs.before"
	in_root "PROFILE=profiles/smoke.ini SCALE=$SMOKE_SCALE make run && echo 'make run: done'" >"$FRESH_LOG" 2>&1
	checks
	echo "TIMES: fresh root $((SECONDS - t0)) s (log: $FRESH_LOG)"
	[ "$fails" -eq 0 ]
}
main "$@"
