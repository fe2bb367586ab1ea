#!/usr/bin/env bash
# iostrat list prints each strategy's capabilities as it declares them;
# --caps one line a strategy, the form the tests derive their loops from.
. "$(dirname "$0")/lib.sh"

caps_of() { "$IOSTRAT" list --caps | awk -F'\t' -v s="$1" '$1 == s { print $2 }'; }

caps_one_line_a_strategy_as_declared() {
	local out names
	out=$("$IOSTRAT" list --caps) || die "list --caps failed"
	awk -F'\t' 'NF != 2 { exit 1 }' <<<"$out" || die "not NAME TAB CAPS: $out"
	names=$("$IOSTRAT" list | awk '/^[a-z]/ { print $1 }')
	[ "$(cut -f1 <<<"$out")" = "$names" ] || die "--caps names differ from list's"
	[ "$(caps_of uring)" = "direct dontcache chunk qd records sqpoll sq_thread_idle" ] ||
		die "uring: $(caps_of uring)"
	[ "$(caps_of direct)" = "direct always-direct bufsize chunk qd records" ] || die "direct: $(caps_of direct)"
	[ "$(caps_of null)" = "no-output control" ] || die "null: $(caps_of null)"
	[ "$(caps_of stream)" = "dontcache report-base bufsize records fadvise" ] || die "stream: $(caps_of stream)"
}

list_shows_capabilities_under_each_strategy() {
	local n
	n=$("$IOSTRAT" list | grep -c '^ *capabilities: ') || true
	[ "$n" -eq "$("$IOSTRAT" list --caps | wc -l)" ] || die "$n capability lines"
}

# a capability the run refuses matches what list says (the message names
# the strategies that declare it)
dontcache_refusal_names_the_declared_ones() {
	local want err
	want=$("$IOSTRAT" list --caps | awk -F'\t' '$2 ~ /(^| )dontcache( |$)/ { print $1 }' |
		paste -sd, | sed 's/,/, /g')
	mkdir "$T/in" && echo x >"$T/in/f"
	err=$("$IOSTRAT" run -s mmap --dontcache "$T/in" "$T/out" -r 1 2>&1 >/dev/null) && die "accepted"
	case $err in *"($want do)"*) ;; *) die "message does not name ($want do): $err" ;; esac
}

list_caps_argument_refused() {
	local err rc=0
	err=$("$IOSTRAT" list --caps extra 2>&1 >/dev/null) || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc"
	[ "$err" = "iostrat: list: extra: unexpected argument (iostrat list takes only --caps or --transforms)" ] || die "$err"
}

t list_caps_one_line_a_strategy_as_declared caps_one_line_a_strategy_as_declared
t list_shows_capabilities_under_each_strategy
t list_dontcache_refusal_names_the_declared_ones dontcache_refusal_names_the_declared_ones
t list_caps_argument_refused
