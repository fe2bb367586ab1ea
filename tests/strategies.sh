#!/usr/bin/env bash
# Every registered strategy, byte-identical to the reference test vectors,
# for threads 1..4, several buffer sizes and work levels.  A new strategy
# in the registry is tested here for free.
. "$(dirname "$0")/lib.sh"

# the strategies that write outputs, by what they declare (iostrat list --caps)
strategies() { "$IOSTRAT" list --caps | awk -F'\t' '$2 !~ /(^| )no-output( |$)/ {print $1}'; }
# Does strategy $1 use run setting $2 (a capability of `iostrat list --caps`)?
uses() { "$IOSTRAT" list --caps | awk -F'\t' -v s="$1" -v c="$2" '$1 == s && index(" " $2 " ", " " c " ") { u = 1 } END { exit !u }'; }

strategy_matches_vectors() {
	local s=$1
	vector_set
	# every W with every thread count; buffer sizes rotate through the
	# combinations (an odd size, a page, a size larger than every file)
	local sizes=(4096 5000 1M) k=0 knob=bufsize
	uses "$s" bufsize || knob=chunk
	for w in 0 1 7 256 1000; do
		for th in 1 2 3 4; do
			b=${sizes[$((k++ % 3))]}
			bs=(); uses "$s" "$knob" && bs=("--$knob" "$b")
			"$IOSTRAT" run -s "$s" "$T/in" "$T/out" --work $w --threads $th \
				"${bs[@]}" --reps 1 --cache asis --fsync none >/dev/null ||
				die "$s w=$w threads=$th bufsize=$b failed"
			check_vectors "$s" $w "$T/out"
		done
	done
}

strategy_matches_reference_on_generated_data() {
	local s=$1
	"$IOSTRAT" gen "$T/in" --files 6 --lines 300 --width 777 >/dev/null
	for th in 1 4; do
		"$IOSTRAT" run -s "$s" "$T/in" "$T/out" --work 5 --threads $th --reps 2 \
			--cache cold >/dev/null || die "$s threads=$th"
		"$IOSTRAT" verify "$T/in" "$T/out" --work 5 >/dev/null || die "$s verify"
	done
}

strategy_handles_single_3mib_line() {
	local s=$1
	mkdir -p "$T/in"
	head -c $((3 << 20)) /dev/urandom | tr -d '\n' >"$T/in/long"
	printf 'short\n' >"$T/in/short"
	: >"$T/in/empty"
	bs=(); uses "$s" bufsize && bs=(--bufsize 4096)
	"$IOSTRAT" run -s "$s" "$T/in" "$T/out" --work 3 "${bs[@]}" --reps 1 \
		--cache asis >/dev/null || die "$s failed"
	"$IOSTRAT" verify "$T/in" "$T/out" --work 3 >/dev/null || die "$s wrong output"
}

for s in $(strategies); do
	t "${s}_output_matches_test_vectors_threads_1_to_4" strategy_matches_vectors "$s"
	t "${s}_output_matches_reference_cold_cache" strategy_matches_reference_on_generated_data "$s"
	t "${s}_handles_3mib_line_empty_file" strategy_handles_single_3mib_line "$s"
done

# stream --fadvise dontneed: the inputs, cached before, leave no page behind;
# the default (sequential) leaves them cached; the row and config_id say which
stream_fadvise_dontneed_drops_the_inputs_pages() {
	command -v fincore >/dev/null || skip "no fincore (util-linux)"
	"$IOSTRAT" gen "$T/in" --files 2 --lines 2000 --width 200 >/dev/null
	cached() { fincore --bytes --noheadings --output RES "$T"/in/* | awk '{s += $1} END {print s + 0}'; }
	cat "$T"/in/* >/dev/null
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --cache asis -r 1 --json >"$T/plain" ||
		die "plain run failed"
	[ "$(cached)" -gt 0 ] || die "the default left no input page cached: is fincore working?"
	"$IOSTRAT" run -s stream "$T/in" "$T/out" --cache asis --fadvise dontneed -r 1 --json >"$T/drop" ||
		die "--fadvise dontneed run failed"
	[ "$(cached)" -eq 0 ] || die "--fadvise dontneed left $(cached) bytes of input cached"
	[ "$(jq -r '.fadvise + " " + .config_id' "$T/drop")" = "dontneed in/stream/t1/w0/asis/fsync=file/fadvise=dontneed" ] ||
		die "row: $(cat "$T/drop")"
	[ "$(jq -r '.fadvise + " " + .config_id' "$T/plain")" = "sequential in/stream/t1/w0/asis/fsync=file" ] ||
		die "row: $(cat "$T/plain")"
}
t stream_fadvise_dontneed_drops_the_inputs_pages
