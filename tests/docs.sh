#!/usr/bin/env bash
# The man pages and --help: every option a subcommand's parser takes (its
# table, `iostrat __options CMD`, which main.c enforces) is in the
# command's man page and --help; every subcommand has a page; the pages are
# mandoc-lint clean; `iostrat help CMD` is CMD's --help.
. "$(dirname "$0")/lib.sh"

MANSRC=$TOP/docs/man

# CMD's man page as text, built from its scdoc source into $T
man_text() {
	need_cmd scdoc
	need_cmd mandoc
	"$TOP/mk/man.sh" "$MANSRC/$1.scd" "$T/$1" || die "$1: scdoc failed"
	mandoc -T ascii -O width=300 "$T/$1" | col -b
}
help_text() {
	if [ "$1" = sweep ]; then # the options are per sweep kind
		for k in blocksize bufsize api; do "$IOSTRAT" sweep $k --help; done
	else
		"$IOSTRAT" "$1" --help
	fi
}
# has TEXT OPT: OPT as a word of TEXT (--out is not --output)
has() { printf '%s\n' "$1" | grep -qE -- "(^|[^A-Za-z0-9_-])$2([^A-Za-z0-9_-]|$)"; }

options_are_documented() {
	skip_under_sanitizers "the man pages, not C: every --help runs under the sanitizers in help_cmd_shows_cmds_help"
	local cmd o n=0 missing=()
	for cmd in $("$IOSTRAT" __commands); do
		local page help
		page=$(man_text "iostrat-$cmd.1")
		help=$(help_text "$cmd")
		for o in $("$IOSTRAT" __options "$cmd"); do
			[ "$o" = = ] && continue
			n=$((n + 1))
			has "$page" "$o" || missing+=("$cmd $o: not in iostrat-$cmd(1)")
			has "$help" "$o" || missing+=("$cmd $o: not in iostrat $cmd --help")
		done
	done
	[ "$n" -gt 50 ] || die "only $n options listed: is __options broken?"
	[ ${#missing[@]} -eq 0 ] || die "$(printf '%s; ' "${missing[@]}")"
}

# the check is real: an option outside the table never reaches a parser
undocumented_option_is_refused() {
	expect_fail '^iostrat: --nope: unknown option \(iostrat gen --help\)$' "$IOSTRAT" gen "$T/d" --nope 1
	expect_fail '^iostrat: -x: unknown option \(iostrat bench --help\)$' "$IOSTRAT" bench -x
	expect_fail -- '--frob: unknown option' "$IOSTRAT" run -s stream "$T/a" "$T/b" --frob=1
	# a value is a value, whatever it looks like; -- ends the options
	expect_fail 'threads: bad value' "$IOSTRAT" run -s stream "$T/a" "$T/b" --threads --nope
	expect_fail '__options: give one command' "$IOSTRAT" __options nope
}

# ...and the other way round: every option in a table gets past the parser
# (no stale entry documents an option that is refused).  Each is given
# alone, with a bad value when it takes one, in an empty directory, under a
# short timeout (a flag alone may start real work: net --nagle): what counts
# is that no parser calls it unknown.  run's strategy options are run's
# only with their strategy ("unknown option for strategy stream" is the
# parser knowing it).
table_options_are_taken() {
	local cmd line o arg err bad=()
	mkdir -p "$T/w"
	cd "$T/w" || die "cannot enter $T/w"
	for cmd in $("$IOSTRAT" __commands); do
		while IFS= read -r line; do
			arg=()
			[[ $line == *" =" ]] && arg=(0x)
			for o in ${line% =}; do
				local k kinds=(-)
				[ "$cmd" = sweep ] && kinds=(blocksize bufsize api) # one of them
				for k in "${kinds[@]}"; do
					case $cmd in
					sweep) set -- sweep "$k" "$o" ;;
					run) set -- run -s mmap "$o" ;;
					*) set -- "$cmd" "$o" ;;
					esac
					err=$(timeout -s KILL 3 "$IOSTRAT" "$@" "${arg[@]}" 2>&1 >/dev/null </dev/null) || true
					printf '%s\n' "$err" | grep 'unknown option' | grep -vq 'unknown option for strategy' ||
						break
				done
				if printf '%s\n' "$err" | grep 'unknown option' | grep -vq 'unknown option for strategy'; then
					bad+=("$cmd $o: $err")
				fi
			done
		done < <("$IOSTRAT" __options "$cmd")
	done
	[ ${#bad[@]} -eq 0 ] || die "$(printf '%s; ' "${bad[@]}")"
}

every_command_has_a_page() {
	skip_under_sanitizers "the man pages, not C: every --help runs under the sanitizers in help_cmd_shows_cmds_help"
	local cmd page
	page=$(man_text iostrat.1)
	for cmd in $("$IOSTRAT" __commands); do
		[ -f "$MANSRC/iostrat-$cmd.1.scd" ] || die "no docs/man/iostrat-$cmd.1.scd"
		has "$page" "iostrat-$cmd" || die "iostrat(1) does not point to iostrat-$cmd(1)"
	done
	[ -f "$MANSRC/iostrat-profile.5.scd" ] || die "no iostrat-profile(5)"
}

pages_are_lint_clean() {
	skip_under_sanitizers "the man pages, not C: every --help runs under the sanitizers in help_cmd_shows_cmds_help"
	need_cmd scdoc
	need_cmd mandoc
	local f b out
	for f in "$MANSRC"/*.scd; do
		b=$(basename "$f" .scd)
		"$TOP/mk/man.sh" "$f" "$T/$b" || die "$b: scdoc failed"
		out=$(mandoc -T lint "$T/$b" 2>&1) || true
		[ -z "$out" ] || die "$out"
	done
	if command -v man >/dev/null; then
		out=$(for f in "$T"/*.[15]; do MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 >/dev/null; done)
		[ -z "$out" ] || die "man --warnings: $out"
	fi
}

help_cmd_is_cmds_help() {
	local cmd
	for cmd in $("$IOSTRAT" __commands); do
		diff <("$IOSTRAT" help "$cmd") <("$IOSTRAT" "$cmd" --help) >/dev/null ||
			die "iostrat help $cmd differs from iostrat $cmd --help"
	done
	"$IOSTRAT" help | grep -q '^commands:' || die "iostrat help: no usage"
	expect_fail '^iostrat: nope: unknown command' "$IOSTRAT" help nope
	expect_fail 'one command at a time' "$IOSTRAT" help run bench
}

# help and the pages say what the program does, as it spells it
help_spells_options_with_hyphens() {
	local cmd bad
	for cmd in $("$IOSTRAT" __commands); do
		bad=$(help_text "$cmd" | grep -oE -- '^  (-[a-zA-Z], )?--[a-z0-9]+_[a-z0-9_]+' | sort -u)
		[ -z "$bad" ] || die "$cmd --help shows $bad"
		bad=$("$IOSTRAT" __options "$cmd" | grep -oE -- '--[a-z0-9]+_[a-z0-9_]+' | sort -u)
		[ -z "$bad" ] || die "__options $cmd shows $bad"
	done
	"$IOSTRAT" __values run --cache | grep -qx cold || die "__values by the hyphen spelling"
}
top_help_says_net_has_unix_sockets() { "$IOSTRAT" --help | grep -E '^  net ' | grep -q Unix || die "$("$IOSTRAT" --help | grep net)"; }
bench_help_names_only_shipped_profiles() {
	local line p
	line=$("$IOSTRAT" bench --help | grep '^Shipped profiles: ') || die "no list of shipped profiles"
	for p in $(printf '%s\n' "${line#Shipped profiles: }" | tr -d ,); do
		[ -f "$TOP/profiles/$p.ini" ] || die "bench --help names $p, not in profiles/"
	done
	for p in "$TOP"/profiles/*.ini; do
		printf '%s\n' "$line" | grep -qw "$(basename "$p" .ini)" || die "$p not listed: $line"
	done
}
run_page_example_renders_whole() {
	local page
	page=$(man_text iostrat-run.1)
	printf '%s\n' "$page" | grep -qE '^[[:space:]]+iostrat gen data/ms --preset medium-short --scale 0\.01$' || die "gen line broken"
	printf '%s\n' "$page" | grep -qE '^[[:space:]]+iostrat run -s uring .* data/ms /tmp/out$' || die "run line broken"
}
top_page_names_docs_glob() { man_text iostrat.1 | grep -qF 'docs/*.md' || die "iostrat(1) lost the * of docs/*.md"; }
readme_example_writes_outside_checkout() {
	local bad
	bad=$(grep -E '^\$ build/iostrat (run|gen|bench)' "$TOP/README.md" | grep -E ' (out|results)(/| |$)') || true
	[ -z "$bad" ] || die "README writes into the checkout: $bad"
}
t help_spells_options_with_hyphens
t top_help_says_net_has_unix_sockets
t bench_help_names_only_shipped_profiles
t run_page_example_renders_whole
t top_page_names_docs_glob
t readme_example_writes_outside_checkout
t every_option_is_in_its_man_page_and_help options_are_documented
t an_option_outside_the_table_is_refused undocumented_option_is_refused
t every_option_in_a_table_is_taken_by_its_parser table_options_are_taken
t every_subcommand_has_a_man_page every_command_has_a_page
t man_pages_are_mandoc_lint_clean pages_are_lint_clean
t help_cmd_shows_cmds_help help_cmd_is_cmds_help
