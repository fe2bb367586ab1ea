# Sourced by tests/*.sh.  One test case = one shell function run by `t`:
#
#   t name_of_behaviour  [func [args...]]
#
# func (name_of_behaviour itself when there is none) runs in a subshell with `set -e`; it passes by returning 0, fails
# otherwise (message: the last line it printed, or `die "why"`), and skips
# with `skip "reason"` (no root, no kernel feature, no device).
# $IOSTRAT is the binary under test; $T a fresh temporary directory per
# case, removed afterwards (loop devices and mounts: clean up with trap in
# the function, or use with_loop_ext4 below).
#
# The tests' error mode (docs/shell.md): `set -u`, set here; each case
# under `set -e` in its subshell; what matters checked, ending in die/skip.
# shellcheck shell=bash
set -u
: "${IOSTRAT:?run through tests/run.sh}"
TV=${TV:-$TOP/tests/vectors}

die() { echo "$*"; exit 1; }
skip() { echo "SKIP-REASON $*"; exit 77; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1"; }
# vector_set: the test vectors as one data set in $T/in (names without .in,
# so outputs compare); a FAIL without them, they are part of the repository
vector_set() {
	[ -d "$TV" ] || die "no $TV: the test vectors are part of the repository"
	mkdir -p "$T/in"
	for f in "$TV"/*.in; do cp "$f" "$T/in/$(basename "$f" .in)"; done
}
# check_vectors WHAT W OUT: each output in OUT of vector_set's inputs is
# the test vector of work level W (WHAT names the run in the message)
check_vectors() {
	local s=$1 w=$2 out=$3 f
	for f in "$T"/in/*; do
		cmp -s "$TV/$(basename "$f").w$w.out" "$out/$(basename "$f")" ||
			die "$s w=$w: $(basename "$f") differs from the test vector"
	done
}
# names_in DIR: the names in DIR, dot files too, sorted, one a line (what
# `ls -A` shows, without parsing ls)
names_in() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort; }

# A Ctrl-C, or the runner's timeout (TERM), in the middle of a case: its $T
# goes too (then the suite's own EXIT trap, if it has one, runs).
lib_interrupted() { [ -n "${T:-}" ] && rm -rf "$T"; exit "$1"; }
trap 'lib_interrupted 130' INT
trap 'lib_interrupted 143' TERM

# not_c_under_sanitizers WHY: a file whose cases run no C that the other
# files do not run too (the build, the docs, the tree, shell and YAML):
# under a sanitizer build (build-asan, build-tsan) each case SKIPs with WHY
# instead of spending the sanitizer run's minutes again on the same checks.
sanitizer_build() { case ${BUILD:-build} in build-asan | build-tsan) return 0 ;; esac; return 1; }
not_c_under_sanitizers() { ! sanitizer_build || SANITIZER_SKIP=$1; }
# skip_under_sanitizers WHY: the same for one case (in its function)
skip_under_sanitizers() { ! sanitizer_build || skip "$1"; }

# TEST_TIMES=1: a "TIME: name: seconds" line after each case (the lab's
# guest checks say where a guest's minutes go; the runner ignores it).
t() {
	local name=$1; shift
	[ $# -gt 0 ] || set -- "$name"
	local out rc t0=$SECONDS
	if [ -n "${SANITIZER_SKIP:-}" ]; then echo "SKIP: $name: $SANITIZER_SKIP"; return; fi
	T=$(mktemp -d /tmp/iostrat-test.XXXXXX)
	export T
	out=$( (set -e; "$@") 2>&1 )
	rc=$?
	case $rc in
	0) echo "PASS: $name" ;;
	77) echo "SKIP: $name: $(printf '%s\n' "$out" | sed -n 's/^SKIP-REASON //p' | tail -n1)" ;;
	*) echo "FAIL: $name: $(printf '%s\n' "$out" | tail -n 1)"
	   printf '%s\n' "$out" | tail -n 20 | sed 's/^/    | /' ;;
	esac
	[ -z "${TEST_TIMES:-}" ] || echo "TIME: $name: $((SECONDS - t0))"
	rm -rf "$T"
}

# run CMD..., expecting failure: non-zero exit and stderr matching REGEX
#   expect_fail REGEX cmd...
expect_fail() {
	local re=$1; shift
	local err rc=0
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 0 ] || die "expected failure, got exit 0: $*"
	printf '%s\n' "$err" | grep -Eq -- "$re" || die "stderr did not match /$re/: $err"
	[ "$(printf '%s\n' "$err" | grep -c .)" -le 3 ] || die "more than a short error: $err"
}

# Make an ext4 image of SIZE_MB on a loop device, mount it at $1.
# Sets LOOPDEV, and the EXIT trap to cleanup_loop, which undoes it (a case
# that sets its own EXIT trap after this calls cleanup_loop from it).
with_loop_ext4() {
	local mnt=$1 size=${2:-64}
	need_root
	need_cmd losetup
	need_cmd mkfs.ext4
	trap cleanup_loop EXIT
	truncate -s "${size}M" "$T/img"
	mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
	LOOPDEV=$(losetup --find --show --direct-io=on "$T/img" 2>/dev/null) || skip "no loop device"
	mkdir -p "$mnt"
	mount "$LOOPDEV" "$mnt" || { losetup -d "$LOOPDEV"; skip "cannot mount loop ext4"; }
	LOOPMNT=$mnt
}
# A mount still busy for a moment (a killed child's last writes) is tried
# again for 5 s; the loop device goes whatever happened, so a case that
# fails leaks neither (an EXIT trap runs under the case's set -e).
cleanup_loop() {
	local i
	if [ -n "${LOOPMNT:-}" ]; then
		for i in $(seq 25); do
			umount "$LOOPMNT" 2>/dev/null && break
			mountpoint -q "$LOOPMNT" || break
			sleep 0.2
		done
	fi
	if [ -n "${LOOPDEV:-}" ]; then
		losetup -d "$LOOPDEV" 2>/dev/null || true
	fi
	true
}

# faultfs (tests/tools/faultfs.c): BACKING served at MNT with faults.
FAULTFS=$TOP/$BUILD/tools/faultfs
mount_faultfs() { # BACKING MNT ARGS...
	local b=$1 m=$2; shift 2
	need_root
	[ -e /dev/fuse ] || skip "no /dev/fuse"
	[ -x "$FAULTFS" ] || skip "faultfs not built"
	mkdir -p "$m"
	"$FAULTFS" "$b" "$m" "$@" &
	for _ in $(seq 50); do mountpoint -q "$m" && return 0; sleep 0.1; done
	skip "cannot mount FUSE"
}
# wait_gone PATTERN [SECONDS]: until no process's command line matches
# PATTERN (pgrep -f), for at most SECONDS (5); non-zero if one still does
wait_gone() {
	local i
	for ((i = 0; i < ${2:-5} * 20; i++)); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.05
	done
	return 1
}
umount_faultfs() { fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null; wait 2>/dev/null; true; }

# in_private_mount_ns CMD...: CMD in a mount namespace of its own whose
# mounts are all slaves of the system's, so what it mounts or unmounts stays
# inside and goes with it.  In a chroot, where / is not a mount point and
# unshare's default (--propagation private on /) fails with EINVAL, each
# mount is made a slave on its own.  Skips when there is no such namespace.
in_private_mount_ns() {
	need_root
	need_cmd unshare
	need_cmd findmnt
	unshare --mount --propagation unchanged true 2>/dev/null ||
		skip "cannot make a mount namespace"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation unchanged sh -c '
		mount --make-rslave / 2>/dev/null ||
			findmnt -lno TARGET | while IFS= read -r m; do
				mount --make-slave "$m" || exit 1
			done || { echo "cannot make the mounts slaves" >&2; exit 98; }
		exec "$@"' sh "$@"
}

# chroot_of_system ROOT: a chroot of this system's own directories, bound in
# the caller's mount namespace (run it under in_private_mount_ns, through
# `declare -f`), with /proc, /sys, /dev and $IOSTRAT's directory.  ROOT
# itself is no mount point, as in a root made by debootstrap.
chroot_of_system() {
	local r=$1 d
	for d in usr etc bin sbin lib lib64 lib32; do
		if [ -L "/$d" ]; then
			ln -s "$(readlink "/$d")" "$r/$d"
		elif [ -d "/$d" ]; then
			mkdir "$r/$d" && mount --rbind "/$d" "$r/$d"
		fi
	done
	for d in proc sys dev; do
		mkdir "$r/$d" && mount --rbind "/$d" "$r/$d"
	done
	mkdir -p "$r/tmp" "$r$(dirname "$IOSTRAT")" &&
		mount --bind "$(dirname "$IOSTRAT")" "$r$(dirname "$IOSTRAT")"
}

# csv_rows FILE: each data line of a CSV file (results.csv, summary.csv) as
# one JSON object keyed by the header, every value a string (empty for
# none), as a CSV reader gives them; quoted fields may hold "" and commas.
csv_rows() {
	jq -Rnc 'def fields: (. + ",") | [scan("(?:\"((?:[^\"]|\"\")*)\"|([^,\"]*)),")
		| if .[0] != null then .[0] | gsub("\"\""; "\"") else .[1] end];
		(input | fields) as $h | inputs | select(. != "") | fields
		| [$h, .] | transpose | map({(.[0]): (.[1] // "")}) | add' "$1"
}

# free_port: a 127.0.0.1 TCP port nothing listens on now, below the
# kernel's ephemeral range (so no outgoing connection holds it either).
free_port() {
	local p _
	for _ in $(seq 100); do
		p=$((20000 + RANDOM % 12000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	echo "no free port found" >&2
	return 1
}
