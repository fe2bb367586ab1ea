#!/usr/bin/env bash
# Distributions and the kernel view's spread (issue 44, items 5 and 6): the
# disk's MB/s over every timed repetition (io_series), the figures of
# elapsed by round and of throughput over time, and trace_reps' default of
# 3 traced repetitions with the report's median (min-max).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace.inc"

# MB the series says were read: the sum of its intervals' rate x step.
series_read_mb() {
	jq -r '.io_series | split(":") as [$step, $v] | [$v | split(" ")[] | select(. != "")
		| split("/")[0] | tonumber * ($step | tonumber) / 1000] | add // 0'
}

timed_rows_carry_the_disks_series() {
	need_root # a cold cache
	"$IOSTRAT" gen "$T/in" --files 4 --lines 100000 --width 100 >/dev/null
	sync
	# W=400 makes a repetition many intervals long (0.7-0.9 s on
	# 2026-12-01) with reads between the files' transforms, whatever the
	# disk's speed: at W=0 a host-cached 40 MB read took 69 ms, under one
	# interval of the 100 ms sampler of then
	"$IOSTRAT" run -s buffer "$T/in" "$T/out" --reps 2 --cache cold --work 400 --json >"$T/rows" ||
		die "run failed"
	[ "$(jq -r .device "$T/rows" | head -1)" != null ] || skip "the data's disk is unknown here"
	jq -se 'length == 2 and all(.[]; .io_series | test("^20:([0-9.]+/[0-9.]+)( [0-9.]+/[0-9.]+)*$"))' \
		"$T/rows" >/dev/null || die "no series: $(jq -c '{io_series, elapsed_s}' "$T/rows")"
	local mb dev
	# whole intervals only: at most what the disk counted over the repetition
	while read -r row; do
		mb=$(series_read_mb <<<"$row")
		dev=$(jq -r '.dev_read_bytes / 1e6' <<<"$row")
		awk -v s="$mb" -v d="$dev" 'BEGIN { exit !(s > 0 && s <= d * 1.05 + 1) }' ||
			die "the series read $mb MB, the disk $dev MB: $row"
	done < <(jq -c '{io_series, dev_read_bytes}' "$T/rows")
}

rounds_and_iotime_figures_from_a_bench() {
	need_root # a cold cache
	printf '[global]\nscale=0.05\ncache=cold\nreps=3\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\n' >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/res" --data "$T/data" >"$T/out" 2>&1 ||
		die "bench: $(tail -n 3 "$T/out")"
	"$IOSTRAT" plot "$T/res" --only rounds,iotime >"$T/plot" 2>"$T/err" ||
		die "plot: $(cat "$T/err")"
	local d=$T/res/plots/data
	# rounds: a block per strategy, its header, then rounds 1 2 3 with elapsed
	[ "$(grep -c '^"big .*" "\(stream\|buffer\)" [0-9]$' "$d/rounds.dat")" -eq 2 ] ||
		die "rounds.dat headers: $(cat "$d/rounds.dat")"
	[ "$(awk 'NF == 2 && $1 ~ /^[123]$/ && $2 > 0' "$d/rounds.dat" | wc -l)" -eq 6 ] ||
		die "rounds.dat rows: $(cat "$d/rounds.dat")"
	# iotime: per strategy its median repetition's intervals, from 0 by one
	# step, the sampler's 20 ms or a multiple, at most 60 of them
	grep -q '^"big .*" "buffer" [0-9]$' "$d/iotime.dat" || die "iotime.dat: $(cat "$d/iotime.dat")"
	awk 'function off(x) { return x > 1e-6 || x < -1e-6 }
		NF == 3 && $1 !~ /"/ { if (prev == "" && off($1)) bad = 1
		if (prev != "" && step == "") step = $1 - prev
		if (prev != "" && off($1 - prev - step)) bad = 1
		prev = $1; k++; n++ }
		/^"/ { if (step != "" && (off(step * 50 - int(step * 50 + 0.5)) || k > 61)) bad = 1
		prev = step = ""; k = 0 }
		END { exit bad || n < 2 || k > 61 || off(step * 50 - int(step * 50 + 0.5)) }' "$d/iotime.dat" ||
		die "iotime.dat times: $(cat "$d/iotime.dat")"
	if command -v gnuplot >/dev/null; then
		for f in rounds iotime; do
			[ -s "$T/res/plots/$f.png" ] || die "no $f.png"
			[ -s "$T/res/plots/$f.svg" ] || die "no $f.svg"
		done
		grep -q 'write (dashed), every [0-9]* ms' "$T/res/plots/iotime.svg" ||
			die "iotime's title names no step"
	fi
}

three_traced_repetitions_by_default_with_trace() {
	need_probes
	printf '[global]\nscale=0.001\ncache=asis\nreps=2\ntrace=1\n[t]\nstrategy=stream\ndataset=big\nthreads=1\nwork=0\n' >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/res" --data "$T/data" >"$T/out" 2>&1 ||
		die "bench: $(tail -n 3 "$T/out")"
	jq -se '[.[] | select(.role == "traced")] | length == 3 and ([.[].round] == [1, 2, 3])
		and all(.[]; .traced == true and .io_series == null)' "$T/res/results.jsonl" >/dev/null ||
		die "traced rows: $(jq -c '[.role, .round, .traced]' "$T/res/results.jsonl")"
	"$IOSTRAT" report "$T/res" --format csv >"$T/report" || die "report failed"
	# the kernel view: traced_n 3; the probes' cost: 2 timed against 3 traced
	grep -A3 '^# kernel view' "$T/report" | grep -q '^big/stream[^,]*,3,' ||
		die "kernel view: $(grep -A3 'kernel view' "$T/report")"
	grep -A3 "^# probes' cost" "$T/report" | grep -q 'range of the pairs' ||
		die "probes' cost: $(grep -A3 "probes' cost" "$T/report")"
}

t timed_rows_carry_the_disks_series
t rounds_and_iotime_figures_from_a_bench
t three_traced_repetitions_by_default_with_trace
