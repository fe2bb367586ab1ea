# Shared by lab/*: where the lab lives, the archive it builds from, and a
# private apt configuration (the host's own apt state is never touched).
# Sets no error mode: its scripts have their kind's (docs/shell.md).
# shellcheck shell=bash

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$LAB_TOP/.." && pwd)
# Outside the checkout, so a fresh clone (and CI) reuses the image; /var/tmp
# survives reboots, unlike /tmp.
LAB_DIR=${IOSTRAT_LAB_DIR:-/var/tmp/iostrat-lab}
LAB_KERNELS=${IOSTRAT_LAB_KERNELS_FILE:-$LAB_TOP/kernels.conf}
LAB_SUITE=bookworm

lab_die() { echo "lab: $*" >&2; exit 1; }
lab_say() { echo "lab: $*" >&2; }

# The Debian archive: $IOSTRAT_LAB_MIRROR, else the one the host's apt uses
# for bookworm (so a site's local mirror or proxy carries over).
lab_mirror() {
	if [ -n "${IOSTRAT_LAB_MIRROR:-}" ]; then
		echo "$IOSTRAT_LAB_MIRROR"
		return
	fi
	local m
	m=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
		awk '$2 == "bookworm" && $1 !~ /security/ { print $1; exit }')
	[ -n "$m" ] || lab_die "no Debian bookworm archive in the host's apt sources; set IOSTRAT_LAB_MIRROR"
	echo "$m"
}

# Every suite the kernels and the userspace come from.
lab_suites() {
	{ echo "$LAB_SUITE"; awk '!/^#/ && NF >= 2 && $2 !~ /\// { print $2 }' "$LAB_KERNELS"; } | sort -u
}

# lab_apt CMD ARGS...: apt-get/apt-cache over the lab's own sources and state.
LAB_APT=$LAB_DIR/apt
lab_apt() {
	local cmd=$1; shift
	"$cmd" -q -o Dir::Etc::SourceList="$LAB_APT/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists="$LAB_APT/lists" \
		-o Dir::Cache="$LAB_APT/cache" -o Dir::State::status=/dev/null \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/nonexistent \
		"$@"
}

lab_apt_update() {
	local m s
	m=$(lab_mirror)
	mkdir -p "$LAB_APT/lists/partial" "$LAB_APT/cache/archives/partial"
	for s in $(lab_suites); do echo "deb $m $s main"; done >"$LAB_APT/sources.list.new"
	mv "$LAB_APT/sources.list.new" "$LAB_APT/sources.list"
	lab_apt apt-get update >"$LAB_APT/update.log" 2>&1 &&
		! grep -qE '^(W|E): (Failed|Some index files failed)' "$LAB_APT/update.log"
}

# lab_kernel_pkg SUITE: "PACKAGE VERSION" of the kernel linux-image-amd64 of
# SUITE depends on (the ABI-named package, so several suites' kernels can sit
# side by side), wherever it stands in the Depends (from 7.x the list opens
# with linux-base-amd64).
lab_kernel_pkg() {
	local suite=$1 ver dep
	ver=$(lab_apt apt-cache madison linux-image-amd64 |
		awk -F' *[|] *' -v s=" $suite/main " 'index($3, s) { print $2; exit }')
	[ -n "$ver" ] || lab_die "$suite: no linux-image-amd64 in the lab's archive"
	dep=$(lab_apt apt-cache show "linux-image-amd64=$ver" | sed -n 's/^Depends: *//p' | head -n 1 |
		tr ',' '\n' | awk '$1 ~ /^linux-image-/ { print $1; exit }')
	[ -n "$dep" ] || lab_die "$suite: linux-image-amd64 $ver names no kernel package"
	echo "$dep $(lab_apt apt-cache madison "$dep" | awk -F' *[|] *' '{ print $2; exit }')"
}

# The kernels: "NAME SOURCE [BUILDER]" lines of kernels.conf.
lab_kernel_lines() { awk '!/^#/ && NF >= 2 { print $1, $2, $3 }' "$LAB_KERNELS"; }

# lab_fresh_deb DIR: the package to install in a guest, copied into DIR:
# make deb's when it is newer than the binary and than every input of the
# package (CI runs make deb before the lab), else one built into DIR (log:
# DIR/build.log).  Prints its path.
lab_fresh_deb() {
	local out=$1 d bin=$TOP/${BUILD:-build}/iostrat
	mkdir -p "$out"
	d=$(compgen -G "$TOP/${BUILD:-build}/deb/iostrat_*.deb" | head -n 1)
	if [ -n "$d" ] && [ "$d" -nt "$bin" ] &&
		[ -z "$(cd "$TOP" && find src docs/man debian plots profiles fio-jobs ebpf completion \
			systemd Makefile mk -newer "$d" -print -quit)" ]; then
		cp "$d" "$out/" && echo "reusing $d" >"$out/build.log"
	else
		(cd "$TOP" && IOSTRAT_DEB_LINTIAN=0 ./mk/deb.sh "$out") >"$out/build.log" 2>&1 || return 1
	fi
	compgen -G "$out/iostrat_*.deb" | head -n 1
}

# The CPU a TCG guest is given: Nehalem (x86-64-v2: SSE4.2, POPCNT), not
# "max", whose AVX and AVX2 (emulated since QEMU 7.2) glibc's string and
# memory functions then pick: slower to emulate than SSE (docs/lab.md).
lab_tcg_cpu() { echo "${IOSTRAT_LAB_CPU:-Nehalem}"; }

# The accelerator lab/lab found working on this host (its cached probe),
# else TCG.
lab_accel_args() {
	local a=${IOSTRAT_LAB_ACCEL:-}
	[ -n "$a" ] || a=$(cat "$LAB_DIR/accel.$(cat /proc/sys/kernel/random/boot_id)" 2>/dev/null || echo tcg)
	if [ "$a" = kvm ]; then echo "-accel kvm -cpu host"; else echo "-accel tcg -cpu $(lab_tcg_cpu)"; fi
}

# lab_checks CLEANUP: a lab script of checks (reboot.sh, fleet.sh): "PASS:
# name" and "FAIL: name: why" lines, the FAILs counted in $fails, and
# CLEANUP run on every exit -- a Ctrl-C and a TERM (check.sh stopping its
# side labs) too.
lab_checks() {
	# shellcheck disable=SC2064 # $1 names the cleanup function: expanded now
	trap "$1" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	fails=0
}
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; fails=$((fails + 1)); }
