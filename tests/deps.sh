#!/usr/bin/env bash
# Whatever a test or script runs, `make deps` installs: every external
# command of tests/, mk/, lab/, speed/ and the Makefile's recipes comes
# from a package of make deps (lab-deps, check-deps), from the base system,
# or is built here (mk/cmds-in-deps.sh).
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "shell and package lists, no C"

need_dpkg() { need_cmd dpkg-query; dpkg-query -W coreutils >/dev/null 2>&1 || skip "not a Debian system"; }

every_command_run_is_installed_by_make_deps() {
	need_dpkg
	make -s -C "$TOP" --no-print-directory cmds-in-deps >"$T/out" 2>&1 || { cat "$T/out"; die "$(head -n 1 "$T/out")"; }
}

a_command_of_a_package_left_out_of_deps_is_named() {
	need_dpkg
	need_cmd jq
	make -s -C "$TOP" --no-print-directory deps-list | grep -vx jq >"$T/pkgs"
	[ -s "$T/pkgs" ] || die "make deps-list printed nothing"
	# shellcheck disable=SC2046 # one argument a package
	if "$TOP/mk/cmds-in-deps.sh" $(cat "$T/pkgs") >"$T/out" 2>&1; then die "jq left out of the list, yet: $(tail -n 1 "$T/out")"; fi
	grep -q '^cmds-in-deps: jq (.*): package jq is not installed by make deps' "$T/out" ||
		die "jq not named: $(head -n 2 "$T/out")"
}

# A here-document is data, and so is a quoted string (but for a command
# string after -c or --, and a $(...) in double quotes): python's open()
# in speed/verdict.sh and the pattern '(open|read)' in tests/run-errors.sh
# are not the open(1) a machine with xdg-utils has (a fresh root with
# chromium).
here_documents_and_quoted_strings_are_not_commands() {
	cat >"$T/s.sh" <<-'EOF'
	python3 - "$out" <<'PY'
	doc = json.load(open(p))
	PY
	echo "$(bc -l <<<"1 + 1")"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))' "$f" || (cat x; sort)
	grep -Eq 'f1: (open|read)[^:]*: No such' "$T/err" && die "cannot (link it) $(uniq <"$f")"
	bash -c 'cut -f1 x; (paste y)'
	EOF
	"$TOP/mk/cmds-in-deps.sh" --words "$T/s.sh" >"$T/w"
	[ "$(tr '\n' ' ' <"$T/w")" = "python3 echo bc python3 cat sort grep die uniq bash cut paste " ] || die "command words: $(tr '\n' ' ' <"$T/w")"
}

t every_command_run_is_installed_by_make_deps
t a_command_of_a_package_left_out_of_deps_is_named
t here_documents_and_quoted_strings_are_not_commands
