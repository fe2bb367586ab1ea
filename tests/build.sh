#!/usr/bin/env bash
# The build's configuration (mk/config.mk): decided from what is installed
# when make runs, and a change in it rebuilds what depends on it, without
# `make clean` -- a fresh machine's `make run` installs clang and bpftool
# and must then build the eBPF probes.  Each case builds in its own $T.
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "the build's configuration is make's, not C: the sanitizer build itself is made by make check SANITIZE=1"

# a make of its own: nothing of the make that runs the suite (make check
# SANITIZE=1 passes SANITIZE down through MAKEFLAGS and the environment)
bmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u TSAN \
		make -C "$TOP" --no-print-directory -j2 BUILD="$T/b" "$@" 2>&1
}
# built lines of the compiler ("CC src/x.c"), sorted
compiled() { sed -n 's/^  \(CC\|CXX\) *//p' | sort; }
# seed_build: $T/b starts as a copy of the suite's own build (its objects,
# generated headers and dependency files, re-pointed at $T/b), so a case
# rebuilds only what its configuration change touches: a full build of its
# own was most of this file's minute
seed_build() {
	local b=${BUILD:-build}
	[ -x "$TOP/$b/iostrat" ] || return 0
	cp -a "$TOP/$b" "$T/b"
	rm -rf "$T/b/tests" "$T/b/deb"
	find "$T/b" -name '*.d' -exec sed -i "s|^$b/|$T/b/|; s| $b/| $T/b/|g" {} +
	sed -i "s|-I$b |-I$T/b |g" "$T/b/config/flags"
}
without_probes() { "$T/b/iostrat" trace -- true 2>&1 | grep -q 'built without eBPF probes'; }

probes_follow_clang_and_bpftool_without_make_clean() {
	need_cmd "${BPF_CLANG:-clang}"
	need_cmd "${BPFTOOL:-bpftool}"
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	seed_build
	bmake BPFTOOL=/nonexistent >"$T/1" || die "build without bpftool: $(tail -n 1 "$T/1")"
	without_probes || die "a build without bpftool does not say so"
	"$T/b/iostrat" trace -- true 2>&1 | grep -q 'no /nonexistent' || die "the reason is not named"
	bmake >"$T/2" || die "build with bpftool: $(tail -n 1 "$T/2")"
	if without_probes; then die "bpftool appeared, yet: $("$T/b/iostrat" trace -- true 2>&1 | head -n 1)"; fi
	# exactly the objects that depend on it: src/trace/
	local other
	other=$(compiled <"$T/2" | grep -v '^src/trace/' || true)
	[ -z "$other" ] || die "rebuilt outside src/trace/: $other"
	[ "$(compiled <"$T/2" | wc -l)" -eq "$(find "$TOP/src/trace" -name "*.c" | wc -l)" ] ||
		die "not every src/trace object rebuilt: $(compiled <"$T/2" | tr '\n' ' ')"
	bmake >"$T/3"
	[ -z "$(compiled <"$T/3")" ] || die "an unchanged configuration rebuilt: $(compiled <"$T/3" | tr '\n' ' ')"
	# and back: clang gone, the tracer says so
	bmake BPF_CLANG=/nonexistent-clang >"$T/4" || die "build without clang: $(tail -n 1 "$T/4")"
	"$T/b/iostrat" trace -- true 2>&1 | grep -q 'built without eBPF probes: no /nonexistent-clang' ||
		die "clang vanished, yet: $("$T/b/iostrat" trace -- true 2>&1 | head -n 1)"
}

other_flags_rebuild_an_object_in_the_same_build_dir() {
	local o=$T/b/src/main.o
	bmake "$o" >"$T/1" || die "build: $(tail -n 1 "$T/1")"
	bmake "$o" >"$T/2"
	[ -z "$(compiled <"$T/2")" ] || die "rebuilt with the same flags"
	bmake SANITIZE=1 "$o" >"$T/3" || die "SANITIZE=1 build: $(tail -n 1 "$T/3")"
	[ "$(compiled <"$T/3")" = src/main.c ] || die "SANITIZE=1 did not rebuild src/main.o"
	bmake "$o" >"$T/4"
	[ "$(compiled <"$T/4")" = src/main.c ] || die "back without SANITIZE: src/main.o kept the ASan flags"
}

t probes_follow_clang_and_bpftool_without_make_clean
t other_flags_rebuild_an_object_in_the_same_build_dir
