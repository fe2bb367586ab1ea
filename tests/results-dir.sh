#!/usr/bin/env bash
# The default results directory (no --out): results/TIME-NAME, a new one
# for every run, also for two runs started in the same second.
. "$(dirname "$0")/lib.sh"

# results/TIME-NAME for this second and the next few, each holding a run
occupy_the_next_seconds() { # NAME
	local s d now
	now=$(date +%s) # once: a second ticking inside the loop would leave a gap
	for s in 0 1 2 3 4 5 6 7 8 9; do
		d=results/$(date -u -d "@$((now + s))" +%Y%m%d-%H%M%S)-$1
		mkdir -p "$d" && echo '{}' >"$d/results.jsonl"
	done
}

same_second_runs_get_their_own_directory() {
	cd "$T" || die "no $T"
	occupy_the_next_seconds net
	local before after
	before=$(find results -name results.jsonl | sort | xargs md5sum)
	"$IOSTRAT" net --mode nodelay --size 12 --count 100 --reps 1 >"$T/out" 2>&1 ||
		die "net refused: $(tail -n 1 "$T/out")"
	grep -Eq '^results: results/[0-9]{8}-[0-9]{6}-net-2$' "$T/out" ||
		die "not a -2 directory: $(grep '^results' "$T/out")"
	after=$(find results -name results.jsonl ! -path '*-net-2/*' | sort | xargs md5sum)
	[ "$before" = "$after" ] || die "an earlier run's results changed"
}

same_second_sweeps_get_their_own_directory() {
	cd "$T" || die "no $T"
	occupy_the_next_seconds sweep-blocksize
	"$IOSTRAT" sweep blocksize --size 16k --reps 1 >"$T/out" 2>&1 ||
		die "sweep refused: $(tail -n 1 "$T/out")"
	ls -d results/*-sweep-blocksize-2 >/dev/null 2>&1 || die "no -2 directory: $(ls results)"
	[ -s "$(ls -d results/*-sweep-blocksize-2)/results.jsonl" ] || die "the -2 directory has no rows"
}

t two_runs_in_one_second_get_their_own_results_directory same_second_runs_get_their_own_directory
t two_sweeps_in_one_second_get_their_own_results_directory same_second_sweeps_get_their_own_directory
