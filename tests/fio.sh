#!/usr/bin/env bash
# fio baselines: every job file parses and runs on a small data set; the
# rows carry fio's own numbers; missing fio or a JSON without a field is a
# clear message.
. "$(dirname "$0")/lib.sh"
need_fio() { command -v fio >/dev/null || skip "fio not installed"; }

mkdata() { "$IOSTRAT" gen "$T/in" --files 3 --lines 2000 --width 700 >/dev/null; }

every_job_file_parses() {
	need_fio
	for j in "$TOP"/fio-jobs/*.fio; do
		head -1 "$j" | grep -q '^; iostrat baseline:' || die "$j: no opening comment"
		grep -q '^; mirrors:' "$j" || die "$j: no mirrors line"
		IOSTRAT_FILES=/tmp/a:/tmp/b IOSTRAT_OUTFILES=/tmp/c:/tmp/d IOSTRAT_SIZE=1m \
		IOSTRAT_BS=64k IOSTRAT_QD=4 IOSTRAT_DIRECT=0 IOSTRAT_FSYNC_ON_CLOSE=1 IOSTRAT_END_FSYNC=0 \
			fio --parse-only "$j" >/dev/null 2>&1 || die "$j does not parse"
	done
}

every_job_runs_on_a_data_set() {
	need_fio
	mkdata
	for j in "$TOP"/fio-jobs/*.fio; do
		n=$(basename "$j" .fio)
		"$IOSTRAT" fio "$n" --dataset "$T/in" --bs 64k --qd 4 --cache asis \
			--out "$T/r-$n" --json >"$T/row" || die "$n failed"
		jq -en --slurpfile f "$T/r-$n/fio-$n-rep1.json" 'input as $row | $f[0] as $fio
			| ([$fio.jobs[].read.bw_bytes] | add / 1e6) as $rbw
			| ([$fio.jobs[].write.bw_bytes] | add / 1e6) as $wbw
			| ($row.read_mb_s - $rbw | fabs) < 1e-6 * ([1, $rbw] | max)
			and ($row.write_mb_s - $wbw | fabs) < 1e-6 * ([1, $wbw] | max)
			and $row.kind == "fio" and $row.fio_version == $fio["fio version"]
			and $row.bytes_in == ([$fio.jobs[].read.io_bytes] | add)
			and $row.elapsed_s > 0 and $row.mb_s > 0' "$T/row" >/dev/null ||
			die "$n: row does not carry fio's numbers: $(head -n 1 "$T/row")"
		[ ! -e "$T/r-$n/fio-$n-rep1.json.log" ] || die "$n left its log"
		names_in "$T" | grep -q fio-out && die "$n left scratch files"
		true
	done
	csv_rows "$T/r-seq-psync/results.csv" | jq -se '.[0].baseline_of == "stream buffer"' >/dev/null ||
		die "baseline_of not in the CSV"
}

parser_reads_real_fio_json() {
	need_fio
	mkdata
	"$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 128k --cache asis --out "$T/r" >/dev/null
	"$IOSTRAT" fio --parse "$T/r/fio-seq-psync-rep1.json" | grep -q '"read_clat_p99_us"' ||
		die "no percentiles parsed"
	jq '.jobs |= map(del(.write))' "$T/r/fio-seq-psync-rep1.json" >"$T/broken.json"
	expect_fail "broken.json: fio JSON lacks the 'write' section" "$IOSTRAT" fio --parse "$T/broken.json"
	echo '{not json' >"$T/bad.json"
	expect_fail 'bad.json: not fio JSON' "$IOSTRAT" fio --parse "$T/bad.json"
}

missing_fio_is_a_clear_message() {
	mkdata
	mkdir "$T/bin"
	expect_fail 'fio: not installed' env PATH="$T/bin" "$IOSTRAT" fio seq-psync --dataset "$T/in"
}

bad_arguments() {
	mkdata
	need_fio
	expect_fail 'nosuchjob: no such fio job' "$IOSTRAT" fio nosuchjob --dataset "$T/in"
	expect_fail 'nowhere: neither a directory nor a preset' "$IOSTRAT" fio seq-psync --dataset nowhere
	expect_fail -- '--bs: bad value' "$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 0
}

# --fsync MODE reaches fio as the option that does it (file: the write
# job's fsync_on_close, end: its end_fsync, none: neither), and the row
# records that mode
fsync_mode_is_what_fio_did() {
	need_fio
	mkdata
	for m in file end none; do
		"$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 64k --cache asis --fsync "$m" \
			--out "$T/r-$m" --json >"$T/row" || die "--fsync $m failed"
		jq -e --arg m "$m" '.fsync == $m' "$T/row" >/dev/null ||
			die "--fsync $m: row says $(jq -r .fsync "$T/row")"
		jq -e --arg m "$m" '[.jobs[] | select(.jobname == "write") | .["job options"]][0]
			| .fsync_on_close == (if $m == "file" then "1" else "0" end)
			and .end_fsync == (if $m == "end" then "1" else "0" end)' \
			"$T/r-$m/fio-seq-psync-rep1.json" >/dev/null ||
			die "--fsync $m: fio was given $(jq -c '.jobs[-1]["job options"]' "$T/r-$m/fio-seq-psync-rep1.json")"
	done
	expect_fail -- '--no-fsync: unknown option' "$IOSTRAT" fio seq-psync --dataset "$T/in" --no-fsync
	expect_fail -- "--fsync: bad value 'sometimes' (file, end or none)" \
		"$IOSTRAT" fio seq-psync --dataset "$T/in" --fsync sometimes
}

# `iostrat fio` and a bench's fio section with the same settings make the
# same config_id (the bench form: DATASET/fio-JOB/CACHE/bs=B/qd=N/fsync=F)
fio_and_bench_make_the_same_config_id() {
	need_fio
	cat >"$T/p.ini" <<INI
[b]
kind=fio
job=seq-psync
dataset=small
scale=0.001
reps=1
cache=asis
bufsize=64k
fsync=end
INI
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/b" >/dev/null 2>&1 ||
		die "bench failed"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" fio seq-psync --dataset small --scale 0.001 --bs 64k --cache asis \
		--fsync end --out "$T/f" --json >/dev/null || die "fio failed"
	a=$(jq -r .config_id "$T/b/results.jsonl")
	b=$(jq -r .config_id "$T/f/results.jsonl")
	[ "$a" = "$b" ] && [ "$a" = small/fio-seq-psync/asis/bs=65536/qd=8/fsync=end ] ||
		die "config_id differs: bench $a, fio $b"
}

t fsync_mode_is_what_fio_did
t fio_and_bench_make_the_same_config_id
t every_job_file_parses_and_says_what_it_mirrors every_job_file_parses
t every_job_runs_and_rows_carry_fios_numbers every_job_runs_on_a_data_set
t parser_reads_real_fio_json_and_names_missing_sections parser_reads_real_fio_json
t missing_fio_is_a_clear_message
t bad_fio_arguments_are_named bad_arguments

# fio refusing the job (here: files smaller than one block) is fio's own
# reason in one line, a non-zero exit, and no row: it used to append a row
# without identity, refused with a second error and printed "(null) failed".
fio_failing() {
	need_fio
	"$IOSTRAT" gen "$T/tiny" --files 2 --lines 100 --width 80 >/dev/null
	local rc=0
	"$IOSTRAT" fio seq-psync --dataset "$T/tiny" --bs 64k --reps 1 --cache asis --out "$T/r" \
		>"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0"
	grep -q 'seq-psync.fio: fio: size too small' "$T/err" || die "not fio's reason: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] || die "more than one line: $(cat "$T/err")"
	[ ! -s "$T/out" ] || die "a result printed: $(cat "$T/out")"
	[ ! -s "$T/r/results.jsonl" ] || die "a row for a job fio refused"
	[ -s "$T/r/fio-seq-psync-rep1.json.log" ] || die "fio's log not kept"
}
t fio_refusing_the_job_is_its_reason_in_one_line_and_no_row fio_failing

bench_runs_baselines_and_report_prints_ratio() {
	need_fio
	cat >"$T/p.ini" <<INI
[global]
dataset=big
scale=0.001
reps=2
cache=cold

[runs]
strategy=stream
threads=1,2

[baseline]
kind=fio
strategy=stream
INI
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>&1 || die "bench failed"
	ls "$T/r/fio"/*.json >/dev/null || die "fio JSON not kept in the results directory"
	"$IOSTRAT" report "$T/r" | grep -q 'stream/fio-seq-psync' || die "no ratio line"
	"$IOSTRAT" report "$T/r" --format json >"$T/rep.json"
	# the report's ratios are those of summary.csv's medians
	csv_rows "$T/r/summary.csv" | jq -se --slurpfile rep "$T/rep.json" '
		(map({(.config_id): .}) | add) as $summ | $rep[0] as $rep
		| [$rep.tables[] | select(.title | startswith("strategies against their fio"))][0] as $t
		| [$summ[] | select(.kind == "fio")][0].mb_s as $fio
		| ($t.rows | length) == 2
		and all($t.rows[]; $summ[.config_id].mb_s as $run
			| (.mb_s - ($run | tonumber) | fabs) < 1e-6 * ($run | tonumber)
			and (.fio_mb_s - ($fio | tonumber) | fabs) < 1e-6 * ($fio | tonumber)
			and (.ratio / (($run | tonumber) / ($fio | tonumber)) - 1 | fabs) < 1e-6)
		and ($rep.meta.fio | startswith("fio-"))' >/dev/null || die "ratio is not the ratio of the measured numbers"
}
t bench_runs_fio_baselines_and_report_ratio_is_measured_ratio bench_runs_baselines_and_report_prints_ratio

# fio gets no uncached=1 (fio 3.33 has none), so its jobs run cached: a
# --dontcache configuration has no fio baseline.  Its row in the fio table
# is there with the fio cells and the ratio empty, the note says why, and
# the verdict's mirror_ratio (and mirror_job) of its cell are empty; the
# plain configuration keeps its ratio.
dontcache_run_is_paired_with_no_cached_fio_job() {
	need_fio
	need_cmd jq
	printf '[global]\ndataset=big\nscale=0.002\nreps=1\ncache=asis\nstrategy=stream\nfio=1\n\n[plain]\n\n[dontcache]\ndontcache=1\n' >"$T/p.ini"
	IOSTRAT_DATA=$T/data "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >"$T/out" 2>&1 ||
		die "bench failed: $(tail -n 3 "$T/out")"
	grep -q 'does not support RWF_DONTCACHE' "$T/out" && skip "$(grep -m1 RWF_DONTCACHE "$T/out")"
	"$IOSTRAT" report "$T/r" --format json >"$T/rep.json" || die "report failed"
	jq -e '[.tables[] | select(.title | startswith("strategies against their fio"))][0] as $t
		| ($t.rows | map({(.config_id | endswith("/dontcache") | tostring): .}) | add) as $by
		| ($t.rows | length) == 2
		and $by["true"].ratio == null and $by["true"].fio_mb_s == null
		and $by["true"].baseline == ""
		and ($by["false"].ratio | type) == "number"
		and ($t.note | test("--dontcache configurations have none: fio.s jobs ran through the page cache"))' \
		"$T/rep.json" >/dev/null ||
		die "fio table: $(jq -c '.tables[] | select(.title | startswith("strategies against"))' "$T/rep.json")"
	jq -e '[.tables[] | select(.title == "verdict figures") | .rows[]]
		| (map({(.cell | test("/dontcache\\)") | tostring): .}) | add) as $by
		| $by["true"].mirror_ratio == null and $by["true"].mirror_job == null
		and ($by["false"].mirror_ratio | type) == "number"' "$T/rep.json" >/dev/null ||
		die "verdict figures: $(jq -c '.tables[] | select(.title == "verdict figures") | .rows[] | [.cell, .mirror_ratio, .mirror_job]' "$T/rep.json")"
	# figure 4: the stream bar is the plain run's alone (no pooled row of
	# the --dontcache one)
	command -v gnuplot >/dev/null || return 0
	"$IOSTRAT" plot "$T/r" --only fio >/dev/null || die "plot failed"
	jq -eRn --slurpfile rows "$T/r/results.jsonl" '
		[$rows[] | select(.kind == "fio")][0].mb_s as $fio
		| [$rows[] | select(.kind == "run" and (.dontcache | not))][0].mb_s as $run
		| [inputs | select(contains(": stream t1 w0 / fio-seq-psync\""))] as $bars
		| ($bars | length) == 1
		and (($bars[0] | split("\"") | last | [scan("\\S+")][0] | tonumber) - $run / $fio
			| fabs) <= 1e-4 * $run / $fio' "$T/r/plots/data/fio.dat" >/dev/null ||
		die "fio.dat: $(cat "$T/r/plots/data/fio.dat")"
}
t dontcache_run_is_paired_with_no_cached_fio_job

# --out holding results is refused before the preset data set is generated
# (it was made first, 100 MB at the default scale, and only then refused).
fio_out_with_results_refused_before_data() {
	need_fio
	mkdir "$T/r"; : >"$T/r/results.jsonl"
	expect_fail 'r: has results already \(give another --out\)' \
		env IOSTRAT_DATA="$T/data" "$IOSTRAT" fio seq-psync --dataset small --scale 0.001 --out "$T/r"
	[ ! -e "$T/data" ] || die "data generated before the refusal: $(ls "$T/data")"
}
t fio_out_with_results_refused_before_data

# IOSTRAT_FIO_JOBS that is no directory of jobs: the variable is named,
# before any data set is made (fio and bench alike)
fio_jobs_variable_is_named() {
	need_fio
	cd "$T" || die "no $T"
	IOSTRAT_FIO_JOBS=/nonexistent expect_fail '^iostrat: IOSTRAT_FIO_JOBS=/nonexistent: not a readable directory' \
		"$IOSTRAT" fio seq-psync --dataset big --scale 0.001 --reps 1
	IOSTRAT_FIO_JOBS=/etc/passwd expect_fail 'IOSTRAT_FIO_JOBS=/etc/passwd: .*Not a directory' \
		"$IOSTRAT" bench "$TOP/profiles/smoke.ini" --out "$T/r"
	IOSTRAT_FIO_JOBS=$T expect_fail "seq-psync: no such fio job in $T \(IOSTRAT_FIO_JOBS\)" \
		"$IOSTRAT" fio seq-psync --dataset big --scale 0.001 --reps 1
	if [ -e "$T/data" ] || [ -e "$T/r" ]; then die "made a data set or a results directory first"; fi
}
t fio_jobs_variable_that_is_no_directory_is_named fio_jobs_variable_is_named

# A baseline's job is found by its "; mirrors:" line, not from a list:
# one job file dropped into the jobs directory is the baseline of the
# strategy it names.
fio_job_is_found_by_its_mirrors_line() {
	need_fio
	mkdir "$T/jobs"
	sed 's/^; mirrors:.*/; mirrors: stream/' "$TOP/fio-jobs/copy.fio" >"$T/jobs/mine.fio"
	printf '[global]\ndataset=big\nscale=0.001\nreps=1\ncache=asis\n\n[runs]\nstrategy=stream\nfio=1\n' >"$T/p.ini"
	IOSTRAT_FIO_JOBS=$T/jobs "$IOSTRAT" bench "$T/p.ini" --dry-run >"$T/out" 2>&1 ||
		die "dry run failed: $(cat "$T/out")"
	grep -q 'big/fio-mine/' "$T/out" || die "the job was not found by its mirrors line: $(cat "$T/out")"
}
t fio_job_is_found_by_its_mirrors_line

# A job file without a "; mirrors:" line is named in one line when a
# baseline is looked for (every job says what it mirrors, or -).
fio_job_without_mirrors_line_is_named() {
	need_fio
	mkdir "$T/jobs"
	cp "$TOP"/fio-jobs/*.fio "$T/jobs/"
	grep -v '^; mirrors:' "$TOP/fio-jobs/mmap.fio" >"$T/jobs/mmap.fio"
	printf '[global]\ndataset=big\nscale=0.001\nreps=1\ncache=asis\n\n[runs]\nstrategy=stream\nfio=1\n' >"$T/p.ini"
	IOSTRAT_FIO_JOBS=$T/jobs expect_fail 'jobs/mmap.fio: no "; mirrors:" line in its opening comment' \
		"$IOSTRAT" bench "$T/p.ini" --dry-run
}
t fio_job_without_mirrors_line_is_named

