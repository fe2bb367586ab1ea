#!/usr/bin/env bash
# Bash completion (completion/iostrat.bash), driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, _iostrat called, COMPREPLY checked.
# Subcommands and options come from the binary's own tables.
. "$(dirname "$0")/lib.sh"

# comp WORD... : COMPREPLY for the last word, sorted, one line
comp() {
	bash -c '. "$1/completion/iostrat.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _iostrat
		printf "%s\n" "${COMPREPLY[@]}" | sort -u | tr "\n" " "' _ "$TOP" "$@"
}
# expect "WANT" WORD...: COMPREPLY is exactly WANT (sorted, space separated)
expect() {
	local want=$1 got; shift
	got=$(comp "$@")
	[ "${got% }" = "$want" ] || die "[$*]: got '${got% }', want '$want'"
}
# holds "WORD..." ARGS...: COMPREPLY contains every WORD
holds() {
	local w got; got=" $(comp "${@:2}")"
	for w in $1; do [[ $got == *" $w "* ]] || die "[${*:2}]: no $w in '$got'"; done
}

subcommands() {
	holds "$("$IOSTRAT" __commands | tr '\n' ' ')help" "$IOSTRAT" ""
	expect "report run" "$IOSTRAT" r
	expect "sched sweep" "$IOSTRAT" help s
}
options_from_the_table() {
	local want
	# every option of run's parser, and only those (plus --help)
	want=$( ("$IOSTRAT" __options run | tr ' ' '\n' | grep '^--'; echo --help) | sort -u | tr '\n' ' ')
	expect "${want% }" "$IOSTRAT" run --
	expect "--mmap-out" "$IOSTRAT" run -s mmap --mm
	expect "--data --data-anywhere --dry-run" "$IOSTRAT" bench --d
	expect "--knee-tol" "$IOSTRAT" sweep bufsize --kn
}
strategy_names_from_list() {
	local want
	want=$("$IOSTRAT" list | awk '/^[a-z]/ { print $1 }' | sort | tr '\n' ' ')
	expect "${want% }" "$IOSTRAT" run -s ""
	expect "uring" "$IOSTRAT" run --threads 2 --strategy u
}
values_of_options() {
	expect "asis cold warm" "$IOSTRAT" run --cache ""
	# every listed value comes from the option's table entry, a strategy's too
	expect "end file none" "$IOSTRAT" run --fsync ""
	expect "dontneed none noreuse sequential" "$IOSTRAT" run --fadvise ""
	expect "willneed" "$IOSTRAT" run --madvise w
	expect "csv html json markdown md text" "$IOSTRAT" report -f ""
	expect "markdown md" "$IOSTRAT" compare --format m
	# a value is not an option: after --threads, no option list
	expect "" "$IOSTRAT" run --threads -
	# net --unix takes a socket file path
	mkdir -p "$T/w" && touch "$T/w/s.sock"
	cd "$T/w" || die "no $T/w"
	expect "--unix" "$IOSTRAT" net --un
	expect "s.sock" "$IOSTRAT" net --unix s
}
profiles_for_bench() {
	mkdir -p "$T/w/sub" && touch "$T/w/mine.ini" "$T/w/notes.txt"
	cd "$T/w" || die "cannot enter $T/w"
	holds "mine.ini sub smoke default skeet-big" "$IOSTRAT" bench ""
	[[ " $(comp "$IOSTRAT" bench "") " != *" notes.txt "* ]] || die "bench offers notes.txt"
	expect "smoke" "$IOSTRAT" bench sm
}
results_dirs_for_report() {
	mkdir -p "$T/w/results/r1" "$T/w/results/r2" "$T/w/data/small" "$T/w/one"
	touch "$T/w/results/r1/results.jsonl" "$T/w/results/r2/results.jsonl" "$T/w/one/results.jsonl"
	cd "$T/w" || die "cannot enter $T/w"
	expect "one results" "$IOSTRAT" report ""
	expect "results/r1 results/r2" "$IOSTRAT" compare results/r1 results/
	expect "results/r1 results/r2" "$IOSTRAT" plot --only grid results/
}
positionals() {
	expect "api blocksize bufsize" "$IOSTRAT" sweep ""
	expect "add list pause remove resume run-next status" "$IOSTRAT" queue --state-dir /tmp ""
	holds "seq-psync uring-direct" "$IOSTRAT" fio ""
	# after --, a command line of its own
	holds "bash" "$IOSTRAT" queue add --name x -- bas
}

t subcommands_complete subcommands
t options_come_from_the_parsers_table options_from_the_table
t strategy_names_come_from_iostrat_list strategy_names_from_list
t option_values_complete values_of_options
t bench_completes_profiles profiles_for_bench
t report_compare_plot_complete_results_directories results_dirs_for_report
t positional_arguments_complete positionals
