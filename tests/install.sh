#!/usr/bin/env bash
# make install puts the binary, the data files, the man pages and the bash
# completion under PREFIX (staged with DESTDIR); make uninstall removes
# every file of it; the installed binary finds its data under
# PREFIX/share/iostrat with no checkout beside it.
. "$(dirname "$0")/lib.sh"

mk() { # make TARGET... with this build's flavour (see queue.sh)
	local flavour=()
	case $BUILD in
	build-asan) flavour=(SANITIZE=1) ;;
	build-tsan) flavour=(TSAN=1) ;;
	esac
	make -s -C "$TOP" BUILD="$BUILD" "${flavour[@]}" "$@" >/dev/null
}

install_and_uninstall() {
	need_cmd scdoc
	local r=$T/root left
	mk install DESTDIR="$r" PREFIX=/usr
	[ -x "$r/usr/bin/iostrat" ] || die "no binary"
	[ -f "$r/usr/share/man/man1/iostrat.1" ] || die "no iostrat.1"
	[ -f "$r/usr/share/man/man5/iostrat-profile.5" ] || die "no iostrat-profile.5"
	for c in $("$IOSTRAT" __commands); do
		[ -f "$r/usr/share/man/man1/iostrat-$c.1" ] || die "no iostrat-$c.1"
	done
	[ -f "$r/usr/share/bash-completion/completions/iostrat" ] || die "no completion"
	[ -f "$r/usr/share/iostrat/profiles/smoke.ini" ] || die "no profiles"
	# the installed binary, away from the checkout, finds its data
	"$r/usr/bin/iostrat" bench smoke --dry-run >/dev/null 2>"$T/err" ||
		die "installed bench smoke: $(cat "$T/err")"
	mk uninstall DESTDIR="$r" PREFIX=/usr
	left=$(find "$r" -type f | head -n 3)
	[ -z "$left" ] || die "left after uninstall: $left"
}

t make_install_and_uninstall install_and_uninstall
